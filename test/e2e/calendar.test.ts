// The calendar in Chromium on the demo workspace: a post created by clicking an empty day and
// scheduled, dragged to another day, moved back a day by key and opened with Enter; one of the
// demo workspace's own posts dragged on first try; a scheduled post deleted and brought back
// with Undo; AI assist filling the editor; the editor opened with `c` at the next whole hour, an
// error that clears as the text is typed, and one main action beside a keyboard-driven More menu.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { OperationResults } from '../../shared/answers';
import type { LocalPost } from '../../shared/domain';
import { wallTime } from '../../renderer/src/lib/format';
import { nextWholeHour } from '../../renderer/src/state/post-when';
import { seriousViolations } from './axe';
import { callCore, chooseFromMore, openApp, screenshot } from './harness';
import type { Served } from './harness';
import { useServedApp } from './served-app';

/** The month-view cell of a day of the shown month. */
function dayCell(page: Page, day: number) {
  return page.locator('[role="gridcell"]:not(.other-month)').nth(day - 1);
}

/** The day of the shown month a post is drawn on, found by where it sits, as a user sees it. */
async function dayUnder(page: Page, event: Locator): Promise<number> {
  const box = await event.boundingBox();
  if (!box) throw new Error('the event is not drawn');
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const days = await page
    .locator('[role="gridcell"]:not(.other-month)')
    .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().toJSON() as DOMRect));
  const index = days.findIndex(
    (day) => x >= day.left && x <= day.right && y >= day.top && y <= day.bottom,
  );
  return index + 1;
}

/** The demo workspace's own post whose text starts so, as the core has it now. */
async function demoPost(served: Served, start: string): Promise<LocalPost | undefined> {
  return (await callCore<LocalPost[]>(served, 'listPosts', {})).find((candidate) =>
    candidate.text.startsWith(start),
  );
}

/** Shows the month of `at` in `zone`; the demo's own posts are at most a few days ahead. */
async function showMonthOf(page: Page, at: number, zone: string): Promise<void> {
  if (wallTime(at, zone).slice(0, 7) !== wallTime(Date.now(), zone).slice(0, 7))
    await page.getByRole('button', { name: 'Next', exact: true }).click();
}

describe('the calendar in Chromium', () => {
  const app = useServedApp();

  it('creates a post on an empty day, schedules it, and drags it to another day', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    // Two months ahead the demo's own posts have not begun, so the days are empty.
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await next.click();
    await next.click();
    const cell = dayCell(page, 10);
    const box = await cell.boundingBox();
    if (!box) throw new Error('no day cell');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 8);
    const dialog = page.getByRole('dialog', { name: 'New post' });
    await dialog.getByLabel('Text').fill('Stollen season starts');
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const event = page.locator('.month-post', { hasText: 'Stollen season starts' });
    await event.waitFor();
    expect(await dayUnder(page, event)).toBe(10);

    const before = (await callCore<LocalPost[]>(app.served, 'listPosts', {})).find(
      (post) => post.text === 'Stollen season starts',
    );
    expect(before?.status).toBe('scheduled');
    await event.dragTo(dayCell(page, 17));
    await expect.poll(() => dayUnder(page, event)).toBe(17);
    let after: LocalPost | undefined;
    await expect
      .poll(async () => {
        after = (await callCore<LocalPost[]>(app.served, 'listPosts', {})).find(
          (post) => post.id === before?.id,
        );
        return after?.scheduledAt;
      })
      .toBe((before?.scheduledAt ?? 0) + 7 * 86_400_000);
    expect(after?.status).toBe('scheduled');
    await screenshot(page, 'calendar-drag');

    // By key: Alt and the left arrow move it back a day, and the focus stays on it.
    await event.focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(() => dayUnder(page, event)).toBe(16);
    await expect
      .poll(async () => {
        const moved = (await callCore<LocalPost[]>(app.served, 'listPosts', {})).find(
          (post) => post.id === before?.id,
        );
        return moved?.scheduledAt;
      })
      .toBe((before?.scheduledAt ?? 0) + 6 * 86_400_000);
    await expect(event.evaluate((chip) => chip === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    const opened = page.getByRole('dialog', { name: 'Edit post' });
    await expect(opened.getByLabel('Text').inputValue()).resolves.toBe('Stollen season starts');
    expect(problems).toEqual([]);
    await page.close();
  });

  it("drags one of a fresh demo workspace's own posts to another day", async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    const { timezone } = await callCore<OperationResults['getSettings']>(app.served, 'getSettings');
    const post = await demoPost(app.served, 'Fresh rye is out of the oven');
    expect(post?.status).toBe('scheduled');
    const wall = wallTime(post!.scheduledAt!, timezone);
    await showMonthOf(page, post!.scheduledAt!, timezone);
    const day = Number(wall.slice(8, 10));
    const event = page.locator('.month-post', { hasText: 'Fresh rye is out of the oven' });
    await event.waitFor();
    expect(await dayUnder(page, event)).toBe(day);
    // A day later, or a day earlier at the month's end.
    const target = day < 28 ? day + 1 : day - 1;
    await event.dragTo(dayCell(page, target));
    await expect.poll(() => dayUnder(page, event)).toBe(target);
    await expect
      .poll(async () => {
        const moved = (await callCore<LocalPost[]>(app.served, 'listPosts', {})).find(
          (candidate) => candidate.id === post!.id,
        );
        return moved?.scheduledAt;
      })
      .toBe(post!.scheduledAt! + (target - day) * 86_400_000);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('deletes a scheduled post from its editor, and Undo brings it back', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    const { timezone } = await callCore<OperationResults['getSettings']>(app.served, 'getSettings');
    const find = () => demoPost(app.served, 'Lunch special');
    const post = await find();
    expect(post?.status).toBe('scheduled');
    await showMonthOf(page, post!.scheduledAt!, timezone);
    await page.locator('.month-post', { hasText: 'Lunch special' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit post' });
    await chooseFromMore(editor, 'Delete');
    await editor.waitFor({ state: 'hidden' });
    await expect.poll(find).toBeUndefined();
    await page
      .locator('.notice', { hasText: 'Post deleted' })
      .getByRole('button', { name: 'Undo' })
      .click();
    await expect.poll(async () => (await find())?.status).toBe('scheduled');
    expect((await find())?.scheduledAt).toBe(post!.scheduledAt);
    await page.locator('.month-post', { hasText: 'Lunch special' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a post with its picture, and its menu (right-click or Shift+F10) duplicates it, moves it to drafts, and Delete deletes it with Undo', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    const { timezone } = await callCore<OperationResults['getSettings']>(app.served, 'getSettings');
    const find = () => demoPost(app.served, 'Tomorrow only: cinnamon buns');
    const post = await find();
    expect(post?.mediaUrls).toEqual([expect.stringMatching(/^pressroom-media:/)]);
    await showMonthOf(page, post!.scheduledAt!, timezone);
    const chip = page.locator('.month-post', { hasText: 'cinnamon buns' });
    const thumbnail = chip.locator('img.thumb');
    expect(await thumbnail.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // Drawn, not only present: a loaded picture of its own size on the chip.
    expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(120);
    expect((await thumbnail.boundingBox())?.width).toBeGreaterThan(10);

    await chip.click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Post' });
    await screenshot(page, 'calendar-post-menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Open',
      'Duplicate',
      'Move to drafts',
      'Delete',
    ]);
    await menu.getByRole('menuitem', { name: 'Move to drafts' }).click();
    await expect.poll(async () => (await find())?.status).toBe('draft');
    expect((await find())?.scheduledAt).toBe(post!.scheduledAt);

    // By keyboard: Shift+F10 on the focused post, then the arrows.
    await chip.focus();
    await page.keyboard.press('Shift+F10');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const copy = page.getByRole('dialog', { name: 'New post' });
    expect(await copy.getByLabel('Text').inputValue()).toBe(post!.text);
    // A copy is unsaved work: leaving it asks first.
    await page.keyboard.press('Escape');
    await page
      .getByRole('alertdialog', { name: 'Discard your changes?' })
      .getByRole('button', { name: 'Discard changes' })
      .click();
    await copy.waitFor({ state: 'hidden' });
    // The calendar's keys come back once the closed dialog's close event has run and taken it
    // away, which may be a while after it is hidden.
    await expect.poll(() => page.locator('dialog').count()).toBe(0);

    await chip.focus();
    await page.keyboard.press('Delete');
    await expect.poll(find).toBeUndefined();
    await page
      .locator('.notice', { hasText: 'Post deleted' })
      .getByRole('button', { name: 'Undo' })
      .click();
    await expect.poll(async () => (await find())?.status).toBe('draft');
    expect((await find())?.mediaUrls).toEqual(post!.mediaUrls);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a new post from c at the next whole hour, with one main action and a More menu', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    const { timezone } = await callCore<OperationResults['getSettings']>(
      app.served,
      'getSettings',
      {},
    );
    const expected = nextWholeHour(timezone);
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'New post' });
    await expect(dialog.getByLabel('Date').inputValue()).resolves.toBe(expected.date);
    await expect(dialog.getByLabel('Time', { exact: true }).inputValue()).resolves.toBe(
      expected.time,
    );
    // The error names its subject, and clears as soon as the text is typed.
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    const error = dialog.getByText('Write the post’s text');
    await error.waitFor();
    await dialog.getByLabel('Text').fill('Gingerbread is back');
    await error.waitFor({ state: 'hidden' });
    // The footer keeps its three buttons on one line.
    const tops = await dialog
      .locator('footer > button, footer > .menu-button > button')
      .evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().top));
    expect(tops).toHaveLength(3);
    expect(new Set(tops).size).toBe(1);
    const more = dialog.getByRole('button', { name: 'More' });
    await more.focus();
    await page.keyboard.press('ArrowDown');
    const menu = dialog.getByRole('menu', { name: 'More' });
    await expect(
      menu
        .getByRole('menuitem', { name: 'Save draft' })
        .evaluate((item) => item === document.activeElement),
    ).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'post-editor-more');
    // Escape closes the menu only; the editor stays open, focus back on More.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(more.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    // Words typed: leaving asks first.
    await page.keyboard.press('Escape');
    await page
      .getByRole('alertdialog', { name: 'Discard your changes?' })
      .getByRole('button', { name: 'Discard changes' })
      .click();
    await dialog.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fills the editor with AI assist and says which provider answered', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page.getByRole('button', { name: 'New post' }).click();
    const dialog = page.getByRole('dialog', { name: 'New post' });
    const text = dialog.getByLabel('Text');
    await text.fill('Our cinnamon buns are back on Saturday');
    await dialog
      .getByRole('group', { name: 'AI assist' })
      .getByRole('button', { name: /^Rephrase/ })
      .click();
    await dialog.getByText(/Answered by/).waitFor();
    await expect(text.inputValue()).resolves.not.toBe('Our cinnamon buns are back on Saturday');
    await expect(dialog.getByText(/\d+ tokens/).isVisible()).resolves.toBe(true);
    await screenshot(page, 'calendar-ai-assist');
    expect(problems).toEqual([]);
    await page.close();
  });
});
