// The catalog grid in Chromium on the demo workspace: a draft added with the form, edited in place
// with the keyboard as in a spreadsheet, selected and queued, then published to the demo's
// reference server, after which its row is read-only; and rows pasted over drafts, asked about
// first, then undone with Ctrl+Z.
import { describe, expect, it } from 'vitest';
import type { LocalProduct, Page as ProductPage } from '../../shared/domain';
import { callCore, openApp, screenshot } from './harness';
import { useServedApp } from './served-app';

const SKU = 'E2E-RYE-1';

describe('the catalog grid in Chromium', () => {
  const app = useServedApp();

  /** The product with our SKU, as the core holds it. */
  async function stored(): Promise<LocalProduct | undefined> {
    const page = await callCore<ProductPage<LocalProduct>>(app.served, 'listProducts', {
      search: SKU,
    });
    return page.rows.find((product) => product.sku === SKU);
  }

  it('adds a draft, edits it in the grid, queues it and sees it published', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Catalog' })
      .click();
    const grid = page.getByRole('grid', { name: 'Products' });
    // The demo's own products come from the platform and are read-only.
    const demoStatus = grid.getByRole('gridcell', { name: /^Status: published \(platform\)$/ });
    await demoStatus.first().waitFor();
    await expect(demoStatus.first().getAttribute('aria-readonly')).resolves.toBe('true');

    // A draft, added with the form.
    const form = page.getByRole('form', { name: 'Add a product' });
    await form.getByLabel('SKU').fill(SKU);
    await form.getByLabel('Name').fill('Rye loaf');
    await form.getByLabel('Price').fill('4.50');
    await form.getByLabel('Stock').fill('12');
    await form.getByRole('button', { name: 'Add product' }).click();
    await page.getByText(`Added ${SKU} as a draft.`).waitFor();
    // The form clears once the catalog has refreshed, which may come just after the notice.
    await expect.poll(() => form.getByLabel('SKU').inputValue()).toBe('');
    // In the demo catalog's own currency, not a default of USD.
    expect(await stored()).toMatchObject({
      name: 'Rye loaf',
      priceMinor: 450,
      currency: 'EUR',
      stock: 12,
      status: 'draft',
      origin: 'local',
    });

    await page.getByRole('searchbox', { name: 'Search SKU or name' }).fill(SKU);
    const row = grid.getByRole('row').filter({
      has: page.getByRole('gridcell', { name: `SKU: ${SKU}`, exact: true }),
    });
    const cell = (name: string) => row.getByRole('gridcell', { name, exact: true });
    await cell('Status: draft').waitFor();
    await expect(grid.getByRole('gridcell', { name: /^SKU: / }).count()).resolves.toBe(1);

    // Typing on a cell replaces its text; Enter saves.
    await cell('Price: €4.50').click();
    await page.keyboard.type('5.25');
    await expect(row.getByRole('textbox', { name: `Price of ${SKU}` }).inputValue()).resolves.toBe(
      '5.25',
    );
    await page.keyboard.press('Enter');
    await cell('Price: €5.25').waitFor();
    await expect.poll(async () => (await stored())?.priceMinor).toBe(525);

    // F2 edits the text as it is; the arrow keys move between cells.
    await expect(
      cell('Price: €5.25').evaluate((node) => node === document.activeElement),
    ).resolves.toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('F2');
    const nameEditor = row.getByRole('textbox', { name: `Name of ${SKU}` });
    await expect(nameEditor.inputValue()).resolves.toBe('Rye loaf');
    await page.keyboard.type(' (large)');
    await page.keyboard.press('Enter');
    await cell('Name: Rye loaf (large)').waitFor();
    await expect.poll(async () => (await stored())?.name).toBe('Rye loaf (large)');
    const edited = await stored();
    expect(edited).toMatchObject({ priceMinor: 525, stock: 12, status: 'draft', remoteId: null });

    // Space selects the row; the toolbar then offers to queue it.
    await page.keyboard.press(' ');
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    await page.getByText('1 selected', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Queue 1 for publishing…' }).click();
    await page
      .getByRole('alertdialog', { name: 'Publish 1 product?' })
      .getByRole('button', { name: 'Publish 1 product' })
      .click();

    // The web host's queue publishes it to the demo's reference server; the row follows.
    await cell('Status: published').waitFor({ timeout: 15_000 });
    const published = await stored();
    expect(published).toMatchObject({
      id: edited?.id,
      name: 'Rye loaf (large)',
      priceMinor: 525,
      status: 'published',
      origin: 'local',
    });
    expect(published?.remoteId).toMatch(/\S/);
    await expect(cell('Price: €5.25').getAttribute('aria-readonly')).resolves.toBe('true');
    await page.getByText('No products selected').waitFor();
    // A click on the row's box ticks it as it selects the row, and a second click unticks both.
    const box = row.getByRole('checkbox', { name: `Select ${SKU}` });
    await box.click();
    await page.getByText('1 selected', { exact: true }).waitFor();
    await expect(box.isChecked()).resolves.toBe(true);
    await box.click();
    await page.getByText('No products selected').waitFor();
    await expect(box.isChecked()).resolves.toBe(false);

    // A published row cannot be edited: the keys say why instead.
    await cell('Price: €5.25').click();
    await page.keyboard.type('9');
    await page
      .getByRole('status')
      .filter({
        hasText: `Price of ${SKU} cannot be edited. Published: API v1 has no way to change a published product.`,
      })
      .waitFor();
    await expect(row.getByRole('textbox').count()).resolves.toBe(0);
    expect((await stored())?.priceMinor).toBe(525);
    await screenshot(page, 'catalog-published');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('asks before pasting three rows over drafts, replaces them, and Ctrl+Z undoes it', async () => {
    const skus = ['E2E-PASTE-1', 'E2E-PASTE-2', 'E2E-PASTE-3'];
    for (const [index, sku] of skus.entries())
      await callCore(app.served, 'saveProduct', { sku, name: `Old ${index + 1}`, price: '1.00' });
    const products = async () =>
      (
        await callCore<ProductPage<LocalProduct>>(app.served, 'listProducts', {
          search: 'E2E-PASTE',
          sort: 'sku',
        })
      ).rows.map((product) => [product.sku, product.name, product.priceMinor]);

    const { page, problems } = await openApp(app.browser, app.served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Catalog' })
      .click();
    const grid = page.getByRole('grid', { name: 'Products' });
    await page.getByRole('searchbox', { name: 'Search SKU or name' }).fill('E2E-PASTE');
    await expect.poll(() => grid.getByRole('gridcell', { name: /^SKU: / }).count()).toBe(3);
    const first = grid.getByRole('gridcell', { name: 'SKU: E2E-PASTE-1', exact: true });
    await first.click();
    // What a spreadsheet puts on the clipboard, with the decimal commas it was typed with.
    const rows = skus.map((sku, index) => `${sku}\tNew ${index + 1}\t${index + 3},80`).join('\n');
    await first.evaluate((cell, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      cell.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, rows);

    const question = page.getByRole('alertdialog', { name: 'Replace 3 products?' });
    await question.waitFor();
    await screenshot(page, 'catalog-paste-question');
    await expect(products()).resolves.toEqual([
      ['E2E-PASTE-1', 'Old 1', 100],
      ['E2E-PASTE-2', 'Old 2', 100],
      ['E2E-PASTE-3', 'Old 3', 100],
    ]);
    await question.getByRole('button', { name: 'Replace', exact: true }).click();
    await page.getByText('Replaced 3 products.').first().waitFor();
    await expect.poll(products).toEqual([
      ['E2E-PASTE-1', 'New 1', 380],
      ['E2E-PASTE-2', 'New 2', 480],
      ['E2E-PASTE-3', 'New 3', 580],
    ]);

    await grid.getByRole('gridcell', { name: 'Name: New 2', exact: true }).click();
    await page.keyboard.press('Control+z');
    await expect.poll(products).toEqual([
      ['E2E-PASTE-1', 'Old 1', 100],
      ['E2E-PASTE-2', 'Old 2', 100],
      ['E2E-PASTE-3', 'Old 3', 100],
    ]);
    await grid.getByRole('gridcell', { name: 'Name: Old 2', exact: true }).waitFor();
    await page.getByText('Undid the paste of 3 rows.').first().waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
