// npm run bench:import — CSV import speed and memory.
//  1. A generated 100,000-row products file (~14 MB): Pressroom's whole import (validation
//     included) beside sqlite3's own `.import` of the same file into a plain table; prints both
//     times and the ratio (target at most 2×) for each of BENCH_ROUNDS rounds (3 unless set),
//     then the median ratio. Each import runs in a fresh process, as an app's first one does.
//     For scale it also times SQLite alone writing the same rows into Pressroom's products table
//     (the sqlite3 shell copying them from the plain table, no JavaScript at all): the part of
//     the import no code of ours can make faster.
//     While it runs, the core is asked for its `status` every 2 ms: the longest wait for an
//     answer is printed (target < 16 ms, one frame). Each round imports with the baseline tree
//     too (./baseline.ts, commit 1880bb5), in the same run.
//  2. A 1,000,000-row products file, imported in a child process: peak memory (target < 300 MB).
//     BENCH_SKIP_MILLION=1 leaves it out.
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspaceDb } from '../../main/store/db';
import { BASELINE_COMMIT, baselineTree } from './baseline';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-bench-import-'));

async function generate(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('sku,name,price,currency,description,stock,image_url\n');
  for (let i = 0; i < rows; i++) {
    const line = `SKU-${String(i).padStart(7, '0')},"Product ${i}, handmade",${(i % 5000) + 1}.${String(i % 100).padStart(2, '0')},EUR,"A fine product number ${i} from our bakery",${i % 250},https://cdn.example.com/p/${i}.jpg\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

interface ChildImport {
  inserted: number;
  invalid: number;
  ms: number;
  /**
   * The longest a `status` call waited for its answer while the import ran: calls are made every
   * 20 ms (a page polling), each timed from when it was due to its answer, so a turn of the event
   * loop the import holds shows in full, as it would to the page asking, and so does the call's
   * own work (counting the products).
   */
  longestStatusMs: number;
  /** The longest turn of the event loop during the import (perf_hooks' event loop delay). */
  longestStallMs: number;
  /** Peak resident memory of the child process. */
  peakMb: number;
}

/**
 * Imports `file` into a new workspace in a fresh Node process, with the code of the tree at
 * `root` (this one, or the baseline's); times importFile alone.
 */
function importInChild(file: string, dbFile: string, root = process.cwd()): ChildImport {
  const child = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      process.execPath,
      '--import',
      'tsx',
      '-e',
      `
    const { Pressroom } = await import(${JSON.stringify(join(root, 'main/core/pressroom.ts'))});
    const { setTimeout: sleep } = await import('node:timers/promises');
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const p = new Pressroom({ dbFile: ${JSON.stringify(dbFile)} });
    let importing = true;
    let longestStatusMs = 0;
    const probe = (async () => {
      while (importing) {
        const due = performance.now() + 20;
        await sleep(20);
        p.queue.status();
        longestStatusMs = Math.max(longestStatusMs, performance.now() - due);
      }
    })();
    const stalls = monitorEventLoopDelay({ resolution: 1 });
    stalls.enable();
    const started = performance.now();
    // Input as the contract checks it, for the baseline's tree and this one alike.
    const r = await p.imports.importFile({
      kind: 'products',
      path: ${JSON.stringify(file)},
      dryRun: false,
      onError: 'abort',
      queue: false,
      past: 'error',
      fillSlots: false,
      allowDuplicates: false,
    });
    const ms = performance.now() - started;
    importing = false;
    stalls.disable();
    await probe;
    const longestStallMs = stalls.max / 1e6;
    console.log(JSON.stringify({ inserted: r.inserted, invalid: r.invalid, ms, longestStatusMs, longestStallMs }));
    p.close();
  `,
    ],
    { encoding: 'utf8', cwd: root },
  );
  if (child.status !== 0) throw new Error(`the import failed: ${child.stderr}`);
  const peakKb = Number(child.stderr.trim().split('\n').at(-1));
  return { ...(JSON.parse(child.stdout) as Omit<ChildImport, 'peakMb'>), peakMb: peakKb / 1024 };
}

const small = join(folder, 'products-100k.csv');
await generate(small, 100_000);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(`100,000-row file: ${mb(statSync(small).size)} MB`);
// Both times move with whatever else the machine runs; the ratio is fair only on a quiet one.
console.log(`load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`);

/**
 * How long sqlite3 takes to copy the rows of `plainDb` (its `.import`) into the products table
 * of a new, empty workspace: the same columns, indexes, checks and journal as an import writes.
 */
function sqliteIntoWorkspace(plainDb: string, workspaceDb: string): number {
  openWorkspaceDb(workspaceDb).close();
  const started = performance.now();
  execFileSync('sqlite3', [workspaceDb], {
    input: `PRAGMA synchronous = FULL;
PRAGMA foreign_keys = ON;
ATTACH ${sqlString(plainDb)} AS plain;
BEGIN;
INSERT INTO import_batches (id, kind, source, created_at) VALUES ('batch-bench', 'products', 'bench', 0);
INSERT INTO products (sku, name, description, price_minor, currency, stock, image_url, status,
    batch_id, created_at, updated_at)
  SELECT sku, name, description, CAST(replace(price, '.', '') AS INTEGER), currency,
    CAST(stock AS INTEGER), image_url, 'draft', 'batch-bench', 0, 0 FROM plain.products;
COMMIT;
`,
  });
  return performance.now() - started;
}

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const baseline = baselineTree();
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const figures = { ratio: [] as number[], status: [] as number[], stall: [] as number[] };
const baselineFigures = { ratio: [] as number[], status: [] as number[], stall: [] as number[] };
for (let round = 1; round <= rounds; round++) {
  const sqliteStart = performance.now();
  execFileSync('sqlite3', [join(folder, `plain-${round}.sqlite`)], {
    input: `.mode csv\n.import ${small} products\n`,
  });
  const sqliteMs = performance.now() - sqliteStart;
  const result = importInChild(small, join(folder, `workspace-${round}.sqlite`));
  const ratio = result.ms / sqliteMs;
  figures.ratio.push(ratio);
  figures.status.push(result.longestStatusMs);
  figures.stall.push(result.longestStallMs);
  const floorMs = sqliteIntoWorkspace(
    join(folder, `plain-${round}.sqlite`),
    join(folder, `floor-${round}.sqlite`),
  );
  console.log(
    `round ${round}: sqlite3 .import ${sqliteMs.toFixed(0)} ms, pressroom import ${result.ms.toFixed(0)} ms (${result.inserted} inserted, ${result.invalid} invalid), ratio ${ratio.toFixed(2)}×, longest status answer ${result.longestStatusMs.toFixed(1)} ms, longest stall ${result.longestStallMs.toFixed(1)} ms; sqlite3 alone into the workspace's table ${floorMs.toFixed(0)} ms (${(floorMs / sqliteMs).toFixed(2)}×)`,
  );
  if (baseline) {
    const before = importInChild(small, join(folder, `baseline-${round}.sqlite`), baseline);
    baselineFigures.ratio.push(before.ms / sqliteMs);
    baselineFigures.status.push(before.longestStatusMs);
    baselineFigures.stall.push(before.longestStallMs);
    console.log(
      `round ${round}, ${BASELINE_COMMIT}: pressroom import ${before.ms.toFixed(0)} ms, ratio ${(before.ms / sqliteMs).toFixed(2)}×, longest status answer ${before.longestStatusMs.toFixed(1)} ms, longest stall ${before.longestStallMs.toFixed(1)} ms`,
    );
  }
}
const beside = (values: number[], digits: number, unit: string) =>
  baseline ? `; ${BASELINE_COMMIT} ${median(values).toFixed(digits)}${unit}` : '';
console.log(
  `ratio: ${median(figures.ratio).toFixed(2)}× (median of ${rounds}${beside(baselineFigures.ratio, 2, '×')}; target ≤ 2×)`,
);
console.log(
  `core's longest answer to status while a 100,000-row import runs: ${median(figures.status).toFixed(1)} ms (median of ${rounds}${beside(baselineFigures.status, 1, ' ms')}; target < 16 ms)`,
);
console.log(
  `  of which the import's longest turn of the event loop: ${median(figures.stall).toFixed(1)} ms (median of ${rounds}${beside(baselineFigures.stall, 1, ' ms')}; target < 16 ms)`,
);

if (process.env.BENCH_SKIP_MILLION !== '1') {
  const big = join(folder, 'products-1m.csv');
  await generate(big, 1_000_000);
  console.log(`1,000,000-row file: ${mb(statSync(big).size)} MB`);
  const result = importInChild(big, join(folder, 'million.sqlite'));
  console.log(
    `1,000,000 rows: ${result.inserted} inserted in ${result.ms.toFixed(0)} ms; peak memory ${result.peakMb.toFixed(0)} MB (target < 300 MB)`,
  );
}

// The files and databases take about 300 MB.
rmSync(folder, { recursive: true, force: true });
