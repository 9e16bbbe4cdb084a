// Products counted by status (migration 13's kept counts) stay exact with migration 16, where an
// import's rows are counted by the statement that inserts them, not by a trigger run per row
// (#32): whatever way a product comes, goes or moves, the kept count equals a real count.
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';

const draft = (sku: string) => ({
  sku,
  name: `Product ${sku}`,
  description: null,
  priceMinor: 100,
  currency: 'EUR',
  stock: 1,
  imageUrl: null,
});

function countsMatch(store: WorkspaceStore): void {
  const kept = store.db
    .prepare(
      "SELECT status, n FROM status_counts WHERE family = 'products' AND n > 0 ORDER BY status",
    )
    .all();
  const real = store.db
    .prepare('SELECT status, COUNT(*) AS n FROM products GROUP BY status ORDER BY status')
    .all();
  expect(kept).toEqual(real);
}

describe("an import's products in the kept counts", () => {
  it('counts rows inserted with a batch once each, and only those inserted', () => {
    const store = WorkspaceStore.open();
    try {
      store.db.exec(
        "INSERT INTO import_batches (id, kind, source, created_at) VALUES ('b1', 'products', 'test', 0)",
      );
      store.products.insert(draft('LONE'));
      store.products.insert({ ...draft('BATCHED'), batchId: 'b1' });
      countsMatch(store);
      // 250 drafts: two whole statements of 100, 50 one by one; 3 SKUs already taken.
      const drafts = Array.from({ length: 250 }, (_, i) => draft(`S-${i}`));
      store.transaction(() => store.products.insertNew(drafts.slice(0, 3), 'b1'));
      const taken = store.transaction(() => store.products.insertNew(drafts, 'b1'));
      expect(taken.map((d) => d.sku)).toEqual(['S-0', 'S-1', 'S-2']);
      countsMatch(store);
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM products').get()).toEqual({ n: 252 });
      // Moves and deletes are still the triggers'.
      store.db.exec("UPDATE products SET status = 'queued' WHERE sku LIKE 'S-1%'");
      store.db.exec("DELETE FROM products WHERE sku LIKE 'S-2%'");
      countsMatch(store);
    } finally {
      store.close();
    }
  });

  it('takes the count back with the rows when the transaction fails', () => {
    const store = WorkspaceStore.open();
    try {
      store.db.exec(
        "INSERT INTO import_batches (id, kind, source, created_at) VALUES ('b1', 'products', 'test', 0)",
      );
      const drafts = Array.from({ length: 120 }, (_, i) => draft(`S-${i}`));
      expect(() =>
        store.transaction(() => {
          store.products.insertNew(drafts, 'b1');
          throw new Error('the disk failed');
        }),
      ).toThrow('the disk failed');
      countsMatch(store);
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM products').get()).toEqual({ n: 0 });
    } finally {
      store.close();
    }
  });
});
