// Pictures in Chromium on the demo workspace: one chosen with Add pictures…, one dropped on the
// editor's edge and one pasted into its text (text pasted with a spreadsheet's picture stays
// text), one removed by keyboard, a text file named .png refused with a sentence naming it; the
// thumbnails drawn on the calendar chip, in the List view, in the Queue and beside a draft with no
// day; the editor reopened with the pictures' names; and, published, the post on the demo
// platform with addresses in the demo's web space that serve the very bytes uploaded. Then a chip
// with a picture kept readable at 1024×700.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { OperationResults } from '../../shared/answers';
import type { LocalPost } from '../../shared/domain';
import { wallTime } from '../../renderer/src/lib/format';
import { THUMBNAIL_MAX_BYTES } from '../../shared/media';
import { noisyPng, solidPng } from '../support/pictures';
import { seriousViolations } from './axe';
import { callCore, chooseFromMore, openApp, screenshot } from './harness';
import { useServedApp } from './served-app';

const RYE = solidPng(40, 30, [120, 70, 30]);
const CROISSANT = solidPng(30, 40, [230, 180, 60]);
const COFFEE = solidPng(20, 20, [60, 40, 30]);
const TEXT = 'Three loaves, three pictures';

/**
 * Gives `target` a file (and `text`, when given) the way a drop or a paste does, with a
 * DataTransfer made in the page; true when the page took it in place of the browser (a drop
 * nobody takes opens the file in place of the app; a paste not taken inserts its text).
 */
async function dispatchFile(
  target: Locator,
  how: 'drop' | 'paste',
  file: { name: string; base64: string; text?: string },
): Promise<boolean> {
  return target.evaluate(
    (element, { how, name, base64, text }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: 'image/png' }));
      if (text !== undefined) transfer.setData('text/plain', text);
      const init = { bubbles: true, cancelable: true };
      if (how === 'paste')
        return !element.dispatchEvent(
          new ClipboardEvent('paste', { ...init, clipboardData: transfer }),
        );
      element.dispatchEvent(new DragEvent('dragenter', { ...init, dataTransfer: transfer }));
      // The browser fires drop only where dragover was cancelled.
      if (element.dispatchEvent(new DragEvent('dragover', { ...init, dataTransfer: transfer })))
        return false;
      return !element.dispatchEvent(new DragEvent('drop', { ...init, dataTransfer: transfer }));
    },
    { how, ...file },
  );
}

/** A thumbnail's address: drawn by the page, or the picture itself when that small. */
const DATA_PICTURE = /^data:image\/(webp|png);base64,/;

/** The address of the picture `within` shows, once it is drawn: loaded, and not hidden. */
async function shownPicture(within: Locator): Promise<string | null> {
  const picture = within.locator('img');
  await picture.waitFor({ state: 'visible' });
  await expect
    .poll(() =>
      picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
    )
    .toBe(true);
  return picture.getAttribute('src');
}

describe('pictures in Chromium', () => {
  const app = useServedApp();

  it('uploads, drops and pastes pictures, shows their thumbnails, and publishes them', async () => {
    const { page, problems } = await openApp(app.browser, app.served.url);
    const { timezone } = await callCore<OperationResults['getSettings']>(app.served, 'getSettings');
    // Two months ahead the demo's own posts have not begun, so the post's chip is alone.
    const [year, month] = wallTime(Date.now(), timezone).slice(0, 7).split('-').map(Number);
    const shown = new Date(Date.UTC(year!, month! + 1, 12));
    const date = shown.toISOString().slice(0, 10);

    await page.getByRole('button', { name: 'New post' }).click();
    const dialog = page.getByRole('dialog', { name: 'New post' });
    await dialog.getByLabel('Text').fill(TEXT);
    await dialog.getByLabel('Bot').selectOption({ label: 'Bakery Orders' });
    await dialog.getByLabel('Date').fill(date);
    await dialog.getByLabel('Time', { exact: true }).fill('10:00');

    // Chosen with the file input behind "Add pictures…".
    await dialog
      .getByLabel('Pictures to add')
      .setInputFiles({ name: 'rye.png', mimeType: 'image/png', buffer: RYE });
    const pictures = dialog.getByRole('list', { name: 'Pictures' });
    const rye = pictures.getByRole('listitem').filter({ hasText: 'rye.png' });
    expect(await shownPicture(rye)).toMatch(DATA_PICTURE);
    await expect(rye.getByRole('img', { name: 'rye.png' }).count()).resolves.toBe(1);

    // Dropped anywhere on the editor (here its edge, outside the form), and pasted into its text.
    await expect(
      dispatchFile(dialog, 'drop', { name: 'croissant.png', base64: CROISSANT.toString('base64') }),
    ).resolves.toBe(true);
    await pictures.getByRole('img', { name: 'croissant.png' }).waitFor();
    await expect(
      dispatchFile(dialog.getByLabel('Text'), 'paste', {
        name: 'coffee.png',
        base64: COFFEE.toString('base64'),
      }),
    ).resolves.toBe(true);
    await pictures.getByRole('img', { name: 'coffee.png' }).waitFor();
    await expect(dialog.getByLabel('Text').inputValue()).resolves.toBe(TEXT);
    // Cells copied from a spreadsheet come with a picture of them: into the text, the text wins.
    await expect(
      dispatchFile(dialog.getByLabel('Text'), 'paste', {
        name: 'cells.png',
        base64: RYE.toString('base64'),
        text: 'Rye\t3.80',
      }),
    ).resolves.toBe(false);

    // One more, removed by keyboard: the focus goes to its neighbour's Remove, not to the page.
    await dialog.getByLabel('Pictures to add').setInputFiles({
      name: 'extra.png',
      mimeType: 'image/png',
      buffer: solidPng(5, 5, [9, 9, 9]),
    });
    const removeExtra = dialog.getByRole('button', { name: 'Remove extra.png' });
    await removeExtra.focus();
    await page.keyboard.press('Enter');
    await removeExtra.waitFor({ state: 'detached' });
    await expect(
      dialog
        .getByRole('button', { name: 'Remove coffee.png' })
        .evaluate((button) => button === document.activeElement),
    ).resolves.toBe(true);

    // A text file with a picture's name is refused, and the sentence names it.
    await dialog.getByLabel('Pictures to add').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture at all'),
    });
    await dialog
      .getByRole('alert')
      .getByText('“notes.png” is not a picture Pressroom can post (PNG, JPG, GIF or WebP)')
      .waitFor();
    await expect(pictures.getByRole('listitem').count()).resolves.toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'post-editor-pictures');

    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const post = (await callCore<LocalPost[]>(app.served, 'listPosts', {})).find(
      (candidate) => candidate.text === TEXT,
    );
    expect(post?.status).toBe('scheduled');
    expect(post?.mediaUrls).toHaveLength(3);
    expect(post?.mediaUrls.every((url) => /^pressroom-media:[0-9a-f]{64}\.png$/.test(url))).toBe(
      true,
    );

    // A draft without a day shows its picture beside the calendar.
    await callCore(app.served, 'addPost', {
      text: 'Croissants, no day yet',
      mediaUrls: [post!.mediaUrls[1]],
      mode: 'draft',
    });
    const drafts = page.getByRole('region', { name: 'Unscheduled drafts' });
    expect(
      await shownPicture(drafts.getByRole('button', { name: /Croissants, no day yet/ })),
    ).toMatch(DATA_PICTURE);

    // Its chip on the calendar, and its line in the List view, show the first picture.
    const next = page.getByRole('button', { name: 'Next', exact: true });
    await next.click();
    await next.click();
    const chip = page.locator('.month-post', { hasText: TEXT });
    expect(await shownPicture(chip)).toMatch(DATA_PICTURE);
    await page.getByRole('button', { name: 'List', exact: true }).click();
    expect(await shownPicture(page.locator('.ec-event', { hasText: TEXT }))).toMatch(DATA_PICTURE);
    await page.getByRole('button', { name: 'Month', exact: true }).click();

    // The Queue's row for it too.
    const screens = page.getByRole('navigation', { name: 'Screens' });
    await screens.getByRole('link', { name: 'Queue' }).click();
    const row = page.getByRole('row').filter({ hasText: TEXT });
    expect(await shownPicture(row)).toMatch(DATA_PICTURE);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'queue-thumbnail');

    // Reopened, the editor names its pictures; out of the queue and published now.
    await screens.getByRole('link', { name: 'Calendar' }).click();
    await next.click();
    await next.click();
    await chip.click();
    let editor = page.getByRole('dialog', { name: 'Edit post' });
    for (const name of ['rye.png', 'croissant.png', 'coffee.png'])
      await editor.getByRole('img', { name }).waitFor();
    await chooseFromMore(editor, 'Move to drafts');
    await editor.waitFor({ state: 'hidden' });
    // The calendar draws it as a draft once it has read it again: opened before, it is still the
    // scheduled post it was, with only Schedule to offer.
    await page.locator('.month-post.post-draft', { hasText: TEXT }).click();
    editor = page.getByRole('dialog', { name: 'Edit post' });
    await editor.getByRole('img', { name: 'rye.png' }).waitFor();
    await chooseFromMore(editor, 'Publish now');
    await editor.waitFor({ state: 'hidden' });
    await expect
      .poll(
        async () => {
          await callCore(app.served, 'publishDue');
          const posts = await callCore<LocalPost[]>(app.served, 'listPosts', {});
          return posts.find((candidate) => candidate.id === post!.id)?.status;
        },
        { timeout: 15_000 },
      )
      .toBe('published');

    // On the platform: the demo's web space addresses, serving the bytes that were uploaded.
    const platform = new Database(join(app.served.home, 'demo-platform.sqlite'), {
      readonly: true,
    });
    const sent = platform.prepare('SELECT media_urls FROM posts WHERE text = ?').get(TEXT) as
      { media_urls: string } | undefined;
    platform.close();
    const urls = JSON.parse(sent?.media_urls ?? '[]') as string[];
    const { account } = await callCore<OperationResults['getSettings']>(app.served, 'getSettings');
    const origin = new URL(account.apiBase!).origin;
    expect(urls).toHaveLength(3);
    const served = await Promise.all(
      urls.map(async (url) => {
        expect(url.startsWith(`${origin}/demo-media/`)).toBe(true);
        const response = await fetch(url);
        expect(response.headers.get('content-type')).toBe('image/png');
        return Buffer.from(await response.arrayBuffer());
      }),
    );
    expect(served).toEqual([RYE, CROISSANT, COFFEE]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the thumbnail of a picture added without one, as the command line adds them', async () => {
    // 200×200 of noise is over the 64 KiB a picture may be to stand for its own thumbnail.
    const big = noisyPng(200, 200, 7);
    expect(big.byteLength).toBeGreaterThan(THUMBNAIL_MAX_BYTES);
    // `media add` keeps the bytes alone (the command line cannot draw): addMedia without one.
    const picture = await callCore<OperationResults['addMedia']>(app.served, 'addMedia', {
      fileName: 'market stall.png',
      contentBase64: big.toString('base64'),
    });
    expect(picture.thumbnailUrl).toBeNull();
    await callCore(app.served, 'addPost', {
      text: 'Market stall, pictured from the command line',
      mediaUrls: [picture.url],
      mode: 'draft',
    });
    const { page, problems } = await openApp(app.browser, app.served.url);
    await page
      .getByRole('region', { name: 'Unscheduled drafts' })
      .getByRole('button', { name: /Market stall, pictured/ })
      .click();
    const editor = page.getByRole('dialog', { name: 'Edit post' });
    const item = editor
      .getByRole('list', { name: 'Pictures' })
      .getByRole('listitem')
      .filter({ hasText: 'market stall.png' });
    expect(await shownPicture(item)).toMatch(DATA_PICTURE);
    // Kept with the picture: the calendar, the Queue and the next editor show it too.
    const [described] = await callCore<OperationResults['describeMedia']>(
      app.served,
      'describeMedia',
      { urls: [picture.url] },
    );
    expect(described?.thumbnailUrl).toMatch(DATA_PICTURE);
    expect(described?.fileName).toBe('market stall.png');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps a chip with a picture readable in a 1024×700 window', async () => {
    const { timezone } = await callCore<OperationResults['getSettings']>(app.served, 'getSettings');
    const picture = await callCore<OperationResults['addMedia']>(app.served, 'addMedia', {
      fileName: 'bun.png',
      contentBase64: solidPng(8, 8, [200, 120, 60]).toString('base64'),
    });
    // Past the demo's posts (a month centred on today): the only post of its day, so no
    // "+N more" can stand in for its chip, whatever the time of day the demo's posts were put at.
    const day = wallTime(Date.now() + 20 * 86_400_000, timezone).slice(0, 10);
    await callCore(app.served, 'addPost', {
      text: 'Poppy seed rolls, pictured',
      botId: 'bot_1',
      mediaUrls: [picture.url],
      at: `${day}T06:00`,
      zone: timezone,
      mode: 'schedule',
    });
    const { page, problems } = await openApp(app.browser, app.served.url, {
      viewport: { width: 1024, height: 700 },
    });
    const views = page.getByRole('group', { name: 'Calendar view' });
    const today = wallTime(Date.now(), timezone).slice(0, 10);
    // How many times Next reaches the post's month and (weeks start on Sunday) its week.
    const dayNumber = (date: string) => Date.parse(`${date}T00:00Z`) / 86_400_000;
    const monthNumber = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
    const sunday = dayNumber(today) - new Date(`${today}T00:00Z`).getUTCDay();
    const later = {
      Month: monthNumber(day) - monthNumber(today),
      Week: Math.floor((dayNumber(day) - sunday) / 7),
    };
    for (const view of ['Month', 'Week'] as const) {
      const button = views.getByRole('button', { name: view, exact: true });
      await button.click();
      await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
      for (let step = 0; step < later[view]; step++)
        await page.getByRole('button', { name: 'Next', exact: true }).click();
      // Each view's own chip (the week's is the library's, drawn once its code has loaded).
      const chip = page.locator(view === 'Month' ? '.month-post .post' : '.ec-event .post', {
        hasText: 'Poppy seed rolls',
      });
      expect(await shownPicture(chip), view).toMatch(DATA_PICTURE);
      await expect
        .poll(
          () =>
            chip.evaluate((post) => {
              const time = post.querySelector('.time')!;
              const clipped =
                time.getBoundingClientRect().width > 1 && time.scrollWidth > time.clientWidth + 1;
              const titleWidth = post.querySelector('.title')!.getBoundingClientRect().width;
              return !clipped && titleWidth >= 30;
            }),
          { message: `${view}: the chip's time is cut or its title is under 30 px` },
        )
        .toBe(true);
      await screenshot(page, `media-1024-${view.toLowerCase()}`);
      await page.keyboard.press('t'); // back to today, for the next view
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
