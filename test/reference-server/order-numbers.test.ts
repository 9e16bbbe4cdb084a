// The reference server's order numbers: each new order takes the next one, also after an order
// was deleted (the admin API's way to change a list mid-sync). Numbered by counting the orders,
// a new order took the number of the newest one once an older one was gone.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDemoOrder, DEMO_SIZE } from '../../main/reference-server/seed';
import { startPlatformServer } from '../../main/reference-server/server';

describe('reference server order numbers', () => {
  it('gives each new order a number no other order has, after deletions too', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pressroom-orders-')), 'platform.sqlite');
    const server = await startPlatformServer({ dbFile: file, seed: 'demo', randomSeed: 3 });
    const { store, accountId } = server;
    const numbers = () => {
      const db = new Database(file, { readonly: true });
      const rows = db
        .prepare('SELECT id, number FROM orders WHERE account_id = ? ORDER BY id')
        .all(accountId) as { id: number; number: string }[];
      db.close();
      return rows;
    };
    try {
      const seeded = numbers();
      expect(seeded).toHaveLength(DEMO_SIZE.orders);
      expect(seeded.map((order) => order.number)).toEqual(
        seeded.map((_, index) => String(1001 + index)),
      );
      // An older order goes, then the newest.
      expect(store.orders.deleteOrder(accountId, seeded[10]!.id)).toBe(true);
      createDemoOrder(store, accountId, Math.random, Date.now());
      const newest = numbers().at(-1)!;
      expect(newest.number).toBe(String(1001 + DEMO_SIZE.orders));
      expect(store.orders.deleteOrder(accountId, newest.id)).toBe(true);
      createDemoOrder(store, accountId, Math.random, Date.now());
      const all = numbers().map((order) => order.number);
      expect(new Set(all).size).toBe(all.length);
    } finally {
      await server.close();
    }
  });
});
