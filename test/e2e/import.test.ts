// The import wizard in Chromium on the demo workspace: a posts CSV with bad rows is refused as a
// whole (every bad cell listed by row and column, nothing written, the bad rows offered as a
// file), then the fixed file is imported with live progress, its counts shown and its posts in
// the store, exported as a download, and the import is undone. A Hootsuite bulk file, which has
// no header row, is read by position and imported with the bot chosen in the wizard.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { BotSummary, LocalPost } from '../../shared/domain';
import { seriousViolations } from './axe';
import { callCore, openApp, screenshot } from './harness';
import { useServedApp } from './served-app';

const HEADER = 'text,scheduled_at,timezone,media_urls';
/** Rows 2 to 6 as a spreadsheet numbers them; rows 3 to 6 each have one bad cell. */
const BAD_CSV = [
  HEADER,
  'Fresh rye today,2027-11-23 09:00,Europe/Berlin,https://example.com/rye.jpg',
  ',2027-11-24 09:00,Europe/Berlin,',
  'Cinnamon buns are back,2027-11-25 09:00,Mars/Olympus,',
  'Spring bake,2027-03-28 02:30,Europe/Berlin,',
  'Pretzel Friday,2027-11-26 09:00,Europe/Berlin,ftp://example.com/pretzel.jpg',
].join('\n');
const FIXED_CSV = [
  HEADER,
  'Fresh rye today,2027-11-23 09:00,Europe/Berlin,https://example.com/rye.jpg',
  'Stollen season,2027-11-24 09:00,Europe/Berlin,',
  'Cinnamon buns are back,2027-11-25 09:00,Europe/Paris,',
  'Spring bake,2027-03-28 03:30,Europe/Berlin,',
  'Pretzel Friday,2027-11-26 09:00,Europe/Berlin,https://example.com/pretzel.jpg',
].join('\n');
const TEXTS = [
  'Fresh rye today',
  'Stollen season',
  'Cinnamon buns are back',
  'Spring bake',
  'Pretzel Friday',
];
/** A post with one of the files' texts (the demo's own posts have none of them). */
const ours = (post: LocalPost) => TEXTS.includes(post.text);
const EXPECTED_ERRORS = [
  'Row 3, text: Text is required',
  'Row 4, timezone: "Mars/Olympus" is not an IANA time zone such as Europe/Berlin',
  'Row 5, scheduled_at: 2027-03-28 02:30 does not exist in Europe/Berlin (the clocks skip it for daylight saving time)',
  'Row 6, media_urls: "ftp://example.com/pretzel.jpg" is not an absolute http or https URL',
];

const csvFile = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text, 'utf8'),
});

/** The row errors the page lists, one line each. */
async function listedErrors(page: Page): Promise<string[]> {
  const list = page.getByRole('region', { name: /rows? (has|have) errors/ }).getByRole('listitem');
  return (await list.allInnerTexts()).map((line) => line.replace(/\s+/g, ' ').trim());
}

/** The result's counts as shown ("Inserted" → 5). */
async function shownCounts(page: Page): Promise<Record<string, number>> {
  const result = page.getByRole('region', { name: 'Result' });
  const terms = await result.locator('dl dt').allInnerTexts();
  const values = await result.locator('dl dd').allInnerTexts();
  return Object.fromEntries(terms.map((term, index) => [term.trim(), Number(values[index])]));
}

describe('the import wizard in Chromium', () => {
  const app = useServedApp();

  it('refuses a file with bad rows, then imports the fixed file and undoes it', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Import' })
      .click();
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
    await expect(page.getByRole('radio', { name: 'Posts' }).isChecked()).resolves.toBe(true);

    // The bad file: the preview's dry run lists every bad cell and marks it in the sample. Dated
    // posts are scheduled by default, so the rows need a bot: chosen for them all.
    await page.getByLabel('CSV file').setInputFiles(csvFile('calendar.csv', BAD_CSV));
    await expect(
      page
        .getByRole('checkbox', { name: 'Schedule posts that have a time (else they stay drafts)' })
        .isChecked(),
    ).resolves.toBe(true);
    const [bot] = await callCore<BotSummary[]>(app.served, 'listBots', {});
    await page.getByLabel('Bot for rows without one').selectOption(bot?.id ?? '');
    await page.getByRole('heading', { name: '4 rows have errors' }).waitFor();
    await expect(listedErrors(page)).resolves.toEqual(EXPECTED_ERRORS);
    await expect(
      page.getByRole('combobox', { name: 'Column for text' }).inputValue(),
    ).resolves.toBe('0');
    await expect(page.locator('td[aria-invalid="true"]').count()).resolves.toBe(4);
    await expect(
      page.getByRole('radio', { name: 'Import nothing until the file is fixed' }).isChecked(),
    ).resolves.toBe(true);

    // Import with "abort": refused as a whole, the errors listed again, nothing written.
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await result
      .getByRole('alert')
      .filter({ hasText: 'Nothing was imported: 4 rows are invalid.' })
      .waitFor();
    await expect(shownCounts(page)).resolves.toEqual({
      Inserted: 0,
      Updated: 0,
      Unchanged: 0,
      Invalid: 4,
    });
    await expect(listedErrors(page)).resolves.toEqual(EXPECTED_ERRORS);
    await expect(result.getByRole('button', { name: 'Undo import' }).count()).resolves.toBe(0);
    const afterRefusal = await callCore<LocalPost[]>(app.served, 'listPosts', {});
    expect(afterRefusal.filter((post) => post.batchId !== null || ours(post))).toEqual([]);

    // The bad rows, as a file to fix: their cells as read and why each is bad.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      result.getByRole('button', { name: 'Download bad rows' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('calendar-bad-rows.csv');
    const badRows = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
    const lines = badRows.trimEnd().split('\r\n');
    expect(lines[0]).toBe(`${HEADER},error`);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([
      '',
      'Cinnamon buns are back',
      'Spring bake',
      'Pretzel Friday',
    ]);
    expect(lines[1]).toContain('text: Text is required');
    expect(lines[3]).toContain('does not exist in Europe/Berlin');
    await screenshot(page, 'import-refused');

    // The fixed file: every row valid, then imported with its progress shown.
    await page.getByLabel('CSV file').setInputFiles(csvFile('calendar.csv', FIXED_CSV));
    await page.getByRole('status').filter({ hasText: 'Every row is valid.' }).waitFor();
    await expect(result.count()).resolves.toBe(0);
    // The progress bar lives only while the import runs: an observer notes whether it appeared.
    await page.evaluate(() => {
      (window as unknown as { progressSeen: boolean }).progressSeen = false;
      new MutationObserver((_, observer) => {
        if (document.querySelector('[role="progressbar"][aria-label="Import progress"]')) {
          (window as unknown as { progressSeen: boolean }).progressSeen = true;
          observer.disconnect();
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await result.waitFor();
    await expect(
      page.evaluate(() => (window as unknown as { progressSeen: boolean }).progressSeen),
    ).resolves.toBe(true);
    await expect(shownCounts(page)).resolves.toEqual({
      Inserted: 5,
      Updated: 0,
      Unchanged: 0,
      Invalid: 0,
    });
    await page.getByText('Imported 5 new and 0 updated posts').waitFor();
    const imported = (await callCore<LocalPost[]>(app.served, 'listPosts', {})).filter(ours);
    expect(imported.map((post) => post.text).sort()).toEqual([...TEXTS].sort());
    const batch = imported[0]?.batchId;
    expect(batch).toMatch(/\S/);
    for (const post of imported) {
      expect(post).toMatchObject({
        status: 'scheduled',
        origin: 'local',
        batchId: batch,
        botId: bot?.id,
      });
    }
    const byText = Object.fromEntries(imported.map((post) => [post.text, post]));
    // Wall times in each row's zone: 09:00 in Berlin in November is 08:00 UTC.
    expect(byText['Fresh rye today']).toMatchObject({
      zone: 'Europe/Berlin',
      scheduledAt: Date.UTC(2027, 10, 23, 8, 0),
      mediaUrls: ['https://example.com/rye.jpg'],
    });
    expect(byText['Spring bake']?.scheduledAt).toBe(Date.UTC(2027, 2, 28, 1, 30));
    await screenshot(page, 'import-written');

    // The export download (exportText: the page never names a path): the posts, as import reads them.
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export posts' }).click(),
    ]);
    expect(exported.suggestedFilename()).toMatch(/^pressroom-posts-.*\.csv$/);
    const exportedText = readFileSync(await exported.path(), 'utf8');
    expect(exportedText.split('\r\n')[0]).toBe('text,scheduled_at,timezone,bot,media_urls');
    for (const text of TEXTS) expect(exportedText).toContain(text);

    // Undo: the posts go again.
    await result.getByRole('button', { name: 'Undo import' }).click();
    await result.getByRole('button', { name: 'Yes, undo the import' }).click();
    await result
      .getByRole('status')
      .filter({ hasText: 'Import undone: 5 posts removed.' })
      .waitFor();
    const afterUndo = await callCore<LocalPost[]>(app.served, 'listPosts', {});
    expect(afterUndo.filter((post) => post.batchId !== null || ours(post))).toEqual([]);
    await screenshot(page, 'import-undone');
    expect(problems).toEqual([]);
    await page.close();
  });
  it('imports a Hootsuite file without a header row, with the bot chosen for its rows', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Import' })
      .click();
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
    const hootsuite = [
      '12/01/2027 09:00,Advent calendar day one,https://bakery.example.com/advent',
      '12/02/2027 17:30,"Stollen, fresh from the oven",',
    ].join('\r\n');
    await page.getByLabel('CSV file').setInputFiles(csvFile('hootsuite.csv', hootsuite));
    await page.getByText('Read as: Hootsuite bulk file').waitFor();
    await expect(
      page
        .getByRole('checkbox', { name: 'The first row is data (the file has no header row)' })
        .isChecked(),
    ).resolves.toBe(true);
    await page.getByLabel('Date format').selectOption('MM/DD/YYYY');
    const [bot] = await callCore<BotSummary[]>(app.served, 'listBots', {});
    await page.getByLabel('Bot for rows without one').selectOption(bot?.id ?? '');
    await page.getByRole('status').filter({ hasText: 'Every row is valid.' }).waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await result.waitFor();
    await expect(shownCounts(page)).resolves.toEqual({
      Inserted: 2,
      Updated: 0,
      Unchanged: 0,
      Invalid: 0,
    });
    const posts = (await callCore<LocalPost[]>(app.served, 'listPosts', {})).filter(
      (post) => post.batchId !== null && post.origin === 'local',
    );
    const wall = (post: LocalPost) =>
      Temporal.Instant.fromEpochMilliseconds(post.scheduledAt ?? 0)
        .toZonedDateTimeISO(post.zone ?? 'UTC')
        .toPlainDateTime()
        .toString({ smallestUnit: 'minute' });
    expect(
      posts
        .map((post) => [post.text, wall(post), post.botId, post.status])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    ).toEqual([
      [
        'Advent calendar day one https://bakery.example.com/advent',
        '2027-12-01T09:00',
        bot?.id,
        'scheduled',
      ],
      ['Stollen, fresh from the oven', '2027-12-02T17:30', bot?.id, 'scheduled'],
    ]);
    await screenshot(page, 'import-hootsuite');
    // Undone here, so the next test's history starts with its own import.
    await result.getByRole('button', { name: 'Undo import' }).click();
    await result.getByRole('button', { name: 'Yes, undo the import' }).click();
    await result.getByRole('status').filter({ hasText: 'Import undone' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the import on the calendar, and undoes it from the history after leaving the screen', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    const nav = page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
    const [bot] = await callCore<BotSummary[]>(app.served, 'listBots', {});
    await page.getByLabel('CSV file').setInputFiles(csvFile('week.csv', FIXED_CSV));
    await page.getByLabel('Bot for rows without one').selectOption(bot?.id ?? '');
    await page.getByRole('status').filter({ hasText: 'Every row is valid.' }).waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await result.waitFor();

    // See on calendar: the calendar opens at the first post's day (Spring bake, March 2027).
    await result.getByRole('button', { name: 'See on calendar' }).click();
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
    const calendar = page.getByRole('region', { name: 'Calendar' });
    await calendar.getByText('Spring bake').first().waitFor();

    // Back on a fresh Import screen: the import is in the history, with its Undo.
    await nav.getByRole('link', { name: 'Import' }).click();
    const history = page.getByRole('region', { name: 'Past imports' });
    const entry = history.getByRole('listitem').filter({ hasText: 'week.csv' }).first();
    await entry.getByText('5 new').waitFor();
    await screenshot(page, 'import-history');
    expect(await seriousViolations(page)).toEqual([]);
    await entry.getByRole('button', { name: 'Undo' }).click();
    await entry.getByRole('button', { name: 'Yes, undo it' }).click();
    await entry.getByText(/^Undone /).waitFor();
    await page.getByText('Import undone: 5 posts removed').first().waitFor();
    const left = await callCore<LocalPost[]>(app.served, 'listPosts', {});
    expect(left.filter(ours)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
