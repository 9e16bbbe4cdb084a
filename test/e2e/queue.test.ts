// The Queue in Chromium on a fresh demo workspace: a schedule of posts whose first row is the next
// post to go (ours or one the platform publishes itself), with its date in the user's zone and its
// bot; a row's detail holds the outbox item, and axe finds nothing serious with it open.
import { describe, expect, it } from 'vitest';
import type { OperationResults } from '../../shared/answers';
import { seriousViolations } from './axe';
import { callCore, openApp, screenshot } from './harness';
import { useServedApp } from './served-app';

describe('the queue in Chromium', () => {
  const app = useServedApp();

  it('shows the next post to go first, with its date and bot, and its item in a detail', async () => {
    const now = Date.now();
    const [posts, bots, settings] = await Promise.all([
      callCore<OperationResults['listPosts']>(app.served, 'listPosts', { status: 'scheduled' }),
      callCore<OperationResults['listBots']>(app.served, 'listBots'),
      callCore<OperationResults['getSettings']>(app.served, 'getSettings'),
    ]);
    const next = posts
      .filter((post) => (post.scheduledAt ?? 0) > now)
      .sort((a, b) => a.scheduledAt! - b.scheduledAt!)[0]!;
    const bot = bots.find((candidate) => candidate.id === next.botId)!;

    const { page, problems } = await openApp(app.browser, app.served.url);
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Queue' })
      .click();
    const first = page.getByRole('table', { name: 'Up next' }).getByRole('row').nth(1);
    await first.waitFor();
    const when = await page.evaluate(
      ([ms, zone]) =>
        new Intl.DateTimeFormat(undefined, {
          dateStyle: 'medium',
          timeStyle: 'short',
          timeZone: zone,
        }).format(ms),
      [next.scheduledAt!, settings.timezone] as const,
    );
    const text = (await first.textContent()) ?? '';
    expect(text).toContain(when);
    expect(text).toContain(next.text.slice(0, 40));
    expect(text).toContain(bot.name);
    expect(text).toContain('Scheduled');
    await screenshot(page, 'queue-schedule');

    await first.getByRole('button', { name: /^Details:/ }).click();
    const detail = page.getByRole('complementary');
    await detail.waitFor();
    await expect(detail.textContent()).resolves.toMatch(
      next.origin === 'remote' ? /scheduled on the platform/ : /Idempotency key/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'queue-detail');
    await detail.getByRole('button', { name: 'Close the details' }).click();
    await expect(detail.count()).resolves.toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
