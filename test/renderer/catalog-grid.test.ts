// The catalog screen rendered over a fake transport (jsdom): the grid's roles and window,
// spreadsheet keys, editing, read-only rows, paste, selection and queueing, empty and error states.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CatalogScreen from '../../renderer/src/screens/CatalogScreen.svelte';
import { CatalogRows } from '../../renderer/src/state/catalog-rows.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { stubJsdom } from './post-editor-fixtures';
import { fakeCatalog } from './catalog-fixtures';
import type { LocalProduct } from '../../shared/domain';

async function renderCatalog(count: number, patch?: (id: number) => Partial<LocalProduct>) {
  const fake = fakeCatalog(count, patch);
  render(CatalogScreen, { context: shellContext(fake.shell) });
  const grid = screen.getByRole('grid', { name: 'Products' });
  await within(grid).findByText('SKU-00001');
  return { ...fake, grid };
}

/** The data cells of the row showing `sku`, by column label. */
function cellOf(grid: HTMLElement, sku: string, column: string): HTMLElement {
  const row = within(grid).getByText(sku).closest('[role="row"]') as HTMLElement;
  return within(row).getByRole('gridcell', { name: new RegExp(`^${column}: `) });
}

const activeCell = (grid: HTMLElement) =>
  grid.querySelector<HTMLElement>('[role="gridcell"][tabindex="0"]')!;

afterEach(cleanup);

describe('the catalog grid', () => {
  it('renders the first window only, with the real size for screen readers', async () => {
    const { grid, transport } = await renderCatalog(5000);
    expect(grid.getAttribute('aria-rowcount')).toBe('5002');
    const rows = within(grid).getAllByRole('row');
    // The header row plus what fits (nothing in jsdom) and the overscan: far from 5,000.
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.length).toBeLessThan(50);
    expect(rows[1]?.getAttribute('aria-rowindex')).toBe('2');
    expect(transport.callsOf('listProducts')[0]).toEqual({
      offset: 0,
      limit: 100,
      sort: 'sku',
      descending: false,
    });
  });

  it('scrolling reads only the rows it brings into view, not again the ones still shown', async () => {
    const { grid } = await renderCatalog(5000);
    const body = grid.querySelector<HTMLElement>('[role="rowgroup"]:nth-of-type(2)')!;
    const rendered = () =>
      [...body.querySelectorAll('[role="row"][aria-rowindex]:not(.new-rows)')].map(
        (row) => Number(row.getAttribute('aria-rowindex')) - 2,
      );
    const lastBefore = Math.max(...rendered());
    const read = vi.spyOn(CatalogRows.prototype, 'row');
    // jsdom lays nothing out: the scroller says where it is, as a browser's would.
    Object.defineProperty(body, 'scrollTop', { configurable: true, writable: true, value: 680 });
    await fireEvent.scroll(body);
    expect(Math.max(...rendered())).toBeGreaterThan(lastBefore);
    const reread = read.mock.calls.map(([index]) => index).filter((index) => index <= lastBefore);
    read.mockRestore();
    // A row that stays rendered keeps what it drew (a row's every cell drawn again on each
    // scroll made the 100,000-product catalog scroll at half the frame rate).
    expect(reread).toEqual([]);
  });

  it('sorts by a clicked column header and says so with aria-sort', async () => {
    const { grid, transport } = await renderCatalog(30);
    const price = within(grid).getByRole('columnheader', { name: /Price/ });
    expect(price.getAttribute('aria-sort')).toBe('none');
    await fireEvent.click(within(price).getByRole('button'));
    expect(price.getAttribute('aria-sort')).toBe('ascending');
    await fireEvent.click(within(price).getByRole('button'));
    expect(price.getAttribute('aria-sort')).toBe('descending');
    await within(grid).findByText('SKU-00030');
    expect(transport.callsOf('listProducts').at(-1)).toMatchObject({
      sort: 'price',
      descending: true,
    });
  });

  it('moves the active cell with the keyboard like a spreadsheet', async () => {
    const { grid } = await renderCatalog(20);
    const start = cellOf(grid, 'SKU-00001', 'SKU');
    expect(start.tabIndex).toBe(0);
    start.focus();
    await fireEvent.keyDown(start, { key: 'ArrowRight' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00001', 'Name'));
    expect(document.activeElement).toBe(activeCell(grid));
    await fireEvent.keyDown(activeCell(grid), { key: 'ArrowDown' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00002', 'Name'));
    await fireEvent.keyDown(activeCell(grid), { key: 'End' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00002', 'Status'));
    await fireEvent.keyDown(activeCell(grid), { key: 'Tab' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00003', 'SKU'));
    await fireEvent.keyDown(activeCell(grid), { key: 'Tab', shiftKey: true });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00002', 'Status'));
    await fireEvent.keyDown(activeCell(grid), { key: 'Home' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00002', 'SKU'));
    await fireEvent.keyDown(activeCell(grid), { key: 'ArrowUp' });
    await fireEvent.keyDown(activeCell(grid), { key: 'ArrowUp' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00001', 'SKU'));
    // A page is the rows that fit in the scroller (a screenful before it is laid out).
    await fireEvent.keyDown(activeCell(grid), { key: 'PageDown' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00017', 'SKU'));
    await fireEvent.keyDown(activeCell(grid), { key: 'PageUp' });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00001', 'SKU'));
    expect(document.activeElement).toBe(activeCell(grid));
    await fireEvent.keyDown(activeCell(grid), { key: 'End', ctrlKey: true });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00020', 'Status'));
    await fireEvent.keyDown(activeCell(grid), { key: 'Home', ctrlKey: true });
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00001', 'SKU'));
  });

  it('edits a cell: Enter opens it, Enter saves and moves down', async () => {
    const { grid, transport, products } = await renderCatalog(10);
    const price = cellOf(grid, 'SKU-00001', 'Price');
    await fireEvent.click(price);
    await fireEvent.keyDown(price, { key: 'Enter' });
    const editor = within(grid).getByRole('textbox', { name: 'Price of SKU-00001' });
    expect(document.activeElement).toBe(editor);
    await fireEvent.input(editor, { target: { value: '4.75' } });
    await fireEvent.keyDown(editor, { key: 'Enter' });
    expect(within(grid).queryByRole('textbox')).toBeNull();
    expect(cellOf(grid, 'SKU-00001', 'Price').textContent).toContain('4.75');
    expect(activeCell(grid)).toBe(cellOf(grid, 'SKU-00002', 'Price'));
    await vi.waitFor(() => expect(products[0]?.priceMinor).toBe(475));
    expect(transport.callsOf('saveProduct')).toHaveLength(1);
  });

  it('cancels an edit with Escape and shows a refused value on the cell', async () => {
    const { grid, transport } = await renderCatalog(10);
    const sku = cellOf(grid, 'SKU-00001', 'SKU');
    await fireEvent.keyDown(sku, { key: 'F2' });
    const editor = within(grid).getByRole('textbox', { name: 'SKU of SKU-00001' });
    await fireEvent.input(editor, { target: { value: 'GONE' } });
    await fireEvent.keyDown(editor, { key: 'Escape' });
    expect(within(grid).queryByRole('textbox')).toBeNull();
    expect(transport.callsOf('saveProduct')).toEqual([]);

    // Typing on a cell starts its editor with that key; a taken SKU comes back refused.
    await fireEvent.keyDown(activeCell(grid), { key: 'S' });
    const typed = within(grid).getByRole('textbox', { name: 'SKU of SKU-00001' });
    expect((typed as HTMLInputElement).value).toBe('S');
    await fireEvent.input(typed, { target: { value: 'SKU-00002' } });
    await fireEvent.keyDown(typed, { key: 'Enter' });
    await vi.waitFor(() =>
      expect(cellOf(grid, 'SKU-00001', 'SKU').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(cellOf(grid, 'SKU-00001', 'SKU').title).toBe(
      'SKU is taken by another product (SKU-00002)',
    );
  });

  it('keeps the editor open on a price that is not a number', async () => {
    const { grid, transport } = await renderCatalog(3);
    const price = cellOf(grid, 'SKU-00002', 'Price');
    await fireEvent.dblClick(price);
    const editor = within(grid).getByRole('textbox', { name: 'Price of SKU-00002' });
    await fireEvent.input(editor, { target: { value: 'about 4' } });
    await fireEvent.keyDown(editor, { key: 'Enter' });
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(within(grid).getByRole('alert').textContent).toBe(
      'Price "about 4" is not a price such as 19.99 or 1.299,00',
    );
    expect(transport.callsOf('saveProduct')).toEqual([]);
  });

  it('reads a decimal comma and shows prices in their currency', async () => {
    const { grid, transport } = await renderCatalog(3, (id) =>
      id === 3 ? { currency: 'KWD', priceMinor: 1250 } : {},
    );
    expect(cellOf(grid, 'SKU-00001', 'Price').textContent?.trim()).toBe('$10.01');
    expect(cellOf(grid, 'SKU-00003', 'Price').textContent).toMatch(/KWD\s1\.250/);
    const price = cellOf(grid, 'SKU-00002', 'Price');
    await fireEvent.dblClick(price);
    const editor = within(grid).getByRole('textbox', { name: 'Price of SKU-00002' });
    expect((editor as HTMLInputElement).value).toBe('10.02');
    await fireEvent.input(editor, { target: { value: '3,80' } });
    await fireEvent.keyDown(editor, { key: 'Enter' });
    await vi.waitFor(() =>
      expect(transport.callsOf('saveProduct')).toMatchObject([{ price: '3.80' }]),
    );
    expect(cellOf(grid, 'SKU-00002', 'Price').textContent?.trim()).toBe('$3.80');
  });

  it('undoes with Ctrl+Z and redoes with Cmd+Shift+Z, or with the toolbar', async () => {
    const { grid, products } = await renderCatalog(3);
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect((undo as HTMLButtonElement).disabled).toBe(true);
    const name = cellOf(grid, 'SKU-00001', 'Name');
    await fireEvent.dblClick(name);
    const editor = within(grid).getByRole('textbox', { name: 'Name of SKU-00001' });
    await fireEvent.input(editor, { target: { value: 'Sourdough' } });
    await fireEvent.keyDown(editor, { key: 'Enter' });
    await vi.waitFor(() => expect(products[0]?.name).toBe('Sourdough'));
    await vi.waitFor(() => expect((undo as HTMLButtonElement).disabled).toBe(false));
    await fireEvent.keyDown(activeCell(grid), { key: 'z', ctrlKey: true });
    await vi.waitFor(() => expect(products[0]?.name).toBe('Product 1'));
    await within(grid).findByText('Product 1');
    await fireEvent.keyDown(activeCell(grid), { key: 'Z', metaKey: true, shiftKey: true });
    await vi.waitFor(() => expect(products[0]?.name).toBe('Sourdough'));
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toContain('Redid'));
    await fireEvent.click(undo);
    await vi.waitFor(() => expect(products[0]?.name).toBe('Product 1'));
  });

  it('marks published rows read-only with the reason, and says why on Enter', async () => {
    const { grid } = await renderCatalog(3, (id) => (id === 1 ? { status: 'published' } : {}));
    const name = cellOf(grid, 'SKU-00001', 'Name');
    expect(name.getAttribute('aria-readonly')).toBe('true');
    const reason = document.getElementById(name.getAttribute('aria-describedby')!);
    expect(reason?.textContent).toBe(
      'Read-only. Published: API v1 has no way to change a published product.',
    );
    expect(cellOf(grid, 'SKU-00002', 'Name').getAttribute('aria-readonly')).toBe('false');
    await fireEvent.click(name);
    await fireEvent.keyDown(name, { key: 'Enter' });
    expect(within(grid).queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Name of SKU-00001 cannot be edited');
  });

  it('pastes rows from a spreadsheet at the active cell', async () => {
    const { grid, products } = await renderCatalog(2);
    const name = cellOf(grid, 'SKU-00002', 'Name');
    await fireEvent.click(name);
    await fireEvent.paste(name, {
      clipboardData: { getData: () => 'Rye "sour"\t4.10\n' },
    });
    await within(grid).findByText('Rye "sour"');
    expect(products[1]).toMatchObject({ name: 'Rye "sour"', priceMinor: 410 });
  });

  it('adds rows pasted below the last row as new drafts, without asking', async () => {
    const { grid, products } = await renderCatalog(2);
    await fireEvent.click(cellOf(grid, 'SKU-00002', 'Name'));
    await fireEvent.keyDown(cellOf(grid, 'SKU-00002', 'Name'), { key: 'ArrowDown' });
    const below = within(grid).getByRole('gridcell', { name: /add them as new drafts/ });
    expect(document.activeElement).toBe(below);
    await fireEvent.paste(below, {
      clipboardData: { getData: () => 'NEW-1\tRoll\t1,25\t4\nNEW-2\tTart\t3\n' },
    });
    await vi.waitFor(() => expect(products.map((p) => p.sku)).toContain('NEW-2'));
    expect(products[2]).toMatchObject({ sku: 'NEW-1', priceMinor: 125, stock: 4 });
    expect(products.slice(0, 2).map((p) => p.name)).toEqual(['Product 1', 'Product 2']);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain('Added 2 new drafts.'),
    );
  });

  it('selects rows with the checkboxes and Shift, then queues them once the user says yes', async () => {
    stubJsdom();
    const { grid, transport } = await renderCatalog(10);
    await fireEvent.click(within(grid).getByRole('checkbox', { name: 'Select SKU-00002' }));
    await fireEvent.click(within(grid).getByRole('checkbox', { name: 'Select SKU-00004' }), {
      shiftKey: true,
    });
    await vi.waitFor(() => expect(screen.getByText('3 selected')).toBeTruthy());
    expect(
      (within(grid).getByRole('checkbox', { name: 'Select SKU-00003' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    const publish = screen.getByRole('button', { name: 'Queue 3 for publishing…' });
    await fireEvent.click(publish);
    // Publishing cannot be taken back: it asks first, with the count and the currency.
    let question = await screen.findByRole('alertdialog', { name: 'Publish 3 products?' });
    expect(question.textContent).toMatch(
      /3 products\s+go to the platform, priced in\s+US dollars? \(USD\)/i,
    );
    expect(question.textContent).toContain('They cannot be changed once published');
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(transport.callsOf('queueProducts')).toEqual([]);
    expect(cellOf(grid, 'SKU-00003', 'Status').textContent).not.toContain('queued');

    await fireEvent.click(publish);
    question = await screen.findByRole('alertdialog', { name: 'Publish 3 products?' });
    await fireEvent.click(
      within(question).getByRole('checkbox', { name: 'Don’t ask again in this workspace' }),
    );
    await fireEvent.click(within(question).getByRole('button', { name: 'Publish 3 products' }));
    await vi.waitFor(() =>
      expect(transport.callsOf('queueProducts')).toEqual([{ ids: [2, 3, 4] }]),
    );
    expect(transport.callsOf('saveSettings')).toEqual([{ askBeforePublishingProducts: false }]);
    await vi.waitFor(() =>
      expect(cellOf(grid, 'SKU-00003', 'Status').textContent).toContain('queued'),
    );
    expect(cellOf(grid, 'SKU-00003', 'Name').getAttribute('aria-readonly')).toBe('true');
  });

  it('scrolls to a product added with the form and highlights it, wherever the sort puts it', async () => {
    const { grid } = await renderCatalog(250);
    const form = screen.getByRole('form', { name: 'Add a product' });
    await fireEvent.input(within(form).getByLabelText('SKU'), { target: { value: 'SKU-00003b' } });
    await fireEvent.input(within(form).getByLabelText('Name'), { target: { value: 'Rye' } });
    await fireEvent.input(within(form).getByLabelText('Price'), { target: { value: '3.40' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Add product' }));
    const sku = await within(grid).findByText('SKU-00003b');
    const row = sku.closest('[role="row"]') as HTMLElement;
    expect(row.getAttribute('aria-rowindex')).toBe('5');
    await vi.waitFor(() => expect(row.classList.contains('added')).toBe(true));
    await vi.waitFor(() => expect(activeCell(grid).closest('[role="row"]')).toBe(row));
    expect(
      within(grid)
        .getAllByRole('row')
        .filter((r) => r.classList.contains('added')),
    ).toEqual([row]);
  });

  it('adds a draft with the form, showing the core’s reason by the field it names', async () => {
    const { grid } = await renderCatalog(2);
    const form = screen.getByRole('form', { name: 'Add a product' });
    await fireEvent.input(within(form).getByLabelText('SKU'), { target: { value: 'SKU-00002' } });
    await fireEvent.input(within(form).getByLabelText('Name'), { target: { value: 'Rye' } });
    await fireEvent.input(within(form).getByLabelText('Price'), { target: { value: '3.40' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Add product' }));
    await within(form).findByText('SKU is taken by another product (SKU-00002)');
    expect(within(form).getByLabelText('SKU').getAttribute('aria-invalid')).toBe('true');
    await fireEvent.input(within(form).getByLabelText('SKU'), { target: { value: 'AAA-1' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Add product' }));
    await within(grid).findByText('AAA-1');
    await vi.waitFor(() =>
      expect((within(form).getByLabelText('SKU') as HTMLInputElement).value).toBe(''),
    );
  });

  it('says what to do when there are no products, and when none match', async () => {
    const fake = fakeCatalog(0);
    render(CatalogScreen, { context: shellContext(fake.shell) });
    await screen.findByText(/No products yet/);
    await fireEvent.input(screen.getByRole('searchbox', { name: 'Search SKU or name' }), {
      target: { value: 'zzz' },
    });
    await screen.findByText(/No products match/);
  });

  it('shows the core’s message when the catalog cannot be read, with a way to try again', async () => {
    const fake = fakeCatalog(3);
    fake.transport.answer('listProducts', () => ({
      ok: false,
      error: { kind: 'internal', message: 'The workspace file is locked by another program' },
    }));
    render(CatalogScreen, { context: shellContext(fake.shell) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The workspace file is locked by another program');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
