// How a product import writes: many rows per statement in file order, SKUs already in the catalog
// turned back by the insert and handled as re-imports, queued products each with its outbox item,
// and a file too big to keep in memory written as it is read with the same outcome.
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { csvFiles } from '../support/csv-files';
import { call } from '../../main/core/operations';

const { fixture } = csvFiles('write');
const now = Date.UTC(2026, 10, 22, 12);
const workspace = () => testWorkspace({ now: () => now });

const productsCsv = (count: number, row: (i: number) => string) =>
  `sku,name,price,description\n${Array.from({ length: count }, (_, i) => row(i)).join('\n')}\n`;

describe('product writes', () => {
  it('inserts every row in file order with its exact fields, across statements and batches', async () => {
    const pressroom = workspace();
    // 12,345 rows: whole write batches, whole multi-row statements and a remainder of each.
    const path = fixture(productsCsv(12_345, (i) => `S-${i},"Item ${i}",${i}.05,Line ${i}`));
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(result).toMatchObject({ rows: 12_345, inserted: 12_345, invalid: 0, written: true });
    const products = pressroom.store.products.list();
    expect(products).toHaveLength(12_345);
    products.forEach((product, i) =>
      expect(product).toMatchObject({
        id: i + 1,
        sku: `S-${i}`,
        name: `Item ${i}`,
        priceMinor: i * 100 + 5,
        currency: 'USD',
        description: `Line ${i}`,
        stock: null,
        imageUrl: null,
        status: 'draft',
        batchId: result.batch,
        createdAt: now,
        updatedAt: now,
      }),
    );
  });

  it('queues each new product, updates drafts met again, and leaves platform products alone', async () => {
    const pressroom = workspace();
    await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture('sku,name,price\nOLD,Old,1\nSAME,Same,2\n'),
    });
    pressroom.store.cache.mergeProducts([
      {
        id: 'pf_1',
        sku: 'LIVE',
        name: 'Live',
        description: null,
        priceMinor: 300,
        currency: 'USD',
        stock: null,
        imageUrl: null,
      },
    ]);
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      queue: true,
      path: fixture(
        'sku,name,price\nNEW-1,New one,5\nOLD,Old,1.50\nLIVE,Live,4\nSAME,Same,2\nNEW-2,New two,6\n',
      ),
    });
    expect(result).toMatchObject({ inserted: 2, updated: 1, unchanged: 2, invalid: 0 });
    expect(result.warnings).toEqual([
      {
        row: 4,
        column: 'sku',
        value: 'LIVE',
        message:
          'SKU "LIVE" is already on the platform; API v1 cannot change it, so the row was left out',
      },
    ]);
    const bySku = new Map(pressroom.store.products.list().map((p) => [p.sku, p]));
    expect(bySku.get('OLD')).toMatchObject({ priceMinor: 150, batchId: result.batch });
    expect(bySku.get('LIVE')).toMatchObject({ priceMinor: 300, origin: 'remote' });
    expect(
      pressroom.store.outbox.list().map((item) => [item.kind, item.productId, item.dueAt]),
    ).toEqual([
      ['create_product', bySku.get('NEW-1')?.id, now],
      ['create_product', bySku.get('NEW-2')?.id, now],
    ]);
    expect(bySku.get('NEW-1')).toMatchObject({ status: 'queued', batchId: result.batch });
  });

  it('finds the SKUs already in the catalog among new ones, in whole statements and the rest', async () => {
    const pressroom = workspace();
    // Drafts at rows 50 and 250 of the next file: one in a 100-row statement, one in the rest.
    await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture('sku,name,price\nS-49,Kept,49.05\nS-249,Before,1\n'),
    });
    const before = new Map(pressroom.store.products.list().map((p) => [p.sku, p.id]));
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(productsCsv(260, (i) => `S-${i},"${i === 49 ? 'Kept' : `Item ${i}`}",${i}.05`)),
    });
    expect(result).toMatchObject({ rows: 260, inserted: 258, updated: 1, unchanged: 1 });
    const products = pressroom.store.products.list();
    expect(products).toHaveLength(260);
    const bySku = new Map(products.map((p) => [p.sku, p]));
    expect(bySku.get('S-49')).toMatchObject({ id: before.get('S-49'), name: 'Kept' });
    expect(bySku.get('S-249')).toMatchObject({
      id: before.get('S-249'),
      name: 'Item 249',
      priceMinor: 24_905,
      batchId: result.batch,
    });
    // The new ones are added in file order, after the two that were there.
    const added = products.filter((p) => !before.has(p.sku));
    expect(added.map((p) => p.sku)).toEqual(
      Array.from({ length: 260 }, (_, i) => `S-${i}`).filter((sku) => !before.has(sku)),
    );
    expect(added.every((p, i) => i === 0 || p.id > (added[i - 1]?.id ?? 0))).toBe(true);
    // Undo takes back the new ones and gives S-249 its earlier fields.
    expect(call(pressroom, 'undoImport', { batch: result.batch ?? '' })).toEqual({
      kind: 'products',
      removed: 258,
      restored: 1,
    });
    expect(pressroom.store.products.list().map((p) => [p.sku, p.name, p.priceMinor])).toEqual([
      ['S-49', 'Kept', 4905],
      ['S-249', 'Before', 100],
    ]);
  });

  it('writes a file too big to keep as it reads it, with the same outcome', async () => {
    const pressroom = workspace();
    // 3,500 rows of 10,000-character descriptions: about 35 MB, more than an import keeps.
    const long = (i: number) => String(i % 10).repeat(10_000);
    const path = fixture(productsCsv(3_500, (i) => `B-${i},Big ${i},${i},${long(i)}`));
    const bad = fixture(
      productsCsv(3_500, (i) => `B-${i},Big ${i},${i === 3_499 ? 'x' : i},${long(i)}`),
    );
    const refused = await call(pressroom, 'importFile', { kind: 'products', path: bad });
    expect(refused).toMatchObject({ rows: 3_500, invalid: 1, inserted: 0, written: false });
    expect(pressroom.store.products.list()).toEqual([]);

    const seen: number[] = [];
    pressroom.subscribe((event) => {
      if (event.type === 'import') seen.push(event.progress.rowsWritten);
    });
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(result).toMatchObject({ rows: 3_500, inserted: 3_500, written: true });
    const products = pressroom.store.products.list();
    expect(products.map((p) => [p.sku, p.priceMinor, p.description])).toEqual(
      Array.from({ length: 3_500 }, (_, i) => [`B-${i}`, i * 100, long(i)]),
    );
    expect(seen.at(-1)).toBe(3_500);
  });
});
