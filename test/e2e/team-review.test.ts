// Approvals in Chromium with two web hosts (Ana writes, Bea approves) on two workspace files joined
// to one team server started here, publishing to one reference server, with approval required:
// write → submit → request changes with a comment → edit → submit → approve → Publish now (before
// its time, asked first) → published once. Each
// person is told in an in-app notice; the Review screen and the calendar show each state. axe
// scans the Review screen with posts waiting, light and dark at 1024×700; its picture goes to
// docs/screenshots/ when asked (UPDATE_SCREENSHOTS=1), so a test run leaves the tree as it was.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResults } from '../../shared/answers';
import type { LocalPost } from '../../shared/domain';
import { createPlatformClient, readWholeList } from '../../main/platform';
import { startPlatformServer } from '../../main/reference-server/server';
import type { PlatformServer } from '../../main/reference-server/server';
import { wallTime } from '../../renderer/src/lib/format';
import { joinedTeamFile, startTestTeam } from '../support/team';
import type { TestTeam } from '../support/team';
import { bothThemesClean, go } from './screens';
import { callCore, launchChromium, openApp, serve } from './harness';
import type { Served } from './harness';

const SMALL = { width: 1024, height: 700 };
const SHOTS = process.env.UPDATE_SCREENSHOTS
  ? 'docs/screenshots'
  : mkdtempSync(join(tmpdir(), 'pressroom-shots-'));
const FIRST = 'Cider is back at the market';
const EDITED = 'Cider is back at the Saturday market';

/** The post's chip on the calendar (shown afresh), with its state in words for screen readers. */
async function chip(page: Page, text: string) {
  await go(page, 'Review');
  await go(page, 'Calendar');
  const event = page.locator('.month-post', { hasText: text }).first();
  await event.waitFor({ timeout: 10_000 });
  return event;
}

async function chipSays(page: Page, text: string, state: string): Promise<void> {
  await expect
    .poll(async () => (await chip(page, text)).textContent(), { timeout: 10_000 })
    .toContain(`(${state})`);
}

/** Waits for an in-app notice, then closes every one like it. */
async function notice(page: Page, words: string): Promise<void> {
  const shown = page.locator('.notice', { hasText: words });
  await shown.first().waitFor({ timeout: 10_000 });
  while ((await shown.count()) > 0)
    await shown.first().getByRole('button', { name: 'Dismiss' }).click();
}

describe('approvals between two desktops in Chromium', () => {
  let team: TestTeam;
  let platform: PlatformServer;
  let hosts: Served[] = [];
  let browser: Browser;

  beforeAll(async () => {
    [team, platform] = await Promise.all([
      startTestTeam(),
      startPlatformServer({ seed: 'demo', randomSeed: 7 }),
    ]);
    const owner = team.connect(team.ownerToken);
    await owner.whenSynced();
    await owner.request({ kind: 'set_approval', required: true, bots: null });
    const files = [
      joinedTeamFile(team, team.invite('editor', 'Ana')),
      joinedTeamFile(team, team.invite('approver', 'Bea')),
    ];
    const env = (file: string) => ({
      PRESSROOM_DB: file,
      PRESSROOM_API_BASE: platform.baseUrl,
      PRESSROOM_API_TOKEN: platform.token,
      PRESSROOM_PLAN: 'enterprise',
    });
    [browser, ...hosts] = await Promise.all([
      launchChromium(),
      ...files.map((file) => serve({ env: env(file) })),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(hosts.map((host) => host.stop()));
    await team?.close();
    await platform?.close();
  });

  it('walks write → submit → changes requested → edit → submit → approve → publish now → published', async () => {
    const [anaHost, beaHost] = hosts as [Served, Served];
    const [ana, bea] = await Promise.all(
      hosts.map((host) => openApp(browser, host.url, { viewport: SMALL })),
    );
    for (const { page } of [ana!, bea!])
      await page.getByText(/^Team connected/).waitFor({ timeout: 10_000 });

    // Ana writes a post for 2–3 minutes from now (the editor's times are whole minutes): time to
    // walk the review before it is due; it is published now once approved, not at its time.
    const { timezone } = await callCore<OperationResults['getSettings']>(anaHost, 'getSettings');
    const at = wallTime(Date.now() + 180_000, timezone);
    await ana!.page.keyboard.press('c');
    const dialog = ana!.page.getByRole('dialog', { name: 'New post' });
    await dialog.getByLabel('Text').fill(FIRST);
    await dialog.getByLabel('Bot').selectOption('bot_1');
    await dialog.getByLabel('Date').fill(at.slice(0, 10));
    await dialog.getByLabel('Time', { exact: true }).fill(at.slice(11, 16));
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Ana submits it from the editor's approval panel.
    await (await chip(ana!.page, FIRST)).click();
    const edit = ana!.page.getByRole('dialog', { name: 'Edit post' });
    await edit.getByRole('button', { name: 'Submit for review' }).click();
    await edit.getByText('In review, written by').waitFor({ timeout: 10_000 });
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await chipSays(ana!.page, FIRST, 'In review');
    // A second post waits too, so the Review screen has a list.
    const second = await callCore<LocalPost>(anaHost, 'addPost', {
      text: 'Pumpkin bread from Monday',
      mode: 'draft',
      botId: 'bot_1',
    });
    await callCore(anaHost, 'submitPost', { id: second.id });

    // Bea is told, sees it in review on her calendar, and sends it back with a comment.
    await notice(bea!.page, 'Waiting for your review: Ana sent a post');
    await chipSays(bea!.page, FIRST, 'In review');
    await go(bea!.page, 'Review');
    const waiting = bea!.page.getByRole('region', { name: 'Waiting for my approval' });
    const first = waiting.getByRole('listitem').filter({ hasText: FIRST });
    await first.getByRole('button', { name: 'Request changes' }).click();
    await first.getByLabel('What to change').fill('Say which market: we have two.');
    await first.getByRole('button', { name: 'Send back' }).click();
    await first.waitFor({ state: 'detached' });

    // Ana is told, finds it sent back (Review, calendar), edits it and submits it again.
    await notice(ana!.page, 'Sent back to you: Bea sent back a post');
    await go(ana!.page, 'Review');
    const back = ana!.page.getByRole('region', { name: 'Sent back to me' });
    await back.getByText(FIRST).waitFor({ timeout: 10_000 });
    await chipSays(ana!.page, FIRST, 'Changes requested');
    await (await chip(ana!.page, FIRST)).click();
    await edit.getByText('Say which market: we have two.').waitFor();
    await edit.getByLabel('Text').fill(EDITED);
    await edit.getByRole('button', { name: 'Schedule', exact: true }).click();
    await edit.waitFor({ state: 'hidden' });
    await (await chip(ana!.page, EDITED)).click();
    await edit.getByRole('button', { name: 'Submit for review' }).click();
    await edit.getByText('In review, written by').waitFor({ timeout: 10_000 });
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // Bea's Review screen with posts waiting: axe-clean light and dark, and the README's picture.
    await chipSays(bea!.page, EDITED, 'In review');
    await go(bea!.page, 'Review');
    await waiting.getByText(EDITED).waitFor({ timeout: 10_000 });
    await bea!.page
      .getByRole('region', { name: 'Team log' })
      .getByRole('listitem')
      .first()
      .waitFor();
    await bothThemesClean(bea!.page);
    mkdirSync(SHOTS, { recursive: true });
    await bea!.page.screenshot({ path: join(SHOTS, 'review.png') });

    // Bea approves; nothing goes out before. Then, rather than wait for its time, she publishes it
    // now from the editor (asked first), through the team's lease.
    expect(await published(platform, EDITED)).toBe(0);
    await waiting
      .getByRole('listitem')
      .filter({ hasText: EDITED })
      .getByRole('button', { name: 'Approve' })
      .click();
    await waiting.getByText(EDITED).waitFor({ state: 'detached' });
    await chipSays(bea!.page, EDITED, 'Approved');
    await chipSays(ana!.page, EDITED, 'Approved');
    expect(await published(platform, EDITED)).toBe(0);
    await (await chip(bea!.page, EDITED)).click();
    const beaEdit = bea!.page.getByRole('dialog', { name: 'Edit post' });
    await beaEdit.getByText('Approved').first().waitFor({ timeout: 10_000 });
    await beaEdit.getByRole('button', { name: 'More' }).click();
    await beaEdit.getByRole('menuitem', { name: 'Publish now' }).click();
    const question = bea!.page.getByRole('alertdialog', { name: /^Publish now instead of at / });
    await question.getByRole('button', { name: 'Publish now' }).click();
    await beaEdit.waitFor({ state: 'hidden' });
    await expect
      .poll(() => published(platform, EDITED), { timeout: 20_000, interval: 500 })
      .toBe(1);
    await expect
      .poll(
        async () => {
          const posts = await callCore<LocalPost[]>(beaHost, 'listPosts', {});
          return posts.find((post) => post.text === EDITED)?.status;
        },
        { timeout: 10_000 },
      )
      .toBe('published');
    expect(await published(platform, FIRST)).toBe(0);
    expect([...ana!.problems, ...bea!.problems]).toEqual([]);
  }, 300_000);
});

/** How many posts with `text` the reference server holds. */
async function published(platform: PlatformServer, text: string): Promise<number> {
  const client = createPlatformClient({
    baseUrl: platform.baseUrl,
    token: platform.token,
    timeoutMs: 5_000,
  });
  const list = await readWholeList((request) => client.listPosts({ ...request, bot_id: 'bot_1' }));
  return list.items.filter((post) => post.text === text).length;
}
