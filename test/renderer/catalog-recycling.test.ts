// The catalog grid's row pool (jsdom): row elements are reused as the view scrolls (a slot shows
// another product), and what recycling could break holds: an edit, a tick, undo and the focus
// land on the product the row shows now, with its true aria-rowindex.
import { cleanup, fireEvent, render, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CatalogScreen from '../../renderer/src/screens/CatalogScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { fakeCatalog } from './catalog-fixtures';

const ROW_HEIGHT = 34;

async function renderCatalog(count: number) {
  const fake = fakeCatalog(count);
  render(CatalogScreen, { context: shellContext(fake.shell) });
  const grid = await within(document.body).findByRole('grid', { name: 'Products' });
  await within(grid).findByText('SKU-00001');
  const body = grid.querySelector<HTMLElement>('[role="rowgroup"]:nth-of-type(2)')!;
  // jsdom lays nothing out: the scroller says where it is, as a browser's would.
  let scrollTop = 0;
  Object.defineProperty(body, 'scrollTop', {
    configurable: true,
    get: () => scrollTop,
    set: (value: number) => (scrollTop = Math.max(0, value)),
  });
  /** Scrolls as the mouse wheel does, to show row `index` (0-based) at the top. */
  const scrollTo = async (index: number) => {
    scrollTop = index * ROW_HEIGHT;
    await fireEvent.scroll(body);
  };
  return { ...fake, grid, body, scrollTo, scrollTop: () => scrollTop };
}

/** The row element showing `sku`. */
const rowOf = (grid: HTMLElement, sku: string) =>
  within(grid).getByText(sku).closest<HTMLElement>('[role="row"]')!;

const productRows = (body: HTMLElement) => [
  ...body.querySelectorAll<HTMLElement>('.sizer > [role="row"]'),
];

afterEach(cleanup);

describe('the catalog grid’s row pool', () => {
  it('reuses the row elements as the view scrolls, each showing its own product and position', async () => {
    const { grid, body, scrollTo } = await renderCatalog(5000);
    const before = productRows(body);
    await scrollTo(2000);
    const row = await vi.waitFor(() => rowOf(grid, 'SKU-02001'));
    const after = productRows(body);
    // The same elements, none made or thrown away: a slot shows another product.
    expect(after).toHaveLength(before.length);
    expect(after.every((element) => before.includes(element))).toBe(true);
    expect(row.getAttribute('aria-rowindex')).toBe('2002');
    for (const element of after) {
      const index = Number(element.getAttribute('aria-rowindex')) - 2;
      const sku = `SKU-${String(index + 1).padStart(5, '0')}`;
      expect(
        within(element)
          .getByRole('gridcell', { name: /^SKU: / })
          .textContent?.trim(),
      ).toBe(sku);
      expect(element.style.transform).toBe(`translateY(${index * ROW_HEIGHT}px)`);
    }
  });

  it('keeps the rows in the page in their order, as a screen reader reads them', async () => {
    const { grid, body, scrollTo } = await renderCatalog(5000);
    const before = productRows(body);
    const positions = () =>
      productRows(body).map((element) => Number(element.getAttribute('aria-rowindex')));
    // Three rows past the overscan: the slots of the rows that left the top show the rows that
    // came in at the bottom.
    await scrollTo(8);
    await vi.waitFor(() => rowOf(grid, `SKU-${String(before.length + 3).padStart(5, '0')}`));
    expect(productRows(body).every((element) => before.includes(element))).toBe(true);
    const first = positions()[0]!;
    expect(positions()).toEqual(positions().map((_, at) => first + at));
    await scrollTo(2500);
    await vi.waitFor(() => rowOf(grid, 'SKU-02501'));
    const far = positions()[0]!;
    expect(positions()).toEqual(positions().map((_, at) => far + at));
  });

  it('saves an edit in a reused row to the product it shows now, and undoes it there', async () => {
    const { grid, body, products, scrollTo, transport } = await renderCatalog(5000);
    const reused = rowOf(grid, 'SKU-00005');
    await scrollTo(3000);
    await vi.waitFor(() => expect(productRows(body)).toContain(rowOf(grid, 'SKU-03001')));
    const row = productRows(body).find((element) => element === reused)!;
    const sku = within(row)
      .getByRole('gridcell', { name: /^SKU: / })
      .textContent?.trim();
    expect(sku).not.toBe('SKU-00005');
    const id = Number(sku?.slice(4));
    await fireEvent.dblClick(within(row).getByRole('gridcell', { name: /^Name: / }));
    const editor = within(grid).getByRole('textbox', { name: `Name of ${sku}` });
    await fireEvent.input(editor, { target: { value: 'Reused rye' } });
    await fireEvent.keyDown(editor, { key: 'Enter' });
    await vi.waitFor(() => expect(products[id - 1]?.name).toBe('Reused rye'));
    expect(transport.callsOf('saveProduct')).toMatchObject([{ id, name: 'Reused rye' }]);
    expect(products[4]?.name).toBe('Product 5');

    // Far away again, the undo still finds that product.
    await scrollTo(0);
    await within(grid).findByText('SKU-00005');
    await vi.waitFor(() =>
      expect(
        (within(document.body).getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
    await fireEvent.click(within(document.body).getByRole('button', { name: 'Undo' }));
    await vi.waitFor(() => expect(products[id - 1]?.name).toBe(`Product ${id}`));
    expect(products[4]?.name).toBe('Product 5');
  });

  it('ticks the product, not the slot: a reused row shows its own product’s box', async () => {
    const { grid, body, scrollTo } = await renderCatalog(5000);
    const box = within(grid).getByRole('checkbox', { name: 'Select SKU-00002' });
    await fireEvent.click(box);
    expect((box as HTMLInputElement).checked).toBe(true);
    const reused = rowOf(grid, 'SKU-00002');
    await scrollTo(1000);
    await vi.waitFor(() => expect(within(reused).queryByText('SKU-00002')).toBeNull());
    expect(productRows(body)).toContain(reused);
    expect(reused.getAttribute('aria-selected')).toBe('false');
    expect((within(reused).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    await scrollTo(0);
    const back = await vi.waitFor(() => rowOf(grid, 'SKU-00002'));
    expect(back.getAttribute('aria-selected')).toBe('true');
    expect(
      (within(back).getByRole('checkbox', { name: 'Select SKU-00002' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
  });

  it('keeps the focus off another product’s cell when the active row scrolls away; a key brings it back', async () => {
    const { grid, body, scrollTo, scrollTop } = await renderCatalog(5000);
    const start = within(rowOf(grid, 'SKU-00003')).getByRole('gridcell', { name: /^Name: / });
    await fireEvent.click(start);
    start.focus();
    expect(document.activeElement).toBe(start);
    await scrollTo(4000);
    await vi.waitFor(() => rowOf(grid, 'SKU-04001'));
    // The focused element showed another product now: the focus waits on the grid instead.
    expect(document.activeElement).toBe(grid);
    await fireEvent.keyDown(grid, { key: 'ArrowDown' });
    const active = await vi.waitFor(() => {
      const cell = within(rowOf(grid, 'SKU-00004')).getByRole('gridcell', { name: /^Name: / });
      expect(document.activeElement).toBe(cell);
      return cell;
    });
    expect(active.tabIndex).toBe(0);
    expect(active.closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe('5');
    // Scrolled back to show it.
    expect(scrollTop()).toBeLessThanOrEqual(3 * ROW_HEIGHT);
    expect(body.querySelectorAll('.sizer [role="gridcell"][tabindex="0"]')).toHaveLength(1);
    expect(body.contains(document.activeElement)).toBe(true);
  });

  it('Ctrl+End lands on the last row, focused, with its true aria-rowindex', async () => {
    const { grid } = await renderCatalog(5000);
    const start = within(rowOf(grid, 'SKU-00001')).getByRole('gridcell', { name: /^SKU: / });
    await fireEvent.click(start);
    start.focus();
    await fireEvent.keyDown(start, { key: 'End', ctrlKey: true });
    const last = await vi.waitFor(() => {
      const cell = within(rowOf(grid, 'SKU-05000')).getByRole('gridcell', { name: /^Status: / });
      expect(document.activeElement).toBe(cell);
      return cell;
    });
    expect(last.closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe('5001');
    await fireEvent.keyDown(last, { key: 'ArrowUp' });
    await vi.waitFor(() =>
      expect(document.activeElement?.closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe(
        '5000',
      ),
    );
  });
});
