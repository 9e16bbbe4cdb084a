// A long job's bulk writes run on a connection of their own on a worker thread (#32): the steps
// run as one transaction there exactly as they would here, configured as a long job's writes
// are (foreign keys checked, commits not waiting for the disk), a failing step takes its whole
// transaction back, and a database in memory runs them on this thread through the same code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';
import type { WriteStep } from '../../main/store/write-thread';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-write-thread-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
const stores = {
  'a file, on a worker thread': () =>
    WorkspaceStore.open(join(folder, `workspace-${++files}.sqlite`)),
  'memory, on this thread': () => WorkspaceStore.open(),
};

const addBatch = (id: string): WriteStep => ({
  sql: "INSERT INTO import_batches (id, kind, source, created_at) VALUES (?, 'products', 'test', 0)",
  args: [id],
});
const addDraft = (sku: string, batch: string | null): WriteStep => ({
  sql: `INSERT INTO products (sku, name, price_minor, currency, status, batch_id, created_at, updated_at)
        VALUES (?, 'A name', 100, 'EUR', 'draft', ?, 0, 0) ON CONFLICT (sku) DO NOTHING`,
  args: [sku, batch],
});
const skus = (store: WorkspaceStore) =>
  (store.db.prepare('SELECT sku FROM products ORDER BY id').all() as { sku: string }[]).map(
    (row) => row.sku,
  );

describe.each(Object.entries(stores))('bulk writes to a workspace in %s', (where, open) => {
  it('runs the steps in order as one transaction and answers each one', async () => {
    const store = open();
    const writer = store.openWriteSteps();
    try {
      expect(writer.where).toBe(where.startsWith('a file') ? 'worker' : 'here');
      const { results } = await writer.run([
        addBatch('b1'),
        addDraft('A', 'b1'),
        addDraft('B', 'b1'),
        addDraft('A', 'b1'),
        { sql: 'SELECT count(*) AS n FROM products', args: [], get: true },
        { sql: 'SELECT ? AS changed', args: [], get: true, withChanges: true },
        { sql: 'SELECT sku FROM products WHERE sku = ?', args: ['none'], get: true },
      ]);
      expect(results).toEqual([1, 1, 1, 0, { n: 2 }, { changed: 3 }, null]);
      // Committed: this thread's connection sees it.
      expect(skus(store)).toEqual(['A', 'B']);
    } finally {
      await writer.close();
      store.close();
    }
  });

  it("is configured as a long job's writes: foreign keys checked, commits not waiting for the disk", async () => {
    const store = open();
    const writer = store.openWriteSteps();
    try {
      const { results } = await writer.run([
        { sql: 'PRAGMA foreign_keys', args: [], get: true },
        { sql: 'PRAGMA synchronous', args: [], get: true },
      ]);
      expect(results).toEqual([{ foreign_keys: 1 }, { synchronous: 1 }]);
      // This thread's connection still waits for the disk, as the outbox needs.
      expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      await writer.close();
      store.close();
    }
  });

  it('takes the whole transaction back when a step fails, says why, and goes on', async () => {
    const store = open();
    const writer = store.openWriteSteps();
    try {
      await expect(
        writer.run([addBatch('b1'), addDraft('A', 'b1'), addDraft('B', 'no such batch')]),
      ).rejects.toThrow(/FOREIGN KEY constraint failed/);
      expect(skus(store)).toEqual([]);
      expect(store.db.prepare('SELECT count(*) AS n FROM import_batches').get()).toEqual({ n: 0 });
      await writer.run([addDraft('C', null)]);
      expect(skus(store)).toEqual(['C']);
    } finally {
      await writer.close();
      store.close();
    }
  });
});

describe('a writer on a worker thread', () => {
  it('refuses a transaction once closed', async () => {
    const store = stores['a file, on a worker thread']();
    const writer = store.openWriteSteps();
    await writer.run([addDraft('A', null)]);
    await writer.close();
    await expect(writer.run([addDraft('B', null)])).rejects.toThrow(/ended/);
    expect(skus(store)).toEqual(['A']);
    store.close();
  });

  it('runs on this thread when asked to, for a job too small to start a thread for', async () => {
    const store = stores['a file, on a worker thread']();
    const writer = store.openWriteSteps(false);
    expect(writer.where).toBe('here');
    await writer.run([addDraft('A', null)]);
    expect(skus(store)).toEqual(['A']);
    await writer.close();
    store.close();
  });
});
