// What a page asks while a large import runs reads no table in full (migration 13): `status` counts
// posts, products and queue items from counts kept by triggers, which match the rows after every
// kind of write (import, queueing, cancel, delete with its cascade, undo); the Queue reads a page
// of open and of finished items from indexes; the catalog's first page counts no rows; the default
// currency reads the newest products only. Checked on SQLite's query plans and on what is read,
// not on timings.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { call } from '../../main/core/operations';
import type { WorkspaceDb } from '../../main/store/db';
import { csvFiles } from '../support/csv-files';

const { fixture } = csvFiles('status-counts');
let pressroom: Workspace | undefined;
afterEach(() => pressroom?.close());

/** The SQL texts `db` prepares while `work` runs. */
function preparedDuring(db: WorkspaceDb, work: () => void): string[] {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  const spy = vi.spyOn(db, 'prepare').mockImplementation((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  });
  try {
    work();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

/** Each step of SQLite's plan for `sql`, its parameters (positional or named) bound to NULL. */
function plan(db: WorkspaceDb, sql: string): string[] {
  const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map(([, name]) => [name, null]));
  const positional = Array<null>(sql.match(/\?/g)?.length ?? 0).fill(null);
  const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const steps = (Object.keys(named).length ? explain.all(named) : explain.all(...positional)) as {
    detail: string;
  }[];
  return steps.map((step) => step.detail);
}

/** Counted the slow way, with zeros for the statuses no row has. */
function countedByScan(db: WorkspaceDb, table: string, column: string, keys: readonly string[]) {
  const counts = Object.fromEntries(keys.map((key) => [key, 0]));
  for (const row of db
    .prepare(`SELECT ${column} AS key, COUNT(*) AS n FROM ${table} GROUP BY ${column}`)
    .all() as { key: string; n: number }[])
    counts[row.key] = row.n;
  return counts;
}

describe('a large workspace', () => {
  it('status reads no posts, products or queue items in full', () => {
    pressroom = testWorkspace();
    const { db } = pressroom.store;
    const p = pressroom;
    // A new workspace's statements are prepared on their first use: this call prepares them all.
    const statements = preparedDuring(db, () => p.queue.status());
    expect(statements.length).toBeGreaterThan(0);
    for (const sql of statements)
      expect(
        plan(db, sql).filter((step) => /^SCAN (posts|products|outbox)\b/.test(step)),
        sql,
      ).toEqual([]);
  });

  it('the Queue reads its open and finished items from indexes, a page of each', () => {
    pressroom = testWorkspace();
    const { db } = pressroom.store;
    const p = pressroom;
    const steps = preparedDuring(db, () => call(p, 'listQueue', { limit: 50 })).flatMap((sql) =>
      plan(db, sql).filter((step) => /\boutbox\b/.test(step)),
    );
    expect(steps).toEqual(
      expect.arrayContaining([
        'SCAN outbox USING INDEX outbox_open',
        'SCAN outbox USING INDEX outbox_finished',
      ]),
    );
    expect(steps.filter((step) => /^SCAN outbox$/.test(step))).toEqual([]);
  });

  it('the catalog’s first page, filtered by status or not, counts no products', () => {
    pressroom = testWorkspace();
    const { db } = pressroom.store;
    const p = pressroom;
    const statements = preparedDuring(db, () => {
      call(p, 'listProducts', { offset: 0, limit: 100 });
      call(p, 'listProducts', { offset: 0, limit: 100, status: 'failed' });
    });
    expect(statements.filter((sql) => /COUNT\(\*\)/.test(sql))).toEqual([]);
  });

  it('the default currency comes from the newest products, not from counting the whole catalog', () => {
    pressroom = testWorkspace();
    const { products } = pressroom.store;
    const add = (currency: string, count: number, from: number) =>
      products.insertNew(
        Array.from({ length: count }, (_, i) => ({
          sku: `${currency}-${from + i}`,
          name: 'Loaf',
          description: null,
          priceMinor: 100,
          currency,
          stock: null,
          imageUrl: null,
        })),
        null,
      );
    add('JPY', 1500, 0);
    add('EUR', 1000, 0);
    expect(pressroom.settings.getSettings().defaultCurrency).toBe('EUR');
    add('JPY', 600, 1500);
    expect(pressroom.settings.getSettings().defaultCurrency).toBe('JPY');
  });

  it('status counts match the rows after imports, queueing, cancelling, deleting and undoing', async () => {
    pressroom = testWorkspace();
    const p = pressroom;
    const { db } = p.store;
    const expectTrue = () => {
      const { posts, products, outbox } = p.queue.status();
      expect(products).toEqual(countedByScan(db, 'products', 'status', Object.keys(products)));
      expect(posts).toEqual(countedByScan(db, 'posts', 'status', Object.keys(posts)));
      expect(outbox).toEqual(countedByScan(db, 'outbox', 'state', Object.keys(outbox)));
    };
    const rows = Array.from({ length: 250 }, (_, i) => `SKU-${i},Loaf ${i},${i + 1}.50,EUR`);
    const first = await call(p, 'importFile', {
      kind: 'products',
      path: fixture(`sku,name,price,currency\n${rows.join('\n')}\n`),
    });
    expect(first.inserted).toBe(250);
    // Taken SKUs are left out of the many-row INSERT by its ON CONFLICT: they count nothing.
    const second = await call(p, 'importFile', {
      kind: 'products',
      path: fixture(`sku,name,price,currency\nSKU-1,Loaf 1,2.50,EUR\nNEW-1,Rye,3.00,EUR\n`),
    });
    expect(second.inserted).toBe(1);
    expectTrue();
    expect(p.queue.status().products.draft).toBe(251);

    const ids = call(p, 'listProducts', { offset: 0, limit: 5 }).rows.map((row) => row.id);
    const items = call(p, 'queueProducts', { ids });
    call(p, 'cancelItem', { id: items[0]!.id });
    expectTrue();
    expect(p.queue.status().products.queued).toBe(4);

    call(p, 'addPost', { text: 'Draft', mode: 'draft' });
    const scheduled = call(p, 'addPost', { text: 'Soon', at: '2030-01-01T09:00:00Z', zone: 'UTC' });
    call(p, 'moveToDrafts', { id: scheduled.id });
    expectTrue();

    // The cancelled product is a draft again; deleting it takes its queue item with it.
    call(p, 'deleteProducts', { ids: [ids[0]!] });
    expectTrue();
    await call(p, 'undoImport', { batch: first.batch! });
    expectTrue();
    expect(p.queue.status().products.draft).toBeLessThan(251);
  });
});
