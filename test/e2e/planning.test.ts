// Posting schedules and the duplicate guard in Chromium on the demo workspace: a schedule set on
// the Bots screen, three posts added to the queue from the post editor landing in its next three
// free slots (on the calendar and in the core), and a repeated text asking before it goes out.
// Axe scans the schedule editor, the calendar's free slots and the duplicate question.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { OperationResults } from '../../shared/answers';
import type { BotSchedule, BotSummary, LocalPost } from '../../shared/domain';
import { wallTime } from '../../renderer/src/lib/format';
import { seriousViolations } from './axe';
import { callCore, chooseFromMore, openApp, screenshot } from './harness';
import { useServedApp } from './served-app';

const BOT = 'Corner Bakery';
const TEXTS = [1, 2, 3].map((n) => `Queue test ${n}: rye of the day`);

/** The date after a "YYYY-MM-DD" date. */
/** The date `days` after `date` (both YYYY-MM-DD). */
function daysAfter(date: string, days = 1): string {
  return new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Writes a post in the editor for the bot and runs one of its More menu's actions. */
async function writePost(page: Page, text: string, action: string): Promise<void> {
  await page.getByRole('button', { name: 'New post', exact: true }).click();
  const editor = page.getByRole('dialog', { name: 'New post' });
  await editor.getByLabel('Text').fill(text);
  await editor.getByLabel('Bot').selectOption({ label: BOT });
  await chooseFromMore(editor, action);
}

describe('posting schedules in Chromium', () => {
  const app = useServedApp();

  it('queues three posts into the next free slots of a new schedule, and asks before a repeat', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    const { timezone: zone } = await callCore<OperationResults['getSettings']>(
      app.served,
      'getSettings',
    );
    const nav = page.getByRole('navigation', { name: 'Screens' });

    // The schedule, built in the grid and finished as text.
    await nav.getByRole('link', { name: 'Bots' }).click();
    await page.getByRole('button', { name: `Posting schedule of ${BOT}` }).click();
    const editor = page.getByRole('dialog', { name: `Posting schedule of ${BOT}` });
    await editor.getByText(`Times are in ${zone}`).waitFor();
    // The demo gives each bot a schedule to start with; this one is written anew.
    await editor.getByRole('button', { name: 'Clear all times' }).click();
    for (const time of ['06:00', '12:00', '18:00']) {
      await editor.getByLabel('New time on Monday').fill(time);
      await editor.getByRole('button', { name: 'Add a time on Monday' }).click();
    }
    await editor.getByRole('button', { name: 'Copy Monday to Monday–Friday' }).click();
    const text = editor.getByRole('textbox', { name: 'Schedule as text' });
    await expect(text.inputValue()).resolves.toBe('mon-fri 06:00,12:00,18:00');
    await text.fill('mon-sun 06:00,12:00,18:00');
    await editor.getByRole('button', { name: 'Remove 18:00 on Sunday' }).waitFor();
    await editor.getByRole('button', { name: 'Save schedule' }).click();
    const nextFree = editor.getByRole('region', { name: 'Next free slots' }).getByRole('listitem');
    await expect.poll(() => nextFree.count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    await editor.getByRole('button', { name: 'Close' }).click();
    // The Bots table follows the save, in the same words as the dialog's text.
    await page
      .getByRole('row')
      .filter({ hasText: BOT })
      .getByRole('cell', { name: 'mon-sun 06:00,12:00,18:00', exact: true })
      .waitFor();

    const bot = (await callCore<BotSummary[]>(app.served, 'listBots')).find((b) => b.name === BOT);
    const schedule = await callCore<BotSchedule>(app.served, 'getSchedule', { botId: bot?.id });
    expect(schedule.text).toBe('mon-sun 06:00,12:00,18:00');
    expect(schedule.nextFree).toHaveLength(3);

    // Three posts added to the queue from the post editor.
    await nav.getByRole('link', { name: 'Calendar' }).click();
    for (const postText of TEXTS) {
      await writePost(page, postText, 'Add to queue');
      await page.getByRole('dialog', { name: 'New post' }).waitFor({ state: 'hidden' });
      await page
        .getByRole('status')
        .getByText(/^Added to the queue: it goes out /)
        .first()
        .waitFor();
    }
    const queued = async () =>
      (await callCore<LocalPost[]>(app.served, 'listPosts', {})).filter((post) =>
        /^queue test /i.test(post.text),
      );
    const posts = await queued();
    expect(posts.map((post) => [post.text, post.botId, post.status, post.scheduledAt])).toEqual(
      TEXTS.map((postText, index) => [postText, bot?.id, 'scheduled', schedule.nextFree[index]]),
    );

    // On the calendar: the Day view of each slot's date shows the post, opening at the slot.
    const views = page.getByRole('group', { name: 'Calendar view' });
    await expect.poll(() => page.locator('.free-day').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'planning-month');
    await views.getByRole('button', { name: 'Week', exact: true }).click();
    // The week shown is today's, Sunday to Saturday: late on a Saturday the three posts take its
    // last free slots, and the next one is in the week after.
    const after = await callCore<BotSchedule>(app.served, 'getSchedule', { botId: bot?.id });
    const today = wallTime(Date.now(), zone).slice(0, 10);
    const saturday = daysAfter(today, 6 - new Date(`${today}T00:00:00Z`).getUTCDay());
    const nextWeek = wallTime(after.nextFree[0] ?? 0, zone).slice(0, 10) > saturday;
    if (nextWeek) await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect.poll(() => page.locator('.free-slot').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    if (nextWeek) await page.getByRole('button', { name: 'Previous', exact: true }).click();
    // The calendar opened on today and has not moved since.
    await views.getByRole('button', { name: 'Day', exact: true }).click();
    let shown = wallTime(Date.now(), zone).slice(0, 10);
    for (const post of posts) {
      const wall = wallTime(post.scheduledAt ?? 0, zone);
      while (shown < wall.slice(0, 10)) {
        await page.getByRole('button', { name: 'Next', exact: true }).click();
        shown = daysAfter(shown);
      }
      await page.getByRole('button', { name: new RegExp(`${BOT}: .*${post.text}`) }).click();
      const opened = page.getByRole('dialog', { name: 'Edit post' });
      await expect(opened.getByLabel('Date').inputValue()).resolves.toBe(wall.slice(0, 10));
      await expect(opened.getByLabel('Time', { exact: true }).inputValue()).resolves.toBe(
        wall.slice(11),
      );
      await opened.getByRole('button', { name: 'Cancel' }).click();
      await opened.waitFor({ state: 'hidden' });
    }
    await views.getByRole('button', { name: 'Week', exact: true }).click();
    await screenshot(page, 'planning-queue');

    // The first text again (in other letters): the guard asks, naming the post it repeats.
    await writePost(page, TEXTS[0]!.toUpperCase(), 'Add to queue');
    const question = page.getByRole('alertdialog', { name: 'Post the same text again?' });
    await question.waitFor();
    await question.getByText(`“${TEXTS[0]}”`).waitFor();
    await question.getByText('Scheduled', { exact: true }).waitFor();
    await question.getByText(/within 3 days of each other/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'planning-duplicate');
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'hidden' });
    // Cancel keeps the editor as it was, and nothing was added.
    const newPost = page.getByRole('dialog', { name: 'New post' });
    await expect(newPost.getByLabel('Text').inputValue()).resolves.toBe(TEXTS[0]!.toUpperCase());
    expect(await queued()).toHaveLength(3);

    await chooseFromMore(newPost, 'Add to queue');
    await question.getByRole('button', { name: 'Post anyway' }).click();
    await newPost.waitFor({ state: 'hidden' });
    const [, , third, repeat] = await queued();
    expect(repeat).toMatchObject({ text: TEXTS[0]!.toUpperCase(), status: 'scheduled' });
    expect(repeat?.scheduledAt).toBeGreaterThan(third?.scheduledAt ?? Infinity);
    expect(problems).toEqual([]);
    await page.close();
  });
});
