// bench:import's sync section (Node): a pull sync of many orders from the reference server, run
// by the code of one tree (this one, or the baseline's, ./baseline.ts) in a fresh process, while
// the core is asked for its `status` every 20 ms. Prints the longest wait for an answer (target
// < 16 ms, one frame) and the process's peak memory (target < 150 MB, flat in the list's
// length), for each list length, beside the baseline's. The server runs in a process of its own
// (this tree's `platform` command), so its answers never weigh on the core measured (it shares
// the machine's cores, as a real server does not). The longest wait is also printed from the
// sync's first page on: before it comes the process's first request, once a process, whatever
// the list's length (a tree on Node's fetch loads it there, 45-50 ms in one step).
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { startCli } from '../support/cli';
import { runInTree } from './baseline';

export interface SyncRun {
  /** Orders the sync read. */
  orders: number;
  ms: number;
  /** The longest wait of a `status` call asked every 20 ms while it ran. */
  longestStatusMs: number;
  /** The same from the sync's first page written on (null when the tree reports no pages). */
  longestAfterFirstPageMs: number | null;
  longestStallMs: number;
  peakMb: number;
}

/** A reference server database holding the demo account and `orders` orders in all. */
export function seedOrders(dbFile: string, orders: number): void {
  const server = (file: string) =>
    JSON.stringify(join(process.cwd(), 'main/reference-server', file));
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `
    const { startPlatformServer } = await import(${server('server.ts')});
    const { createDemoOrder, DEMO_SIZE } = await import(${server('seed.ts')});
    const s = await startPlatformServer({ dbFile: ${JSON.stringify(dbFile)}, seed: 'demo', plan: 'enterprise', randomSeed: 7 });
    const { store, accountId } = s;
    const materials = {
      products: store.products.productsForOrders(accountId),
      subscribers: store.subscribers.subscriberRowIds(accountId),
      bots: store.bots.botRowIds(accountId),
    };
    const now = Date.now();
    store.transaction(() => {
      for (let i = DEMO_SIZE.orders; i < ${orders}; i++)
        createDemoOrder(store, accountId, Math.random, now - i * 1000, materials);
    });
    await s.close();
  `,
    ],
    { stdio: 'inherit' },
  );
}

/** Serves `dbFile` with this tree's `platform` command until `stop`. */
export async function servePlatform(dbFile: string) {
  const { child, firstLine } = await startCli([
    '--db',
    dbFile,
    'platform',
    '--json',
    '--port',
    '0',
    '--plan',
    'enterprise',
    '--rate-limit',
    '1000000',
  ]);
  child.stderr.resume();
  const { base_url: apiBase, token } = JSON.parse(firstLine) as {
    base_url: string;
    token: string;
  };
  return {
    apiBase,
    token,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** One full sync into a new workspace `dbFile`, by the code of the tree at `root`. */
export function syncInChild(
  root: string,
  dbFile: string,
  platform: { apiBase: string; token: string },
): SyncRun {
  return runInTree<Omit<SyncRun, 'peakMb'>>(
    root,
    `
    const { setTimeout: sleep } = await import('node:timers/promises');
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const p = new Workspace({ dbFile: ${JSON.stringify(dbFile)}, apiBase: ${JSON.stringify(platform.apiBase)}, token: ${JSON.stringify(platform.token)}, plan: 'enterprise' });
    let syncing = true;
    let firstPageAt = null;
    let longestAfterFirstPageMs = null;
    const probe = (async () => {
      let longest = 0;
      while (syncing) {
        const due = performance.now() + 20;
        await sleep(20);
        p.queue.status();
        const wait = performance.now() - due;
        longest = Math.max(longest, wait);
        if (firstPageAt !== null && due > firstPageAt)
          longestAfterFirstPageMs = Math.max(longestAfterFirstPageMs ?? 0, wait);
      }
      return longest;
    })();
    const stalls = monitorEventLoopDelay({ resolution: 1 });
    stalls.enable();
    const started = performance.now();
    const report = await p.queue.sync(() => (firstPageAt ??= performance.now()));
    const ms = performance.now() - started;
    syncing = false;
    stalls.disable();
    const longestStatusMs = await probe;
    console.log(JSON.stringify({ orders: report.orders, ms, longestStatusMs, longestAfterFirstPageMs, longestStallMs: stalls.max / 1e6 }));
    p.close();
  `,
    'the sync',
  );
}

/**
 * The peak memory of the same kind of process opening a workspace on `platform` and closing it,
 * syncing nothing: what of a sync's peak is the process itself (Node, the tree's code loaded).
 */
export function idleInChild(
  root: string,
  dbFile: string,
  platform: { apiBase: string; token: string },
): number {
  return runInTree<object>(
    root,
    `
    const p = new Workspace({ dbFile: ${JSON.stringify(dbFile)}, apiBase: ${JSON.stringify(platform.apiBase)}, token: ${JSON.stringify(platform.token)}, plan: 'enterprise' });
    p.queue.status();
    console.log('{}');
    p.close();
  `,
    'the idle workspace',
  ).peakMb;
}

/** Prints one sync's figures beside the idle process's peak; a failed baseline run prints why. */
export function describeSync(name: string, run: SyncRun | Error, idleMb: number): string {
  if (run instanceof Error) return `${name}: failed (${run.message.split('\n')[0]})`;
  const orders = typeof run.orders === 'number' ? run.orders : JSON.stringify(run.orders);
  return `${name}: ${orders} orders in ${run.ms.toFixed(0)} ms; status's longest wait ${run.longestStatusMs.toFixed(1)} ms (target < 16 ms; from the first page on: ${run.longestAfterFirstPageMs?.toFixed(1) ?? 'n/a'} ms), longest stall ${run.longestStallMs.toFixed(1)} ms; peak memory ${run.peakMb.toFixed(0)} MB (target < 150 MB; the same process idle: ${idleMb.toFixed(0)} MB)`;
}
