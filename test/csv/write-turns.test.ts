// A big import shares the core (#27 case 1, #32): each of its write transactions holds the
// database only for a few milliseconds of work, on a worker thread for a workspace in a file (on
// this one, holding the event loop, for one in memory), the app's other calls get a turn between
// any two of them, and a write that fails there takes the whole import back.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { testWorkspace } from '../support/workspace';
import { csvFiles } from '../support/csv-files';
import { call } from '../../main/core/operations';
import type { Workspace } from '../../main/core/workspace';

const { folder, fixture } = csvFiles('write-turns');

const productsCsv = (count: number) =>
  `sku,name,price,description\n${Array.from(
    { length: count },
    (_, i) => `S-${i},"Item ${i}, handmade",${i % 900}.05,"A fine product number ${i}"`,
  ).join('\n')}\n`;

/** SQLite's PRAGMA synchronous: 2 is FULL (every commit waits for the disk). */
const FULL = 2;

/**
 * Imports `count` products into `pressroom`, counting turns of the event loop (what another call
 * waiting for the core would get) and timing each of the import's write transactions.
 */
async function importCounted(pressroom: Workspace, count: number) {
  const { store } = pressroom;
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const writes: { ms: number; turn: number; where: string }[] = [];
  const openWriteSteps = store.openWriteSteps.bind(store);
  store.openWriteSteps = (...args) => {
    const writer = openWriteSteps(...args);
    const run = writer.run.bind(writer);
    writer.run = async (steps) => {
      const turn = turns;
      const answer = await run(steps);
      writes.push({ ms: answer.ms, turn, where: writer.where });
      return answer;
    };
    return writer;
  };
  try {
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(productsCsv(count)),
    });
    return { result, writes };
  } finally {
    ticking = false;
  }
}

describe('a big import between other calls', () => {
  it.each([
    ['a file', 'worker', () => join(folder, 'turns.sqlite')],
    ['memory', 'here', () => ':memory:'],
  ])(
    'writes a workspace in %s in transactions of a few milliseconds, with a turn of the event loop between them',
    async (_, where, dbFile) => {
      const pressroom = testWorkspace({ dbFile: dbFile() });
      const { store } = pressroom;
      const { result, writes } = await importCounted(pressroom, 60_000);
      expect(result).toMatchObject({ inserted: 60_000, invalid: 0, written: true });
      expect(writes.length).toBeGreaterThan(10);
      // On a worker thread for a file, so this one reads and checks the next rows meanwhile.
      expect(new Set(writes.map((write) => write.where))).toEqual(new Set([where]));
      // The middle one: a busy machine may stretch a few, never most. Another thread's
      // transaction holds this one's writes (a user's edit) no longer than that.
      const sorted = writes.map((write) => write.ms).sort((a, b) => a - b);
      expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(15);
      // Between two writes the loop turned: another call was answered there, not after the import.
      for (let i = 1; i < writes.length; i++)
        expect(writes[i]?.turn, `write ${i}`).toBeGreaterThan(writes[i - 1]?.turn ?? 0);
      // The import's own commits left the disk to the next one that waits for it (see
      // test/store/write-thread.test.ts); this connection is back to waiting for the disk, as the
      // outbox needs.
      expect(store.db.pragma('synchronous', { simple: true })).toBe(FULL);
      expect(store.products.counts().draft).toBe(60_000);
      pressroom.close();
    },
  );

  it('takes every row back when a write on the worker thread fails halfway', async () => {
    const pressroom = testWorkspace({ dbFile: join(folder, 'fails.sqlite') });
    const { store } = pressroom;
    store.db.exec(`CREATE TRIGGER disk_gone BEFORE INSERT ON products WHEN NEW.sku = 'S-30000'
      BEGIN SELECT RAISE(ABORT, 'the disk went away'); END`);
    await expect(importCounted(pressroom, 60_000)).rejects.toThrow(
      /importFile failed unexpectedly/,
    );
    expect(store.db.prepare('SELECT count(*) AS n FROM products').get()).toEqual({ n: 0 });
    expect(store.db.prepare('SELECT count(*) AS n FROM import_batches').get()).toEqual({ n: 0 });
    expect(store.products.counts().draft).toBe(0);
    pressroom.close();
  });
});
