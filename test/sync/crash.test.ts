// A sync killed half-way loses nothing (#32): its pages are committed without waiting for the
// disk and its log is checkpointed by another thread, yet a process killed mid-list keeps every
// page it wrote, deletes no cached row (the list was never proven whole), and the next sync
// ends the job, deleting then only what the platform provably no longer has.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';
import { platformWith250Orders } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { testWorkspace } from '../support/workspace';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-sync-crash-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Syncs `dbFile` in a child process that kills itself once `orders` orders were read. */
async function syncKilledAt(dbFile: string, platform: TestPlatform, orders: number) {
  const workspace = JSON.stringify(resolve('main/core/workspace.ts'));
  const config = JSON.stringify({
    dbFile,
    apiBase: platform.server.baseUrl,
    token: platform.server.token,
    plan: 'enterprise',
  });
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `const { Workspace } = await import(${workspace});
       const pressroom = new Workspace(${config});
       await pressroom.queue.sync(({ resource, fetched }) => {
         if (resource === 'orders' && fetched >= ${orders}) process.kill(process.pid, 'SIGKILL');
       });`,
    ],
    { stdio: 'ignore' },
  );
  const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return signal;
}

const cachedOrders = (store: WorkspaceStore) =>
  (store.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;

describe('a sync killed half-way', () => {
  it('keeps every page it wrote, deletes nothing, and the next sync finishes the job', async () => {
    const platform = await platformWith250Orders({ pageCap: 50 });
    const dbFile = join(folder, 'workspace.sqlite');
    const first = testWorkspace({ dbFile, platform, plan: 'enterprise' });
    expect((await first.queue.sync()).orders).toBe(250);
    first.close();

    // Gone from the platform: a whole read would prune it; a read cut short must not.
    await platform.admin('DELETE', '/orders/ord_5');
    expect(await syncKilledAt(dbFile, platform, 100)).toBe('SIGKILL');

    const store = WorkspaceStore.open(dbFile);
    try {
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(cachedOrders(store)).toBe(250);
      // The killed read's pages are there: the rows it saw carry its generation.
      const { generation } = store.db
        .prepare("SELECT generation FROM sync_cursors WHERE resource = 'orders'")
        .get() as { generation: number };
      const seen = store.db
        .prepare('SELECT COUNT(*) AS n FROM orders WHERE seen_in = ?')
        .get(generation) as { n: number };
      expect(seen.n).toBeGreaterThanOrEqual(100);
      expect(store.db.prepare("SELECT id FROM orders WHERE id = 'ord_5'").get()).toEqual({
        id: 'ord_5',
      });
    } finally {
      store.close();
    }

    const next = testWorkspace({ dbFile, platform, plan: 'enterprise' });
    expect((await next.queue.sync()).orders).toBe(249);
    expect(next.store.cache.counts().orders).toBe(249);
  });
});
