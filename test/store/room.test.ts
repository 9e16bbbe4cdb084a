// What a long job (an import, a sync) awaits between its transactions lets the app's other work
// in (#32): a timer or I/O that came due while the job held the thread runs before the job's
// next transaction, wherever in the event loop the job runs. A job that resumed after an I/O
// callback (a sync page's body arriving) and turned with one setImmediate went on in the same
// turn of the loop, before any due timer: a page's read and write ran as one 20-60 ms stretch.
import { readFile } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-room-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Holds the thread past a timer's due time, as a slice of work does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** What ran first: a timer that fell due during a slice, or the job's next slice after `room`. */
function afterIoCallback(store: WorkspaceStore): Promise<string[]> {
  return new Promise((resolve, reject) => {
    readFile(import.meta.filename, () => {
      const order: string[] = [];
      setTimeout(() => order.push('timer'), 0);
      busy(5);
      store.room().then(() => {
        order.push('next slice');
        resolve(order);
      }, reject);
    });
  });
}

describe("a long job's room between transactions", () => {
  it('lets a due timer in before the next slice, even after an I/O callback', async () => {
    const onFile = WorkspaceStore.open(join(folder, 'room.sqlite'));
    const inMemory = WorkspaceStore.open();
    try {
      expect(await afterIoCallback(onFile)).toEqual(['timer', 'next slice']);
      expect(await afterIoCallback(inMemory)).toEqual(['timer', 'next slice']);
    } finally {
      onFile.close();
      inMemory.close();
    }
  });
});
