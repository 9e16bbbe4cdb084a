// The catalog grid over 1,000,000 products in Chromium: 34 million pixels of rows, past the
// browser's ~33.5 million-pixel limit for an element. The last product is reached by Ctrl+End and
// by dragging the scrollbar to the bottom, its row says it is the 1,000,001st (the header is the
// first), and it is edited in place.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalProduct, Page as ProductPage } from '../../shared/domain';
import { manySku, seedManyProducts } from '../support/many-products';
import { callCore, launchChromium, openApp, screenshot, serve } from './harness';
import type { Served } from './harness';

const PRODUCTS = 1_000_000;
const LAST_SKU = manySku(PRODUCTS - 1);

describe('the catalog grid with 1,000,000 products', () => {
  let folder: string;
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pressroom-e2e-million-'));
    const dbFile = join(folder, 'workspace.sqlite');
    seedManyProducts(dbFile, PRODUCTS);
    [served, browser] = await Promise.all([
      serve({ args: ['--db', dbFile] }),
      launchChromium({ scrollbars: true }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function openCatalog(): Promise<{ page: Page; problems: string[] }> {
    const opened = await openApp(browser, served.url);
    await opened.page.getByRole('link', { name: 'Catalog' }).click();
    await opened.page.getByRole('gridcell', { name: `SKU: ${manySku(0)}`, exact: true }).waitFor();
    return opened;
  }

  /** The last product's row, once it is drawn whole inside the grid's scroller. */
  async function lastRowInView(page: Page) {
    const grid = page.getByRole('grid', { name: 'Products' });
    const row = grid.getByRole('row').filter({
      has: page.getByRole('gridcell', { name: `SKU: ${LAST_SKU}`, exact: true }),
    });
    await row.waitFor({ timeout: 20_000 });
    await expect(row.getAttribute('aria-rowindex')).resolves.toBe(String(PRODUCTS + 1));
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe(String(PRODUCTS + 2));
    const body = grid.getByRole('rowgroup').nth(1);
    await expect
      .poll(async () => {
        const [rowBox, bodyBox] = await Promise.all([row.boundingBox(), body.boundingBox()]);
        if (!rowBox || !bodyBox) return false;
        return (
          rowBox.y >= bodyBox.y - 0.5 &&
          rowBox.y + rowBox.height <= bodyBox.y + bodyBox.height + 0.5
        );
      })
      .toBe(true);
    return row;
  }

  async function storedName(): Promise<string | undefined> {
    const found = await callCore<ProductPage<LocalProduct>>(served, 'listProducts', {
      search: LAST_SKU,
    });
    return found.rows.find((product) => product.sku === LAST_SKU)?.name;
  }

  it('reaches the last product with Ctrl+End and edits it', async () => {
    const { page, problems } = await openCatalog();
    await page.getByRole('gridcell', { name: `SKU: ${manySku(0)}`, exact: true }).click();
    await page.keyboard.press('Control+End');
    const row = await lastRowInView(page);
    // Ctrl+End lands on the last cell (the status); Home goes back along the row to the SKU.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('F2');
    await page.keyboard.type(' (keyboard)');
    await page.keyboard.press('Enter');
    await row
      .getByRole('gridcell', { name: `Name: Product ${PRODUCTS - 1} (keyboard)`, exact: true })
      .waitFor();
    await expect.poll(storedName).toBe(`Product ${PRODUCTS - 1} (keyboard)`);
    await screenshot(page, 'catalog-million-keyboard');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('reaches the last product by dragging the scrollbar to the bottom and edits it', async () => {
    const { page, problems } = await openCatalog();
    const body = page.getByRole('grid', { name: 'Products' }).getByRole('rowgroup').nth(1);
    const box = await body.boundingBox();
    if (!box) throw new Error('the grid has no body');
    // The scrollbar runs down the body's right edge; its thumb (the smallest there is, over a
    // million rows) starts at the top, below the arrow button.
    const barX = box.x + box.width - 7;
    await page.mouse.move(barX, box.y + 22);
    await page.mouse.down();
    await page.mouse.move(barX, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(barX, box.y + box.height + 200, { steps: 5 });
    await page.mouse.up();
    const row = await lastRowInView(page);
    const name = row.getByRole('gridcell', { name: /^Name: / });
    await name.dblclick();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Last of a million');
    await page.keyboard.press('Enter');
    await row.getByRole('gridcell', { name: 'Name: Last of a million', exact: true }).waitFor();
    await expect.poll(storedName).toBe('Last of a million');
    await screenshot(page, 'catalog-million-scrollbar');
    expect(problems).toEqual([]);
    await page.close();
  });
});
