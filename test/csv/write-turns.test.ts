// A big import shares the core (#27 case 1): each of its write transactions holds the database
// (and the event loop) only for a few milliseconds of work, the app's other calls get a turn
// between any two of them, its commits do not each wait for the disk, and the last one does, so
// everything it wrote is on disk when it answers.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { testWorkspace } from '../support/workspace';
import { csvFiles } from '../support/csv-files';
import { call } from '../../main/core/operations';

const { folder, fixture } = csvFiles('write-turns');

const productsCsv = (count: number) =>
  `sku,name,price,description\n${Array.from(
    { length: count },
    (_, i) => `S-${i},"Item ${i}, handmade",${i % 900}.05,"A fine product number ${i}"`,
  ).join('\n')}\n`;

/** SQLite's PRAGMA synchronous: 2 is FULL (every commit waits for the disk). */
const FULL = 2;

describe('a big import between other calls', () => {
  it('writes in transactions of a few milliseconds, with a turn of the event loop between them', async () => {
    const pressroom = testWorkspace({ dbFile: join(folder, 'turns.sqlite') });
    const { store } = pressroom;
    const path = fixture(productsCsv(60_000));
    // A turn of the event loop: what another call waiting for the core would get.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const writes: { ms: number; turn: number; waitsForDisk: boolean }[] = [];
    const transaction = store.transaction.bind(store);
    store.transaction = ((work: () => unknown, ...rest: []) => {
      const started = performance.now();
      const turn = turns;
      const waitsForDisk = store.db.pragma('synchronous', { simple: true }) === FULL;
      try {
        return transaction(work, ...rest);
      } finally {
        writes.push({ ms: performance.now() - started, turn, waitsForDisk });
      }
    }) as typeof store.transaction;
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    ticking = false;
    expect(result).toMatchObject({ inserted: 60_000, invalid: 0, written: true });
    expect(writes.length).toBeGreaterThan(10);
    // The middle one: a busy machine may stretch a few, never most.
    const sorted = writes.map((write) => write.ms).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(15);
    // Between two writes the loop turned: another call was answered there, not after the import.
    for (let i = 1; i < writes.length; i++)
      expect(writes[i]?.turn, `write ${i}`).toBeGreaterThan(writes[i - 1]?.turn ?? 0);
    // The import's own commits leave the disk to the next one that waits for it...
    expect(writes.filter((write) => write.waitsForDisk)).toEqual([]);
    // ...and the connection is back to waiting for the disk, as the outbox needs.
    expect(store.db.pragma('synchronous', { simple: true })).toBe(FULL);
  });
});
