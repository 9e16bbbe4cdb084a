// The cache's pruning rule: a row goes only after two whole reads in a row missed it; a read that
// was not whole, or a row seen again, resets nothing it should not.
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';

const order = (id: string) => ({
  id,
  status: 'paid',
  currency: 'EUR',
  totalMinor: 100,
  createdAt: null,
  raw: { id },
});
const ids = (store: WorkspaceStore) =>
  store.cache
    .orders({ offset: 0, limit: 100 })
    .rows.map((row) => row.id)
    .sort();

/** One read of orders that sees `seen`, whole or not. */
async function read(store: WorkspaceStore, seen: string[], whole = true) {
  const generation = store.cache.beginRead('orders');
  // Two pages, each its own transaction.
  store.cache.putOrders(seen.slice(0, 1).map(order), generation);
  store.cache.putOrders(seen.slice(1).map(order), generation);
  return store.cache.finishRead('orders', generation, whole);
}

describe('cache pruning', () => {
  it('deletes a row only after two whole reads in a row missed it', async () => {
    const store = WorkspaceStore.open(':memory:');
    await read(store, ['a', 'b', 'c']);
    expect(await read(store, ['a', 'c'])).toEqual({ missedOnce: 1, pruned: 0 });
    expect(ids(store)).toEqual(['a', 'b', 'c']);
    // Seen again (a shifted offset hid it once): its count starts over.
    expect(await read(store, ['a', 'b', 'c'])).toEqual({ missedOnce: 0, pruned: 0 });
    expect(await read(store, ['a', 'c'])).toEqual({ missedOnce: 1, pruned: 0 });
    // A read that was not whole judges nothing.
    expect(await read(store, ['a'], false)).toEqual({ missedOnce: 0, pruned: 0 });
    expect(ids(store)).toEqual(['a', 'b', 'c']);
    expect(await read(store, ['a', 'c'])).toEqual({ missedOnce: 0, pruned: 1 });
    expect(ids(store)).toEqual(['a', 'c']);
    store.close();
  });
});
