// The write-ahead log is checkpointed off the main thread (#32): a worker thread copies it into
// the database file while the main thread commits nothing, a long job's log stays bounded, and
// closing, reopening and backing up the file work as before.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';
import { backupDatabase } from '../../main/store/backup';
import { WAL_LIMIT_PAGES, WalCheckpoints } from '../../main/store/checkpoints';
import { openWorkspaceDb } from '../../main/store/db';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-checkpoints-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
const newFile = () => join(folder, `workspace-${++files}.sqlite`);
const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** `count` orders of about 1 KB each, in one transaction. */
function writeOrders(store: WorkspaceStore, from: number, count: number): void {
  store.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO orders (id, status, currency, total_minor, created_at, raw, synced_at, seen_in, missed)
       SELECT printf('ord_%07d', i), 'paid', 'EUR', i, i, '{"note":"' || hex(randomblob(500)) || '"}', 0, 1, 0
       FROM n`,
    )
    .run(from, from + count);
}

async function until(holds: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!holds() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('checkpoints of the write-ahead log', () => {
  it('copy the log into the database file from another thread, while this one commits nothing', async () => {
    const file = newFile();
    const store = WorkspaceStore.open(file);
    try {
      // About 2 MB: under SQLite's own automatic threshold (1,000 pages), which never ran here.
      writeOrders(store, 0, 2_000);
      expect(size(file)).toBeLessThan(1024 * 1024);
      expect(size(`${file}-wal`)).toBeGreaterThan(2 * 1024 * 1024);
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      await until(() => size(file) > 2 * 1024 * 1024);
      expect(size(file)).toBeGreaterThan(2 * 1024 * 1024);
    } finally {
      store.close();
    }
  });

  it.each([
    ['every 100 ms', undefined],
    // Once a minute: a job writing meanwhile must not depend on the worker's own looks.
    ['once a minute', 60_000],
  ])(
    "keep a long job's log bounded, the worker's own looks coming %s: a write after `room()` starts the log over once it is long",
    async (_, everyMs) => {
      const file = newFile();
      const db = openWorkspaceDb(file);
      const store = new WorkspaceStore(
        db,
        undefined,
        undefined,
        WalCheckpoints.start(db, file, everyMs),
      );
      try {
        let longest = 0;
        // 120 MB in 1 MB transactions, as fast as the job can write them.
        for (let i = 0; i < 120; i++) {
          await store.room();
          writeOrders(store, i * 1_000, 1_000);
          longest = Math.max(longest, size(`${file}-wal`));
        }
        expect(longest).toBeLessThan(3 * WAL_LIMIT_PAGES * 4096);
        expect(store.db.prepare('SELECT COUNT(*) AS n FROM orders').get()).toEqual({
          n: 120_000,
        });
      } finally {
        store.close();
      }
    },
  );

  it('leave closing, reopening and backing up the file as they were', async () => {
    const file = newFile();
    const store = WorkspaceStore.open(file);
    writeOrders(store, 0, 3_000);
    const backup = backupDatabase(file, 'daily', { dir: join(folder, 'backups') });
    store.close();
    // The last connection to close copies what is left and removes the log.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const again = WorkspaceStore.open(file);
    try {
      expect(again.db.prepare('SELECT COUNT(*) AS n FROM orders').get()).toEqual({ n: 3_000 });
      writeOrders(again, 3_000, 10);
    } finally {
      again.close();
    }
    const copy = WorkspaceStore.open(backup);
    try {
      expect(copy.db.prepare('SELECT COUNT(*) AS n FROM orders').get()).toEqual({ n: 3_000 });
    } finally {
      copy.close();
    }
  });

  it("hand the checkpoints back to SQLite's own when the worker ends unasked", async () => {
    const store = WorkspaceStore.open(newFile());
    try {
      // A worker that failed (out of memory, a bug): the main connection checkpoints as before.
      const { worker } = (store as unknown as { checkpoints: { worker: Worker } }).checkpoints;
      await worker.terminate();
      await until(() => store.db.pragma('wal_autocheckpoint', { simple: true }) === 1_000);
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
      // And a long job no longer waits for it.
      writeOrders(store, 0, 20_000);
      await store.room();
    } finally {
      store.close();
    }
  });

  it('are none for a database in memory, whose long jobs still get a turn of the event loop', async () => {
    const store = WorkspaceStore.open(':memory:');
    try {
      let turned = false;
      setImmediate(() => (turned = true));
      await store.room();
      expect(turned).toBe(true);
    } finally {
      store.close();
    }
  });
});
