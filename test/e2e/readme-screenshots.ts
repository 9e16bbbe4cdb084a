// `npm run screenshots` (Node): the README's pictures, taken from the running app on a fresh demo
// workspace in Debian's Chromium, so they always show what the code does now.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, openApp, serve } from './harness';

const OUT = 'docs/screenshots';
const VIEWPORT = { width: 1360, height: 820 };

const postsCsv = [
  'text,scheduled_at,timezone,bot',
  '"Stollen is back, with marzipan this year",2027-12-01 09:00,Europe/Berlin,Bakery Stories',
  'Advent calendar cookies: one a day,2027-12-01 25:00,Europe/Berlin,Bakery Stories',
  '"Order your Christmas bread by the 20th",2027-12-05 12:30,Mars/Olympus,Bakery Orders',
  ',2027-12-06 10:00,Europe/Berlin,Bakery Stories',
].join('\n');

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`${OUT}/${name}.png`);
}

async function go(page: Page, screen: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('link', { name: screen })
    .click();
  await page.getByRole('heading', { level: 1, name: screen }).waitFor();
}

mkdirSync(OUT, { recursive: true });
const [served, browser] = await Promise.all([serve(), launchChromium()]);
try {
  const { page } = await openApp(browser, served.url, { viewport: VIEWPORT });
  await page.locator('.month-post').first().waitFor();
  await shoot(page, 'calendar');

  await go(page, 'Catalog');
  await page.getByRole('grid', { name: 'Products' }).getByRole('row').nth(3).waitFor();
  await shoot(page, 'catalog');

  await go(page, 'Import');
  // Tall enough for the preview and the list of what is wrong below it.
  await page.setViewportSize({ width: VIEWPORT.width, height: 1200 });
  await page.getByLabel('CSV file').setInputFiles({
    name: 'december-posts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(postsCsv),
  });
  await page.getByRole('table', { name: /rows as read/ }).waitFor();
  await shoot(page, 'import');
} finally {
  await browser.close();
  await served.stop();
}
