// The catalog state (jsdom): windowed fetching, sort/search/filter resets, edits and pastes
// that roll back per row with the core's reasons, clipboard parsing, selection and its actions.
import { describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/answers';
import { parseClipboardTable } from '../../renderer/src/state/catalog-paste';
import type { PasteChoice, PasteQuestion } from '../../renderer/src/state/catalog-paste';
import { CatalogState } from '../../renderer/src/state/catalog.svelte';
import { PAGE_SIZE } from '../../renderer/src/state/catalog-rows.svelte';
import { fakeCatalog, product } from './catalog-fixtures';
import { outboxItem } from '../support/outbox';
import { ok } from './fake-transport';

const sentItem = outboxItem(90, 'create_product', {
  productId: 1,
  state: 'done',
  priority: 1,
  attempts: 1,
  remoteId: 'prod_1',
});

/** Waits for the question a paste asks, checks it, and answers it. */
async function answerPaste(
  catalog: CatalogState,
  choice: PasteChoice,
  expected?: Partial<PasteQuestion>,
): Promise<void> {
  await vi.waitFor(() => expect(catalog.clipboard.pasteQuestion).not.toBeNull());
  if (expected) expect(catalog.clipboard.pasteQuestion).toMatchObject(expected);
  catalog.clipboard.pasteQuestion!.answer(choice);
}

function setup(count = 250, patch?: Parameters<typeof fakeCatalog>[1]) {
  const fake = fakeCatalog(count, patch);
  return { ...fake, catalog: new CatalogState(fake.shell) };
}

/** Queues the selection and, asked whether to publish, says yes as the user would. */
function queueSayingYes(catalog: CatalogState): Promise<void> {
  const queueing = catalog.selection.queueSelected();
  void vi.waitFor(() => {
    const question = catalog.selection.publishQuestion;
    if (!question) throw new Error('not asked yet');
    question.answer(true, false);
  });
  return queueing;
}

describe('parseClipboardTable', () => {
  it('splits rows on line breaks and cells on tabs, ignoring the trailing line break', () => {
    expect(parseClipboardTable('A-1\tApple\t1.50\r\nB-2\tBread\t2\r\n')).toEqual([
      ['A-1', 'Apple', '1.50'],
      ['B-2', 'Bread', '2'],
    ]);
    expect(parseClipboardTable('one')).toEqual([['one']]);
    expect(parseClipboardTable('a\t\tc\n')).toEqual([['a', '', 'c']]);
    expect(parseClipboardTable('')).toEqual([]);
  });

  it('reads quoted cells holding tabs, line breaks and doubled quotes, as spreadsheets copy them', () => {
    expect(parseClipboardTable('"C-3"\t"Two\tcolumns"\t"line\none"\n"say ""hi"""\tx')).toEqual([
      ['C-3', 'Two\tcolumns', 'line\none'],
      ['say "hi"', 'x'],
    ]);
  });

  it('keeps a quote that opens no quoted cell as text', () => {
    expect(parseClipboardTable('5" screen\t"open')).toEqual([['5" screen', '"open']]);
  });
});

describe('catalog state: windows', () => {
  it('fetches only the first window, then the pages the grid scrolls to, each once', async () => {
    const { catalog, transport } = setup(1000);
    await catalog.load();
    expect(transport.callsOf('listProducts')).toEqual([
      { offset: 0, limit: PAGE_SIZE, sort: 'sku', descending: false },
    ]);
    expect(catalog.rows.total).toBe(1000);
    expect(catalog.rows.row(0)?.sku).toBe('SKU-00001');
    expect(catalog.rows.row(PAGE_SIZE)).toBeUndefined();

    // Two scroll steps over the same pages while they are on their way ask for them once.
    await Promise.all([catalog.rows.showRange(450, 520), catalog.rows.showRange(455, 525)]);
    expect(catalog.rows.row(520)?.id).toBe(521);
    const offsets = transport
      .callsOf('listProducts')
      .map((input) => (input as { offset: number }).offset);
    expect(offsets).toEqual([0, 400, 500]);
  });

  it('forgets pages far from the view while scrolling through many rows', async () => {
    const { catalog, transport } = setup(10_000);
    await catalog.load();
    for (let page = 1; page <= 45; page++) {
      await catalog.rows.showRange(page * PAGE_SIZE, page * PAGE_SIZE + 30);
    }
    expect(catalog.rows.row(0)).toBeUndefined();
    expect(catalog.rows.row(4000)?.id).toBe(4001);
    // Scrolling back fetches what was forgotten.
    await catalog.rows.showRange(0, 30);
    expect(catalog.rows.row(0)?.id).toBe(1);
    expect(transport.callsOf('listProducts')).toHaveLength(47);
  });

  it('shows the core’s message when a window fails, and recovers on a retry', async () => {
    const { catalog, transport } = setup(20);
    transport.answer('listProducts', () => ({
      ok: false,
      error: {
        kind: 'internal',
        message: 'Pressroom is not answering; is the server still running?',
      },
    }));
    await catalog.load();
    expect(catalog.rows.error).toBe('Pressroom is not answering; is the server still running?');
    expect(catalog.rows.loaded).toBe(false);
    transport.answer('listProducts', () => ok({ total: 20, rows: [product(1), product(2)] }));
    await catalog.rows.refresh();
    expect(catalog.rows.error).toBeNull();
    expect(catalog.rows.loaded).toBe(true);
    expect(catalog.rows.row(1)?.id).toBe(2);
  });

  it('starts again from the top on a new sort, search or filter, and reverses on a second click', async () => {
    const { catalog, transport } = setup(250, (id) => ({ status: id % 2 ? 'draft' : 'published' }));
    await catalog.load();
    catalog.editor.moveTo(120, 2);
    await catalog.setSort('price');
    expect(catalog.editor.active).toEqual({ row: 0, col: 2 });
    await catalog.setSort('price');
    expect(catalog.view.descending).toBe(true);
    expect(catalog.rows.row(0)?.id).toBe(250);
    await catalog.setSearch('SKU-0001');
    await catalog.setStatus('published');
    expect(transport.callsOf('listProducts').at(-1)).toEqual({
      offset: 0,
      limit: PAGE_SIZE,
      sort: 'price',
      descending: true,
      search: 'SKU-0001',
      status: 'published',
    });
    expect(catalog.rows.total).toBe(5);
    expect(catalog.rows.row(0)?.sku).toBe('SKU-00018');
  });

  it('drops an answer for a search the user has already typed past', async () => {
    const { catalog, transport } = setup(50);
    await catalog.load();
    let settle: (result: CallResult) => void = () => undefined;
    transport.answer('listProducts', () => new Promise((resolve) => (settle = resolve)));
    const slow = catalog.setSearch('S');
    transport.answer('listProducts', () => ok({ total: 1, rows: [product(9)] }));
    await catalog.setSearch('SKU-00009');
    settle(ok({ total: 50, rows: [product(1)] }));
    await slow;
    expect(catalog.rows.total).toBe(1);
    expect(catalog.rows.row(0)?.id).toBe(9);
  });

  it('refreshes the rows on screen when the core says products changed or one was sent', async () => {
    const { catalog, transport, shell, products } = setup(30);
    void shell.start();
    const stop = catalog.watch();
    await catalog.load();
    products[0]!.status = 'published';
    transport.emit({
      type: 'done',
      item: sentItem,
      remoteId: 'prod_1',
    });
    await vi.waitFor(() => expect(catalog.rows.row(0)?.status).toBe('published'));
    const before = transport.callsOf('listProducts').length;
    transport.emit({ type: 'changed', what: 'settings' });
    await Promise.resolve();
    expect(transport.callsOf('listProducts')).toHaveLength(before);
    stop();
    shell.stop();
  });
});

describe('catalog state: editing', () => {
  it('keeps the editor open with the reason for a price the core would refuse, sending nothing', async () => {
    const { catalog, transport } = setup(5);
    await catalog.load();
    catalog.editor.moveTo(0, 2);
    expect(catalog.editor.startEdit()).toBe(true);
    expect(catalog.editor.editing?.text).toBe('10.01');
    catalog.editor.editing!.text = '10.9999';
    await catalog.editor.commitEdit('down');
    expect(catalog.editor.editing?.error).toBe('Price must have at most 2 fraction digits for USD');
    catalog.editor.editing!.text = '1,234';
    await catalog.editor.commitEdit('down');
    expect(catalog.editor.editing?.error).toBe(
      'Price "1,234" is unclear for USD, which has 2 decimals: write 1234 without the separator, or at most 2 decimals',
    );
    expect(transport.callsOf('saveProduct')).toEqual([]);
    catalog.editor.editing!.text = '-3';
    await catalog.editor.commitEdit('down');
    expect(catalog.editor.editing?.error).toBe('Price must not be negative');
  });

  it('refuses a stock that is not a whole number of 0 or more', async () => {
    const { catalog } = setup(5);
    await catalog.load();
    catalog.editor.moveTo(0, 3);
    catalog.editor.startEdit('2.5');
    await catalog.editor.commitEdit('down');
    expect(catalog.editor.editing?.error).toBe('Stock must be a whole number, 0 or more');
  });

  it('shows an edit at once, saves it and moves down', async () => {
    const { catalog, transport } = setup(5);
    await catalog.load();
    catalog.editor.moveTo(1, 2);
    catalog.editor.startEdit('12.5');
    let settle: (result: CallResult) => void = () => undefined;
    transport.answer('saveProduct', () => new Promise((resolve) => (settle = resolve)));
    const saving = catalog.editor.commitEdit('down');
    expect(catalog.rows.row(1)?.priceMinor).toBe(1250);
    expect(catalog.editor.active).toEqual({ row: 2, col: 2 });
    settle(ok(product(2, { priceMinor: 1250, updatedAt: 5 })));
    await saving;
    expect(transport.callsOf('saveProduct')).toEqual([
      {
        id: 2,
        sku: 'SKU-00002',
        name: 'Product 2',
        price: '12.50',
        currency: 'USD',
        description: null,
        stock: 2,
        imageUrl: null,
      },
    ]);
    expect(catalog.rows.row(1)).toMatchObject({ priceMinor: 1250, updatedAt: 5 });
  });

  it('rolls an edit back when the core refuses it and shows its reason on the cell', async () => {
    const { catalog, shell, hold } = setup(5);
    await catalog.load();
    catalog.editor.startEdit('SKU-00003');
    const release = hold();
    const saving = catalog.editor.commitEdit('down');
    expect(catalog.rows.row(0)?.sku).toBe('SKU-00003');
    release();
    await saving;
    const first = catalog.rows.row(0)!;
    expect(first.sku).toBe('SKU-00001');
    expect(catalog.editor.cellError(first, 'sku')).toBe(
      'SKU is taken by another product (SKU-00003)',
    );
    expect(shell.notices.list.at(-1)?.text).toContain('is taken by another product');
    // A later save of that cell clears the mark.
    catalog.editor.moveTo(0, 0);
    catalog.editor.startEdit('FRESH-1');
    await catalog.editor.commitEdit('stay');
    expect(catalog.editor.cellError(catalog.rows.row(0)!, 'sku')).toBeNull();
    expect(catalog.rows.row(0)?.sku).toBe('FRESH-1');
  });

  it('keeps published and platform products read-only and says why', async () => {
    const { catalog, transport } = setup(3, (id) =>
      id === 1
        ? { status: 'published' }
        : id === 2
          ? { origin: 'remote', status: 'published' }
          : {},
    );
    await catalog.load();
    expect(catalog.editor.startEdit()).toBe(false);
    expect(catalog.editor.editing).toBeNull();
    expect(catalog.announcement).toBe(
      'SKU of SKU-00001 cannot be edited. Published: API v1 has no way to change a published product.',
    );
    catalog.editor.moveTo(1, 1);
    expect(catalog.editor.startEdit('x')).toBe(false);
    expect(catalog.announcement).toContain('Made on the platform');
    catalog.editor.moveTo(2, 4);
    expect(catalog.editor.startEdit()).toBe(false);
    expect(catalog.announcement).toContain('The status changes when you queue the product');
    expect(transport.callsOf('saveProduct')).toEqual([]);
  });
});

describe('catalog state: paste', () => {
  it('fills cells from the active one and makes new drafts past the end, in one update', async () => {
    const { catalog, transport, products, shell } = setup(3);
    await catalog.load();
    catalog.editor.moveTo(1, 1);
    const pasting = catalog.clipboard.paste('Loaf\t3.20\nBun\t0.80\t12\nRoll\t1\n');
    await answerPaste(catalog, 'replace', { replaceable: 2, locked: 0, added: 1 });
    await vi.waitFor(() => expect(catalog.rows.row(1)?.name).toBe('Loaf'));
    expect(catalog.rows.row(2)?.name).toBe('Bun');
    await pasting;
    expect(products[1]).toMatchObject({ name: 'Loaf', priceMinor: 320 });
    expect(products[2]).toMatchObject({ name: 'Bun', priceMinor: 80, stock: 12 });
    // The third line fell past the end and starts at the name column, so it has no SKU of its own.
    expect(transport.callsOf('saveProduct')).toHaveLength(2);
    expect(catalog.announcement).toBe('Replaced 2 products; 1 row not saved.');
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Some pasted rows were not saved: row 4: a new product needs SKU',
    );
  });

  it('creates new rows from full lines pasted past the end', async () => {
    const { catalog, products, hold } = setup(2);
    await catalog.load();
    catalog.editor.moveTo(1, 0);
    const release = hold();
    const pasting = catalog.clipboard.paste(
      'SKU-00002\tSecond\t2\nNEW-1\tRoll\t1.25\t4\nNEW-2\tTart\t3',
    );
    await answerPaste(catalog, 'replace', { replaceable: 1, added: 2 });
    // Before the core answers, every pasted row shows: the edit in place, the new ones after it.
    await vi.waitFor(() => expect(catalog.rows.rowCount).toBe(4));
    expect(catalog.rows.row(1)?.name).toBe('Second');
    expect(catalog.rows.row(2)).toMatchObject({ sku: 'NEW-1', priceMinor: 125, stock: 4 });
    expect(catalog.rows.row(3)?.sku).toBe('NEW-2');
    release();
    await pasting;
    expect(products.map((p) => p.sku)).toEqual(['SKU-00001', 'SKU-00002', 'NEW-1', 'NEW-2']);
    expect(products[2]).toMatchObject({ name: 'Roll', priceMinor: 125, stock: 4, status: 'draft' });
    expect(catalog.rows.total).toBe(4);
    expect(catalog.rows.pending).toEqual([]);
    expect(catalog.announcement).toBe('Replaced 1 product; added 2 new drafts.');
    // They land where the sort puts them.
    expect([0, 1, 2, 3].map((i) => catalog.rows.row(i)?.sku)).toEqual([
      'NEW-1',
      'NEW-2',
      'SKU-00001',
      'SKU-00002',
    ]);
  });

  it('rolls back only the rows the core refuses, with their reasons', async () => {
    const { catalog, shell, products } = setup(4, (id) =>
      id === 3 ? { status: 'published' } : {},
    );
    await catalog.load();
    catalog.editor.moveTo(0, 0);
    const pasting = catalog.clipboard.paste('A-1\nSKU-00004\nC-3\nD-4');
    await answerPaste(catalog, 'replace', { replaceable: 3, locked: 1, added: 0 });
    await pasting;
    expect(products.map((p) => p.sku)).toEqual(['A-1', 'SKU-00002', 'SKU-00003', 'D-4']);
    expect(catalog.rows.row(1)?.sku).toBe('SKU-00002');
    expect(catalog.editor.cellError(catalog.rows.row(1)!, 'sku')).toBe(
      'SKU is taken by another product (SKU-00004)',
    );
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Some pasted rows were not saved: SKU-00003: Published: API v1 has no way to change a published product; SKU-00002: sku is taken by another product (SKU-00004)',
    );
  });

  it('refuses a pasted cell the core would refuse, leaving that row as it was', async () => {
    const { catalog, transport } = setup(2);
    await catalog.load();
    catalog.editor.moveTo(0, 2);
    const pasting = catalog.clipboard.paste('1.5.0\t3\n2.00\tmany');
    await answerPaste(catalog, 'replace');
    await pasting;
    expect(transport.callsOf('saveProduct')).toEqual([]);
    expect(catalog.announcement).toBe('2 rows not saved.');
  });
});

describe('catalog state: paste over products asks first', () => {
  it('asks before replacing whole products; Cancel pastes nothing', async () => {
    const { catalog, transport } = setup(5);
    await catalog.load();
    catalog.editor.moveTo(0, 0);
    const pasting = catalog.clipboard.paste('A-1\tApple\t1\nB-2\tBread\t2\nC-3\tCake\t3');
    await answerPaste(catalog, 'cancel', { replaceable: 3, locked: 0, added: 0 });
    await pasting;
    expect(catalog.clipboard.pasteQuestion).toBeNull();
    expect(transport.callsOf('saveProduct')).toEqual([]);
    expect(catalog.announcement).toBe('Nothing was pasted.');
  });

  it('pastes as new products: every row a new draft, the products below left as they were', async () => {
    const { catalog, products, shell } = setup(5);
    await catalog.load();
    catalog.editor.moveTo(3, 0);
    const pasting = catalog.clipboard.paste('A-1\tApple\t1,50\nB-2\tBread\t2\nC-3\tCake\t3');
    await answerPaste(catalog, 'new', { replaceable: 2, added: 1 });
    await pasting;
    expect(products.map((p) => p.sku)).toEqual([
      'SKU-00001',
      'SKU-00002',
      'SKU-00003',
      'SKU-00004',
      'SKU-00005',
      'A-1',
      'B-2',
      'C-3',
    ]);
    expect(products[5]).toMatchObject({ name: 'Apple', priceMinor: 150, status: 'draft' });
    expect(catalog.announcement).toBe('Added 3 new drafts.');
    expect(shell.notices.list.at(-1)).toMatchObject({
      text: 'Added 3 new drafts.',
      action: { label: 'Undo' },
    });
  });

  it('offers new products for rows pasted on locked products, instead of saving nothing', async () => {
    const { catalog, products } = setup(3, () => ({ origin: 'remote', status: 'published' }));
    await catalog.load();
    catalog.editor.moveTo(1, 0);
    const pasting = catalog.clipboard.paste('A-1\tApple\t1\nB-2\tBread\t2');
    await answerPaste(catalog, 'new', { replaceable: 0, locked: 2, added: 0 });
    await pasting;
    expect(products.slice(3).map((p) => [p.sku, p.status])).toEqual([
      ['A-1', 'draft'],
      ['B-2', 'draft'],
    ]);
    expect(catalog.announcement).toBe('Added 2 new drafts.');
  });

  it('pastes into a few cells of one product without asking, as an edit', async () => {
    const { catalog, products, transport } = setup(2);
    await catalog.load();
    catalog.editor.moveTo(1, 1);
    await catalog.clipboard.paste('Zebra cake\t4,20');
    expect(catalog.clipboard.pasteQuestion).toBeNull();
    expect(products[1]).toMatchObject({ name: 'Zebra cake', priceMinor: 420 });
    expect(transport.callsOf('saveProduct')).toHaveLength(1);
    expect(catalog.announcement).toBe('Replaced 1 product.');
  });
});

describe('catalog state: undo and redo', () => {
  it('undoes and redoes an edit through the core', async () => {
    const { catalog, products, shell } = setup(3);
    await catalog.load();
    catalog.editor.moveTo(0, 2);
    catalog.editor.startEdit('3,80');
    await catalog.editor.commitEdit('stay');
    expect(products[0]?.priceMinor).toBe(380);
    expect(shell.notices.list.at(-1)).toMatchObject({
      text: 'Changed price of SKU-00001.',
      action: { label: 'Undo' },
    });
    await catalog.history.undo();
    expect(products[0]?.priceMinor).toBe(1001);
    expect(catalog.rows.row(0)?.priceMinor).toBe(1001);
    expect(catalog.announcement).toBe('Undid the edit of SKU-00001.');
    await catalog.history.redo();
    expect(products[0]?.priceMinor).toBe(380);
    await catalog.history.redo();
    expect(catalog.announcement).toBe('Nothing to redo.');
  });

  it('undoes a paste that replaced products and added drafts, from the notice’s Undo', async () => {
    const { catalog, products, shell } = setup(2);
    await catalog.load();
    catalog.editor.moveTo(0, 0);
    const pasting = catalog.clipboard.paste('A-1\tApple\t1\nB-2\tBread\t2\nC-3\tCake\t3');
    await answerPaste(catalog, 'replace');
    await pasting;
    expect(products.map((p) => p.sku)).toEqual(['A-1', 'B-2', 'C-3']);
    shell.notices.act(shell.notices.list.find((notice) => notice.action)!);
    await vi.waitFor(() => expect(catalog.announcement).toBe('Undid the paste of 3 rows.'));
    expect(products.map((p) => [p.sku, p.name, p.priceMinor])).toEqual([
      ['SKU-00001', 'Product 1', 1001],
      ['SKU-00002', 'Product 2', 1002],
    ]);
    await catalog.history.redo();
    expect(products.map((p) => p.sku)).toEqual(['A-1', 'B-2', 'C-3']);
  });

  it('undoes a delete by creating the drafts again, and redoes it by deleting those', async () => {
    const { catalog, products } = setup(3);
    await catalog.load();
    await catalog.selection.toggle(1, false);
    await catalog.selection.deleteSelected();
    expect(products.map((p) => p.sku)).toEqual(['SKU-00001', 'SKU-00003']);
    await catalog.history.undo();
    expect(products.map((p) => p.sku)).toEqual(['SKU-00001', 'SKU-00003', 'SKU-00002']);
    expect(products[2]).toMatchObject({ name: 'Product 2', priceMinor: 1002, status: 'draft' });
    await catalog.history.redo();
    expect(products.map((p) => p.sku)).toEqual(['SKU-00001', 'SKU-00003']);
  });

  it('undoes a product added with the form, or a duplicate, by deleting it', async () => {
    const { catalog, products } = setup(2);
    await catalog.load();
    expect(await catalog.add({ sku: 'NEW-1', name: 'Roll', price: '1.20' })).toBeNull();
    catalog.editor.moveTo(0, 0);
    await catalog.duplicateActive();
    expect(products.map((p) => p.sku)).toEqual(['SKU-00001', 'SKU-00002', 'NEW-1', 'NEW-1-copy']);
    await catalog.history.undo();
    expect(catalog.announcement).toBe('Undid the copy NEW-1-copy.');
    await catalog.history.undo();
    expect(products.map((p) => p.sku)).toEqual(['SKU-00001', 'SKU-00002']);
  });

  it('keeps no undo for a delete of more than 1,000 products, and says so', async () => {
    const { catalog, products, shell } = setup(1001);
    await catalog.load();
    catalog.selection.selectAllMatching();
    await catalog.selection.deleteSelected();
    expect(products).toEqual([]);
    expect(shell.notices.list.at(-1)).toEqual(
      expect.objectContaining({
        text: 'Deleted 1,001 products. (Too many products to undo here.)',
      }),
    );
    expect(shell.notices.list.at(-1)?.action).toBeUndefined();
    expect(catalog.history.canUndo).toBe(false);
  });

  it('says what could not be undone when the core refuses', async () => {
    const { catalog, products, shell } = setup(2);
    await catalog.load();
    catalog.editor.moveTo(0, 1);
    catalog.editor.startEdit('Renamed');
    await catalog.editor.commitEdit('stay');
    products[0]!.status = 'published';
    await catalog.history.undo();
    expect(products[0]?.name).toBe('Renamed');
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Could not undo all of the edit of SKU-00001: SKU-00001: It is published',
    );
  });
});

describe('catalog state: selection and actions', () => {
  it('selects one row, then a range with Shift, and queues the drafts among them', async () => {
    const { catalog, transport, shell } = setup(10, (id) =>
      id === 4 ? { status: 'published' } : {},
    );
    await catalog.load();
    await catalog.selection.toggle(1, false);
    await catalog.selection.toggle(5, true);
    expect(catalog.selection.selectedCount).toBe(5);
    await catalog.selection.toggle(2, false);
    expect(catalog.selection.selectedCount).toBe(4);
    expect(catalog.selection.isSelected(catalog.rows.row(2)!)).toBe(false);
    await queueSayingYes(catalog);
    expect(transport.callsOf('queueProducts')).toEqual([{ ids: [2, 5, 6] }]);
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Queued 3 products for publishing; 1 already published or queued were left as they are.',
    );
    expect(catalog.selection.selectedCount).toBe(0);
    expect(catalog.rows.row(1)?.status).toBe('queued');
  });

  it('shows queued at once and rolls back when the core refuses', async () => {
    const { catalog, transport, shell } = setup(3);
    await catalog.load();
    await catalog.selection.toggle(0, false);
    let settle: (result: CallResult) => void = () => undefined;
    transport.answer('queueProducts', () => new Promise((resolve) => (settle = resolve)));
    const queueing = queueSayingYes(catalog);
    await vi.waitFor(() => expect(catalog.rows.row(0)?.status).toBe('queued'));
    settle({ ok: false, error: { kind: 'not_allowed', message: 'the queue is paused' } });
    await queueing;
    expect(catalog.rows.row(0)?.status).toBe('draft');
    expect(catalog.selection.selectedCount).toBe(1);
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Could not queue the products: the queue is paused',
    );
  });

  it('selects every matching product and queues the drafts the core lists, minus those unticked', async () => {
    const { catalog, transport } = setup(2500, (id) =>
      id % 1000 === 0 ? { status: 'published' } : {},
    );
    await catalog.load();
    catalog.selection.selectAllMatching();
    expect(catalog.selection.selectedCount).toBe(2500);
    await catalog.selection.toggle(0, false);
    expect(catalog.selection.selectedCount).toBe(2499);
    await queueSayingYes(catalog);
    const [queued] = transport.callsOf('queueProducts') as { ids: number[] }[];
    expect(queued!.ids).toHaveLength(2497);
    expect(queued!.ids).not.toContain(1);
    expect(queued!.ids).not.toContain(1000);
    const bulk = transport
      .callsOf('listProducts')
      .filter((input) => (input as { limit: number }).limit === 1000);
    expect(bulk.map((input) => (input as { status: string }).status)).toEqual([
      'draft',
      'draft',
      'draft',
      'failed',
    ]);
  });

  it('says so when none of the selected products can be queued, and sends nothing', async () => {
    const { catalog, transport, shell } = setup(2, () => ({ status: 'published' }));
    await catalog.load();
    await catalog.selection.toggle(0, false);
    await catalog.selection.queueSelected();
    expect(transport.callsOf('queueProducts')).toEqual([]);
    expect(shell.notices.list.at(-1)?.text).toBe(
      'None of the selected products can be queued: only drafts and failed ones can.',
    );
  });

  it('keeps the rows when the core refuses a delete, and says why', async () => {
    const { catalog, transport, shell } = setup(2);
    await catalog.load();
    await catalog.selection.toggle(1, false);
    transport.answer('deleteProducts', () => ({
      ok: false,
      error: { kind: 'not_allowed', message: 'None of these products can be deleted' },
    }));
    await catalog.selection.deleteSelected();
    expect(catalog.rows.busy.size).toBe(0);
    expect(catalog.selection.selectedCount).toBe(1);
    expect(catalog.rows.row(1)?.id).toBe(2);
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Could not delete the products: None of these products can be deleted',
    );
  });

  it('deletes the selected drafts', async () => {
    const { catalog, transport } = setup(3);
    await catalog.load();
    await catalog.selection.toggle(2, false);
    await catalog.selection.deleteSelected();
    expect(transport.callsOf('deleteProducts')).toEqual([{ ids: [3] }]);
    expect(catalog.rows.total).toBe(2);
  });

  it('duplicates the active row and adds a product, answering the core’s field errors', async () => {
    const { catalog, products } = setup(2);
    await catalog.load();
    await catalog.duplicateActive();
    expect(products.at(-1)?.sku).toBe('SKU-00001-copy');
    expect(await catalog.add({ sku: 'SKU-00002', name: 'x', price: '1' })).toEqual({
      sku: 'is taken by another product (SKU-00002)',
    });
    expect(await catalog.add({ sku: 'NEW', name: 'New', price: '1' })).toBeNull();
    expect(catalog.rows.total).toBe(4);
  });
});
