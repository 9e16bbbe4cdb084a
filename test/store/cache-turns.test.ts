// A whole read of a long list ends without holding the core (#27 case 1): judging 100,000 cached
// orders against what the read saw runs in bounded transactions, the event loop turning between
// them, with the same outcome as one. Counted, not timed (#32): a timed bound flaked under load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';
import { CacheStore, JUDGE_ROWS } from '../../main/store/cache';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-cache-turns-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** `count` orders seen by read `generation`, written straight into the cache. */
function seedOrders(store: WorkspaceStore, count: number, generation: number): void {
  store.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO orders (id, status, currency, total_minor, created_at, raw, synced_at, seen_in, missed)
       SELECT printf('ord_%06d', i), 'paid', 'EUR', i, i, '{"note":"' || hex(randomblob(60)) || '"}', 0, ?, 0
       FROM n`,
    )
    .run(count, generation);
}

describe('the end of a whole read of 100,000 orders', () => {
  it('judges them in short transactions, with turns of the event loop between them', async () => {
    const store = WorkspaceStore.open(join(folder, 'orders.sqlite'));
    try {
      const first = store.cache.beginRead('orders');
      seedOrders(store, 100_000, first);
      const second = store.cache.beginRead('orders');
      // The second read sees the even half again.
      store.db
        .prepare('UPDATE orders SET seen_in = ? WHERE CAST(substr(id, 5) AS INTEGER) % 2 = 0')
        .run(second);
      // Counted, not timed: each turn the job lets in comes between two transactions, and
      // between two turns at most JUDGE_ROWS.max rows are judged (half of them missed).
      const turns: { inTransaction: boolean; missed: number }[] = [];
      const missed = store.db.prepare('SELECT COUNT(*) AS n FROM orders WHERE missed = 1');
      const cache = new CacheStore(store.db, Date.now, async () => {
        const { n } = missed.get() as { n: number };
        turns.push({ inTransaction: store.db.inTransaction, missed: n });
        await new Promise((resolve) => setImmediate(resolve));
      });
      const judged = await cache.finishRead('orders', second, true);
      expect(judged).toEqual({ missedOnce: 50_000, pruned: 0 });
      expect(turns.length).toBeGreaterThanOrEqual(100_000 / JUDGE_ROWS.max);
      expect(turns.every((turn) => !turn.inTransaction)).toBe(true);
      const steps = turns.map((turn, index) => turn.missed - (turns[index - 1]?.missed ?? 0));
      expect(Math.max(...steps)).toBeLessThanOrEqual(JUDGE_ROWS.max / 2);
      expect(turns.at(-1)?.missed).toBe(50_000);
      // The same rule as one transaction: a third read missing them prunes them.
      const third = store.cache.beginRead('orders');
      store.db.prepare('UPDATE orders SET seen_in = ? WHERE seen_in = ?').run(third, second);
      expect(await store.cache.finishRead('orders', third, true)).toEqual({
        missedOnce: 0,
        pruned: 50_000,
      });
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM orders').get()).toEqual({ n: 50_000 });
    } finally {
      store.close();
    }
  });
});
