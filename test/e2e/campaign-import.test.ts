// Planning aids in Chromium on the demo workspace: a posts CSV with undated rows imported with
// "Fill free slots" (the preview shows the time each row will get, a repeated row is a warning
// apart from the errors, and the rows land in the bot's next free slots), and an AI campaign of
// three posts drafted from a brief, one edited, saved as drafts. axe scans both new views.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateCampaign } from '../../shared/campaign';
import type { BotSchedule, BotSummary, LocalPost, WorkspaceSettings } from '../../shared/domain';
import { seriousViolations } from './axe';
import { callCore, launchChromium, openApp, screenshot, serve } from './harness';
import type { Served } from './harness';

const csvFile = (name: string, text: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text, 'utf8'),
});

/**
 * Three slots a day, the first at least an hour after now in `zone`, so no slot passes between
 * reading the next free ones and importing.
 */
function scheduleFromNow(zone: string): string {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone: zone }).format(
      Date.now(),
    ),
  );
  const times = [2, 8, 14]
    .map((ahead) => `${String((hour + ahead) % 24).padStart(2, '0')}:00`)
    .sort();
  return `mon-sun ${times.join(',')}`;
}

/** An instant as the page shows times (its locale, the user's zone). */
const shownTime = (page: Page, ms: number, zone: string) =>
  page.evaluate(
    ([at, timeZone]) =>
      new Intl.DateTimeFormat(undefined, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone,
      }).format(at),
    [ms, zone] as const,
  );

const spoken = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('planning aids in Chromium', () => {
  let served: Served;
  let browser: Browser;
  let bot: BotSummary;
  let zone: string;

  beforeAll(async () => {
    [served, browser] = await Promise.all([serve(), launchChromium()]);
    const bots = await callCore<BotSummary[]>(served, 'listBots');
    bot = bots[0]!;
    zone = (await callCore<WorkspaceSettings>(served, 'getSettings')).timezone;
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  it('imports undated rows into the bot’s next free slots, shown in the preview first', async () => {
    // The schedule editor is another screen's; here the schedule is set through the core.
    await callCore<BotSchedule>(served, 'setSchedule', {
      botId: bot.id,
      schedule: scheduleFromNow(zone),
    });
    const { nextFree } = await callCore<BotSchedule>(served, 'getSchedule', { botId: bot.id });
    expect(nextFree).toHaveLength(3);
    // Rows 2 to 6 as a spreadsheet numbers them: row 4 repeats row 2, row 6 has its own time.
    const csv = [
      'text,scheduled_at,bot',
      `Rye loaves at dawn,,${bot.id}`,
      `Seeded spelt is in,,${bot.id}`,
      `Rye loaves at dawn,,${bot.id}`,
      `Butter croissants all day,,${bot.id}`,
      `Stollen pre-orders open,2027-11-24 08:15,${bot.id}`,
    ].join('\n');

    const { page, problems } = await openApp(browser, served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Import' })
      .click();
    await page.getByLabel('CSV file').setInputFiles(csvFile('week.csv', csv));
    await page.getByRole('table', { name: /The first 5 rows as read/ }).waitFor();
    const queue = page.getByRole('checkbox', {
      name: 'Schedule posts that have a time (else they stay drafts)',
    });
    // Dated posts are scheduled by default; unticked, then filling slots holds it on again.
    await expect(queue.isChecked()).resolves.toBe(true);
    await queue.uncheck();

    await page.getByRole('checkbox', { name: 'Fill free slots' }).check();
    const header = page.getByRole('columnheader', { name: `Free slot in ${zone}` });
    await header.waitFor();
    await expect(queue.isChecked()).resolves.toBe(true);
    await expect(queue.isDisabled()).resolves.toBe(true);
    const table = page.getByRole('table', { name: /The first 5 rows as read/ });
    // The slot column follows the row number.
    const slotCells = await table.locator('tbody tr td:first-of-type').allInnerTexts();
    const [first, second, third] = await Promise.all(
      nextFree.map((at) => shownTime(page, at, zone)),
    );
    expect(slotCells.map((cell) => cell.trim())).toEqual([first, second, '', third, '']);

    const warnings = page.getByRole('region', { name: '1 row left out as repeats' });
    await expect(warnings.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(
        /^Row 4 “Rye loaves at dawn”: The same text as row 2, going out .*, within the 3-day duplicate window; left out$/,
      ),
    ]);
    await expect(
      page.getByRole('region', { name: /rows? (has|have) errors/ }).count(),
    ).resolves.toBe(0);
    await page.getByRole('status').filter({ hasText: 'Every row is valid.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'import-fill-slots-preview');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await result.waitFor();
    const terms = await result.locator('dl dt').allInnerTexts();
    const values = await result.locator('dl dd').allInnerTexts();
    expect(Object.fromEntries(terms.map((term, index) => [term, Number(values[index])]))).toEqual({
      Inserted: 4,
      Updated: 0,
      Unchanged: 0,
      Invalid: 0,
      'Left out as repeats': 1,
    });
    await expect(
      result.locator('p', { hasText: 'went into free posting slots' }).innerText(),
    ).resolves.toBe(
      `3 rows without a time went into free posting slots: ${first} to ${third} (${zone}).`,
    );

    const posts = await callCore<LocalPost[]>(served, 'listPosts', {});
    const imported = posts.filter((post) => post.batchId !== null);
    const byText = Object.fromEntries(imported.map((post) => [post.text, post]));
    expect(imported).toHaveLength(4);
    expect(
      ['Rye loaves at dawn', 'Seeded spelt is in', 'Butter croissants all day'].map((text) => ({
        status: byText[text]?.status,
        botId: byText[text]?.botId,
        at: byText[text]?.scheduledAt,
      })),
    ).toEqual(nextFree.map((at) => ({ status: 'scheduled', botId: bot.id, at })));
    expect(byText['Stollen pre-orders open']?.status).toBe('scheduled');
    await screenshot(page, 'import-fill-slots-written');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('drafts a campaign of three posts from a brief, edits one and saves them as drafts', async () => {
    const brief =
      'our winter menu at the bakery: stollen, gingerbread and mulled-wine buns, baked every morning from Monday';
    const { page, problems } = await openApp(browser, served.url);
    await page.getByRole('button', { name: 'Campaign from a brief' }).click();
    const dialog = page.getByRole('dialog', { name: 'Campaign from a brief' });
    await dialog.getByRole('textbox', { name: 'Brief' }).fill(brief);
    await dialog.getByRole('combobox', { name: 'Number of posts' }).selectOption('3');
    await dialog.getByRole('combobox', { name: 'Bot' }).selectOption({ label: bot.name });
    await dialog.getByRole('combobox', { name: 'Tone' }).selectOption({ label: 'Professional' });

    // The estimate, before anything is sent, as the core will count it.
    const estimate = estimateCampaign({
      brief,
      count: 3,
      tone: 'professional',
      hashtags: false,
      channel: bot.channel,
      botName: bot.name,
    });
    await expect(
      dialog
        .getByText(/^Estimated before sending/)
        .innerText()
        .then(spoken),
    ).resolves.toBe(
      `Estimated before sending: about ${estimate.total} tokens (${estimate.prompt} prompt, about ${estimate.completion} completion), at most ${estimate.prompt + estimate.maxTokens}.`,
    );

    await dialog.getByRole('button', { name: 'Draft posts' }).click();
    const post = (n: number) => dialog.getByRole('textbox', { name: `Post ${n}`, exact: true });
    await post(3).waitFor();
    await expect(post(4).count()).resolves.toBe(0);
    const texts = await Promise.all([1, 2, 3].map((n) => post(n).inputValue()));
    for (const text of texts) expect(text).toMatch(/\S/);
    const drafts = dialog.getByRole('region', { name: 'Drafts' });
    await expect(drafts.innerText()).resolves.toMatch(
      new RegExp(
        `Answered by \\S+ \\(.+\\) · \\d+ tokens[^]*Used \\d+ tokens, against about ${estimate.total} estimated before sending\\.`,
      ),
    );

    const edited = 'Stollen, gingerbread and mulled-wine buns: our winter menu starts Monday.';
    await post(2).fill(edited);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'campaign-drafts');

    await dialog.getByRole('button', { name: 'Save as drafts' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Saved 3 posts as drafts').waitFor();
    const saved = await callCore<LocalPost[]>(served, 'listPosts', { unscheduled: true });
    const ours = [texts[0], edited, texts[2]];
    expect(
      saved
        .filter((draft) => ours.includes(draft.text))
        .sort((a, b) => a.id - b.id)
        .map(({ text, status, botId, scheduledAt }) => ({ text, status, botId, scheduledAt })),
    ).toEqual(ours.map((text) => ({ text, status: 'draft', botId: bot.id, scheduledAt: null })));
    // Beside the calendar, with the other drafts without a time.
    await page
      .getByRole('region', { name: 'Unscheduled drafts' })
      .getByRole('button', { name: new RegExp(edited.slice(0, 30)) })
      .waitFor();
    await screenshot(page, 'campaign-saved');
    expect(problems).toEqual([]);
    await page.close();
  });
});
