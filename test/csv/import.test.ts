// CSV import end to end through the core: encodings, delimiters, row errors, abort and skip,
// re-import, queueing, undo.
import { mkdtempSync, readFileSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRIORITY } from '../../shared/domain';
import { testWorkspace } from '../support/workspace';
import { UnusableFile } from '../../main/csv/import';
import { csvFiles } from '../support/csv-files';
import { call } from '../../main/core/operations';
import { rejectedBy } from '../support/calls';

const { folder, fixture } = csvFiles('import');
const workspace = () => testWorkspace({ now: () => Date.UTC(2026, 10, 22, 12) });

describe('product import', () => {
  it('refuses a file with any bad row, naming row, column, value and why; writes nothing', async () => {
    const pressroom = workspace();
    const path = fixture(
      'sku,name,price,stock\nA,Loaf,3.50,4\nB,,x,-1\n"C","Cake, large","1,299.00",\nA,Again,1,1\n',
    );
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(result).toMatchObject({ rows: 4, invalid: 2, inserted: 0, batch: null, written: false });
    expect(result.errors).toEqual([
      { row: 3, column: 'name', value: '', message: 'Name is required' },
      {
        row: 3,
        column: 'price',
        value: 'x',
        message: 'Price "x" is not a price such as 19.99 or 1.299,00',
      },
      { row: 3, column: 'stock', value: '-1', message: 'Stock must be a whole number, 0 or more' },
      { row: 5, column: 'sku', value: 'A', message: 'SKU "A" appears already in row 2' },
    ]);
    expect(pressroom.store.products.list()).toEqual([]);
  });

  it('writes the valid rows with --on-error skip, exactly, as an undoable batch', async () => {
    const pressroom = workspace();
    const path = fixture(
      'sku,name,price,currency\nA,Loaf,3.50,EUR\nB,Bad,-2,EUR\nC,Cake,"1.299,00",EUR\n',
    );
    const result = await call(pressroom, 'importFile', { kind: 'products', path, onError: 'skip' });
    expect(result).toMatchObject({ rows: 3, inserted: 2, invalid: 1, written: true });
    expect(
      pressroom.store.products.list().map((p) => [p.sku, p.priceMinor, p.currency, p.status]),
    ).toEqual([
      ['A', 350, 'EUR', 'draft'],
      ['C', 129900, 'EUR', 'draft'],
    ]);
    expect(call(pressroom, 'undoImport', { batch: result.batch ?? '' })).toEqual({
      kind: 'products',
      removed: 2,
      restored: 0,
    });
    expect(pressroom.store.products.list()).toEqual([]);
    expect(() => call(pressroom, 'undoImport', { batch: result.batch ?? '' })).toThrow(
      'was undone already',
    );
  });

  it('re-imports safely: unchanged rows are unchanged, changed drafts updated', async () => {
    const pressroom = workspace();
    const first = fixture('sku,name,price\nA,Loaf,3.50\nB,Bun,1\n');
    await call(pressroom, 'importFile', { kind: 'products', path: first });
    const again = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture('sku,name,price\nA,Loaf,3.50\nB,Bun,1.20\n'),
    });
    expect(again).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
    expect(pressroom.store.products.list().map((p) => p.priceMinor)).toEqual([350, 120]);
  });

  it('undoes a re-import by restoring the drafts it changed, removing only what it added', async () => {
    const pressroom = workspace();
    const first = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture('sku,name,price\nA,Loaf,3.50\nB,Bun,1\n'),
    });
    const again = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture('sku,name,price,stock\nA,Loaf,3.50,\nB,Big bun,1.20,7\nC,Cake,9\n'),
    });
    expect(again).toMatchObject({ inserted: 1, updated: 1, unchanged: 1 });
    expect(call(pressroom, 'undoImport', { batch: again.batch ?? '' })).toEqual({
      kind: 'products',
      removed: 1,
      restored: 1,
    });
    expect(
      pressroom.store.products.list().map((p) => [p.sku, p.name, p.priceMinor, p.stock, p.batchId]),
    ).toEqual([
      ['A', 'Loaf', 350, null, first.batch],
      ['B', 'Bun', 100, null, first.batch],
    ]);
    // The first import, undone in turn, takes its own products away.
    expect(call(pressroom, 'undoImport', { batch: first.batch ?? '' })).toMatchObject({
      removed: 2,
    });
    expect(pressroom.store.products.list()).toEqual([]);
  });

  it('takes back what it wrote when a bad row comes late, with on-error abort', async () => {
    const pressroom = workspace();
    await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture('sku,name,price\nSKU-1,Kept as it was,1\n'),
    });
    const before = pressroom.store.products.list();
    // More rows than one write transaction, so some are written before the bad one is read.
    const rows = Array.from({ length: 25_000 }, (_, i) => `SKU-${i},Item ${i},${i}.99`);
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(`sku,name,price\n${rows.join('\n')}\nSKU-X,Bad,abc\n`),
    });
    expect(result).toMatchObject({
      rows: 25_001,
      invalid: 1,
      inserted: 0,
      updated: 0,
      batch: null,
      written: false,
    });
    expect(result.errors).toEqual([
      {
        row: 25_002,
        column: 'price',
        value: 'abc',
        message: 'Price "abc" is not a price such as 19.99 or 1.299,00',
      },
    ]);
    expect(pressroom.store.products.list()).toEqual(before);
    const batches = pressroom.store.db
      .prepare('SELECT COUNT(*) AS n FROM import_batches')
      .get() as { n: number };
    expect(batches.n).toBe(1);
  });

  it('keeps only the items a user sent out while an import it then takes back was running', async () => {
    const pressroom = workspace();
    const rows = Array.from({ length: 12_000 }, (_, i) => `SKU-${i},Item ${i},1`);
    const path = fixture(`sku,name,price\n${rows.join('\n')}\nSKU-X,Bad,abc\n`);
    let sent: number | undefined;
    pressroom.subscribe((event) => {
      if (event.type !== 'import') return;
      const { progress } = event;
      if (progress.rowsWritten === 0 || sent !== undefined) return;
      // The user queues a draft the import has just written, and the queue starts sending it.
      const draft = pressroom.store.products.list().find((p) => p.sku === 'SKU-5');
      if (!draft) throw new Error('SKU-5 should be written by now');
      const item = pressroom.store.outbox.enqueue({
        kind: 'create_product',
        productId: draft.id,
        priority: PRIORITY.due,
        dueAt: 0,
      });
      pressroom.store.outbox.claim(item.id);
      sent = draft.id;
    });
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(sent).toBeDefined();
    expect(result).toMatchObject({ invalid: 1, inserted: 1, written: false });
    expect(result.batch).toEqual(expect.any(String));
    expect(pressroom.store.products.list()).toEqual([
      expect.objectContaining({ id: sent, sku: 'SKU-5', status: 'sending', batchId: result.batch }),
    ]);
    expect(pressroom.store.imports.batch(result.batch ?? '')).toMatchObject({ kind: 'products' });
    expect(() => call(pressroom, 'undoImport', { batch: result.batch ?? '' })).toThrow(
      /have gone to the platform already/,
    );
  });

  it('takes back what it wrote when the import fails midway', async () => {
    const pressroom = workspace();
    const rows = Array.from({ length: 12_000 }, (_, i) => `SKU-${i},Item ${i},1`);
    const path = fixture(`sku,name,price\n${rows.join('\n')}\n`);
    pressroom.subscribe((event) => {
      if (event.type === 'import' && event.progress.rowsWritten > 0)
        throw new Error('the window went away');
    });
    await expect(
      call(pressroom, 'importFile', { kind: 'products', path, onError: 'skip' }),
    ).rejects.toMatchObject({ cause: new Error('the window went away') });
    expect(pressroom.store.products.list()).toEqual([]);
  });

  it('takes back, at start-up, an import whose process died midway', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-import-crash-'));
    const dbFile = join(folder, 'workspace.sqlite');
    let clock = Date.UTC(2026, 10, 22, 12);
    const crashed = testWorkspace({ dbFile, now: () => clock });
    await call(crashed, 'importFile', {
      kind: 'products',
      path: fixture('sku,name,price\nA,Loaf,3\n'),
    });
    // What a process leaves when it dies between two write transactions of an import.
    const batch = crashed.store.imports.createBatch('products', 'big.csv');
    crashed.store.products.insertNew(
      [
        {
          sku: 'B',
          name: 'Bun',
          description: null,
          priceMinor: 1,
          currency: 'EUR',
          stock: null,
          imageUrl: null,
        },
      ],
      batch,
    );
    crashed.close();
    // Still beating a moment ago: it may be another process's import in progress.
    clock += 10_000;
    const soon = testWorkspace({ dbFile, now: () => clock });
    expect(soon.store.products.list().map((p) => p.sku)).toEqual(['A', 'B']);
    soon.close();
    clock += 120_000;
    const later = testWorkspace({ dbFile, now: () => clock });
    expect(later.store.products.list().map((p) => p.sku)).toEqual(['A']);
    expect(later.store.imports.batch(batch)).toBeUndefined();
    later.close();
  });

  it.each([
    [
      'UTF-8 with BOM, semicolons, CRLF',
      Buffer.from('\ufeffSKU;Title;Variant Price\r\nX-1;Crème brûlée;4,50\r\n', 'utf8'),
    ],
    [
      'UTF-16 LE with BOM, tabs',
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('sku\tname\tprice\nX-1\tCrème brûlée\t4.50\n', 'utf16le'),
      ]),
    ],
    [
      'Windows-1252',
      Buffer.from([
        ...Buffer.from('sku,name,price\nX-1,Cr'),
        0xe8,
        ...Buffer.from('me br'),
        0xfb,
        ...Buffer.from('l'),
        0xe9,
        ...Buffer.from('e,4.50\n'),
      ]),
    ],
  ])('reads %s without mojibake', async (_name, bytes) => {
    const pressroom = workspace();
    const result = await call(pressroom, 'importFile', { kind: 'products', path: fixture(bytes) });
    expect(result.inserted).toBe(1);
    expect(pressroom.store.products.list()[0]).toMatchObject({
      name: 'Crème brûlée',
      priceMinor: 450,
    });
  });

  it('stops before any row when a required column is missing, or the file is unusable', async () => {
    const pressroom = workspace();
    await expect(
      call(pressroom, 'importFile', { kind: 'products', path: fixture('sku,title\nA,B\n') }),
    ).rejects.toThrow(/has no "price" column/);
    expect(
      await rejectedBy(call(pressroom, 'importFile', { kind: 'products', path: fixture('') })),
    ).toBeInstanceOf(UnusableFile);
    await expect(
      call(pressroom, 'importFile', { kind: 'products', path: join(folder, 'nope.csv') }),
    ).rejects.toThrow('does not exist');
    const aFolder = mkdtempSync(join(folder, 'a-folder-'));
    await expect(
      call(pressroom, 'importFile', { kind: 'products', path: aFolder }),
    ).rejects.toThrow(`${aFolder} is a folder: choose a CSV file`);
  });

  it('names the columns it leaves out, and those a missing column leaves, briefly', async () => {
    const pressroom = workspace();
    const extra = Array.from({ length: 30 }, (_, i) => `extra ${i} ${'z'.repeat(300)}`);
    const path = fixture(`sku,name,price,${extra.join(',')}\nA,Loaf,1.00\n`);
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(result.unknownColumns).toHaveLength(30);
    expect(result.unknownColumns.every((name) => name.length === 100 && name.endsWith('z…'))).toBe(
      true,
    );
    const noPrice = fixture(`sku,name,${extra.join(',')}\nA,Loaf\n`);
    const refusal = await rejectedBy(
      call(pressroom, 'importFile', { kind: 'products', path: noPrice }),
    );
    expect((refusal as Error).message).toMatch(
      /has no "price" column \(the header row has: sku, name, extra 0 z+…, .* and 12 more\)$/,
    );
    expect((refusal as Error).message.length).toBeLessThan(2_500);
  });

  it('keeps a row error short, however long the cell it quotes', async () => {
    const pressroom = workspace();
    const huge = 'x'.repeat(1_000_000);
    const path = fixture(`sku,name,price,currency\nA,${huge},${huge},${huge}\n`);
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(result.errors.map((error) => error.column)).toEqual(['name', 'currency', 'price']);
    for (const error of result.errors) {
      expect(error.value).toHaveLength(100);
      expect(error.value.endsWith('x…')).toBe(true);
      expect(error.message.length).toBeLessThan(200);
    }
    expect(result.errors[1]?.message).toBe(
      `"${'X'.repeat(99)}…" is not an ISO 4217 currency code such as USD`,
    );
  });
});

describe('post import', () => {
  it('reads times in the row’s zone, refuses DST gaps, and queues with --queue', async () => {
    const pressroom = workspace();
    const path = fixture(
      [
        'caption,date,time,timezone,channel,media',
        'Morning,2026-12-01,9:00 AM,Europe/Berlin,bot_1,https://example.com/a.jpg|https://example.com/b.jpg',
        'Gap,2026-03-29,02:30,Europe/Berlin,bot_1,',
        'No time,,,,bot_1,',
        'Past,2026-11-01,10:00,UTC,bot_1,',
      ].join('\n'),
    );
    const refused = await call(pressroom, 'importFile', { kind: 'posts', path, queue: true });
    expect(refused.errors.map((e) => [e.row, e.message])).toEqual([
      [
        3,
        '2026-03-29 02:30 does not exist in Europe/Berlin (the clocks skip it for daylight saving time)',
      ],
      [5, 'This time is in the past; fix it, or import with --past publish-now'],
    ]);
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      queue: true,
      onError: 'skip',
      past: 'publish-now',
    });
    expect(result).toMatchObject({ inserted: 3, invalid: 1 });
    const posts = Object.fromEntries(call(pressroom, 'listPosts').map((post) => [post.text, post]));
    expect(posts.Morning).toMatchObject({
      scheduledAt: Date.UTC(2026, 11, 1, 8),
      zone: 'Europe/Berlin',
      status: 'scheduled',
      mediaUrls: ['https://example.com/a.jpg', 'https://example.com/b.jpg'],
    });
    expect(posts['No time']?.status).toBe('draft');
    expect(posts.Past?.status).toBe('scheduled');
    const again = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      onError: 'skip',
      past: 'publish-now',
      queue: true,
    });
    expect(again).toMatchObject({ inserted: 0, unchanged: 3 });
  });

  it('reports progress while it reads', async () => {
    const pressroom = workspace();
    const rows = Array.from({ length: 12_000 }, (_, i) => `SKU-${i},Item ${i},${i}.99`).join('\n');
    const seen: number[] = [];
    pressroom.subscribe((event) => {
      if (event.type === 'import') seen.push(event.progress.rowsRead);
    });
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(`sku,name,price\n${rows}\n`),
    });
    expect(result.inserted).toBe(12_000);
    expect(seen).toContain(5_000);
    expect(seen.at(-1)).toBe(12_000);
  });
});

describe('Shopify product export', () => {
  it('imports as is: variants take the product’s title and their options, image rows are skipped', async () => {
    const pressroom = workspace();
    const header =
      'Handle,Title,Body (HTML),Vendor,Option1 Name,Option1 Value,Variant SKU,Variant Inventory Qty,Variant Price,Image Src,Status';
    const rows = [
      'sourdough,Sourdough loaf,<p>Slow rise</p>,Bakery,Size,Small,SD-S,12,4.50,https://cdn.example.com/sd.jpg,active',
      'sourdough,,,,,Large,SD-L,5,7.90,,active',
      'sourdough,,,,,,,,,https://cdn.example.com/sd-2.jpg,',
      'babka,Chocolate babka,,Bakery,Title,Default Title,BB-1,,12.50,https://cdn.example.com/bb.jpg,active',
    ];
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture([header, ...rows].join('\n')),
    });
    expect(result).toMatchObject({ rows: 3, inserted: 3, invalid: 0 });
    expect(result.unknownColumns).toEqual(['Vendor', 'Option1 Name']);
    expect(
      pressroom.store.products
        .list()
        .map((p) => [p.sku, p.name, p.priceMinor, p.stock, p.description]),
    ).toEqual([
      ['SD-S', 'Sourdough loaf — Small', 450, 12, '<p>Slow rise</p>'],
      ['SD-L', 'Sourdough loaf — Large', 790, 5, '<p>Slow rise</p>'],
      ['BB-1', 'Chocolate babka', 1250, null, null],
    ]);
  });
});

describe('export', () => {
  it('round-trips a catalog in every ISO 4217 currency without changing a price', async () => {
    const pressroom = workspace();
    const currencies = Intl.supportedValuesOf('currency');
    currencies.forEach((currency, index) =>
      pressroom.store.products.create({
        sku: `SKU-${currency}`,
        name: `Priced in ${currency}`,
        description: null,
        priceMinor: 1250 + index * 1001,
        currency,
        stock: null,
        imageUrl: null,
      }),
    );
    const path = join(folder, 'export-every-currency.csv');
    expect(await call(pressroom, 'exportFile', { kind: 'products', path, bom: false })).toBe(
      currencies.length,
    );
    const again = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(again).toMatchObject({ invalid: 0, updated: 0, unchanged: currencies.length });
    expect(pressroom.store.products.list().find((p) => p.currency === 'KWD')?.priceMinor).toBe(
      1250 + currencies.indexOf('KWD') * 1001,
    );
  });

  it('writes a catalog longer than a page in id order, each product once', async () => {
    const pressroom = workspace();
    const count = 2_345;
    pressroom.store.products.insertNew(
      Array.from({ length: count }, (_, index) => ({
        sku: `LONG-${String(index).padStart(5, '0')}`,
        name: `Product ${index}`,
        description: null,
        priceMinor: 100 + index,
        currency: 'EUR',
        stock: null,
        imageUrl: null,
      })),
      null,
    );
    const path = join(folder, 'export-long-catalog.csv');
    expect(await call(pressroom, 'exportFile', { kind: 'products', path, bom: false })).toBe(count);
    const skus = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(skus).toEqual(
      Array.from({ length: count }, (_, i) => `LONG-${String(i).padStart(5, '0')}`),
    );
  });

  it('writes each post once, in time order as at the start, though one moves while it runs', async () => {
    const pressroom = workspace();
    const start = Date.UTC(2027, 0, 1);
    const ids = Array.from(
      { length: 2_500 },
      (_, index) =>
        pressroom.store.posts.create({
          botId: 'bot_1',
          text: `Post ${index}`,
          mediaUrls: [],
          scheduledAt: start + index * 60_000,
          zone: 'UTC',
        }).id,
    );
    const path = join(folder, 'export-moving-posts.csv');
    const exporting = call(pressroom, 'exportFile', { kind: 'posts', path, bom: false });
    // The export has written its first page: the first post moves past the last.
    await setImmediate();
    pressroom.store.posts.update(ids[0] ?? 0, { scheduledAt: start + 3_000 * 60_000 });
    expect(await exporting).toBe(2_500);
    const texts = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(texts).toEqual(Array.from({ length: 2_500 }, (_, i) => `Post ${i}`));
  });

  it('round-trips: export, then import again, changes nothing', async () => {
    const pressroom = workspace();
    await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(
        'sku,name,price,currency,description,stock,image_url\nA,"Loaf, rye","3.50",EUR,"Line one\nline two",4,https://example.com/a.jpg\nB,Yen bun,1299,JPY,,,\n',
      ),
    });
    await call(pressroom, 'importFile', {
      kind: 'posts',
      path: fixture(
        'text,scheduled_at,timezone,bot,media_urls\n"Hello, ""world""",2026-12-01 09:00,Europe/Berlin,bot_1,https://example.com/a.jpg|https://example.com/b.jpg\nDraft,,,,\n',
      ),
    });
    for (const kind of ['products', 'posts'] as const) {
      const path = join(folder, `export-${kind}.csv`);
      expect(await call(pressroom, 'exportFile', { kind, path, bom: kind === 'posts' })).toBe(2);
      const again = await call(pressroom, 'importFile', { kind, path });
      expect(again).toMatchObject({ rows: 2, inserted: 0, updated: 0, unchanged: 2, invalid: 0 });
    }
  });
});
