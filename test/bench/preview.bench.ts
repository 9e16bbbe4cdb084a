// npm run bench:preview — the import wizard's preview of a 50 MB products file (#29 point 7):
// previewUpload's round trip (sample rows, mapping and a dry run of the whole file) in this tree,
// which reads the file once, beside the same call in the baseline tree (BENCH_BASELINE_COMMIT, by
// default 189f896, the last commit before that change: 1880bb5 had no uploaded previews), which
// opened and mapped it twice. Each tree runs in its
// own Node process on its own workspace, the two trees in turns; the median of three previews each.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { baselineTree, treeModules } from './baseline';
import { benchFolder } from './folders';

const BASELINE_COMMIT = process.env.BENCH_BASELINE_COMMIT ?? '189f896';

const MEGABYTES = Number(process.env.BENCH_PREVIEW_MB ?? 50);
const RUNS = 3;
const folder = benchFolder('pressroom-bench-preview-');

async function writeProducts(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  out.write('sku,name,price,description\n');
  let size = 0;
  let rows = 0;
  while (size < bytes) {
    const line = `SKU-${++rows},Rye loaf ${rows},${(rows % 90) + 1}.50,Stone-baked rye with caraway and a long proof.\n`;
    size += line.length;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return rows;
}

/** One preview of `file`, in ms, with the code of the tree at `root`, in a process of its own. */
function previewInChild(root: string, file: string): number {
  const tree = treeModules(root);
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `
    const { createReadStream } = await import('node:fs');
    ${tree.importWorkspace}
    const operations = await import(${tree.operations});
    const p = new Workspace({ dbFile: ':memory:' });
    const input = (upload) => ({ kind: 'products', upload });
    // The door where there is one (call); the service itself, which validated then, before.
    const preview = (upload) =>
      operations.call ? operations.call(p, 'previewUpload', input(upload)) : p.imports.previewUpload(input(upload));
    {
      const { upload } = await p.imports.receiveUpload('products.csv', createReadStream(${JSON.stringify(file)}));
      const started = performance.now();
      const answer = await preview(upload);
      const took = performance.now() - started;
      if (answer.result.rows === 0) throw new Error('the preview read no rows');
      console.log(JSON.stringify(took));
    }
    p.close();
  `,
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`preview in ${root} failed:\n${child.stderr}`);
  return Number(child.stdout.trim().split('\n').at(-1));
}

const file = join(folder, 'products.csv');
const rows = await writeProducts(file, MEGABYTES * 1024 * 1024);
console.log(
  `A ${MEGABYTES} MB products file, ${rows.toLocaleString('en')} rows; median of ${RUNS} previews each:`,
);
// Taken in turns, so a machine that gets busier halfway weighs on both trees alike.
const baseline = baselineTree(BASELINE_COMMIT);
const trees = [
  ...(baseline ? [{ label: `${BASELINE_COMMIT} (baseline)`, root: baseline }] : []),
  { label: 'this tree', root: process.cwd() },
].map((tree) => ({ ...tree, times: [] as number[] }));
for (let run = 0; run < RUNS; run++)
  for (const tree of trees) tree.times.push(previewInChild(tree.root, file));
for (const { label, times } of trees) {
  const median = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? NaN;
  console.log(`  ${label.padEnd(20)} ${(median / 1000).toFixed(2)} s`);
}
