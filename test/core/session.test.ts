// The session: demo, account and offline workspaces, the token test on connect, and the token
// kept sealed outside the database.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/answers';
import { call, invoke } from '../../main/core/operations';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { openDemoSession } from '../support/session';

const openSession = (platform: TestPlatform, folder?: string) =>
  openDemoSession({ platform, ...(folder ? { folder } : {}) });

/** Every byte Pressroom wrote in the folder, as text. */
function folderText(folder: string): string {
  return readdirSync(folder)
    .map((name) => readFileSync(join(folder, name)).toString('latin1'))
    .join('\n');
}

describe('session', () => {
  it('opens the demo workspace when no account is set, and says so', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { session } = await openSession(platform);
    const settings = await invoke(session, 'getSettings', {});
    expect(settings).toMatchObject({
      ok: true,
      value: { account: { mode: 'demo', apiBase: platform.server.baseUrl, tokenHint: null } },
    });
    expect(await invoke(session, 'sync', {})).toMatchObject({ ok: true });
    expect(call(session.current, 'listBots').length).toBeGreaterThan(0);
  });

  it('tests the connection of the workspace’s platform: the demo’s, through the contract', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { session } = await openSession(platform);
    const checked = await invoke(session, 'checkConnection', {});
    expect(checked).toMatchObject({
      ok: true,
      value: {
        token: { accepted: true },
        rate_limit: { reset: 'epoch-seconds', limit: 60 },
        lists: { envelope: 'data' },
        ids: 'string',
      },
    });
  });

  it('names the limit learned when the platform does not state one', async () => {
    const platform = await startTestPlatform({
      seed: 'demo',
      rateLimit: 40,
      rateHeaders: { limit: false },
    });
    const { session } = await openSession(platform);
    expect(await invoke(session, 'sync', {})).toMatchObject({ ok: true });
    const checked = await invoke(session, 'checkConnection', {});
    expect(checked).toMatchObject({ ok: true, value: { rate_limit: { limit: 40 } } });
  });

  it('opens a watched demo workspace already synced, so a first page shows its posts', async () => {
    const { session } = await openDemoSession({ watch: true });
    expect(call(session.current, 'listPosts', {}).length).toBeGreaterThan(0);
    expect(call(session.current, 'listBots').length).toBeGreaterThan(0);
  });

  it('gives a new demo workspace work of its own to try things on, once', async () => {
    const { session, folder, platform } = await openDemoSession({ watch: true });
    const pressroom = session.current;
    const bots = call(pressroom, 'listBots');
    // A posting schedule per bot, so free slots, Add to queue and Share next work at once.
    const schedules = call(pressroom, 'listSchedules');
    expect(
      bots.every((bot) => schedules.some((entry) => entry.botId === bot.id && entry.text)),
    ).toBe(true);
    expect(
      call(pressroom, 'listFreeSlots', {
        botId: bots[0]!.id,
        from: Date.now(),
        to: Date.now() + 7 * 86_400_000,
      }).length,
    ).toBeGreaterThan(0);
    const own = call(pressroom, 'listPosts', {}).filter((post) => post.origin === 'local');
    expect(own.filter((post) => post.status === 'draft' && post.scheduledAt === null)).toHaveLength(
      3,
    );
    const scheduled = own.filter((post) => post.status === 'scheduled');
    expect(scheduled).toHaveLength(3);
    expect(scheduled.every((post) => post.scheduledAt! > Date.now())).toBe(true);
    // Two carry a picture, published from the demo platform's web space, shown on the calendar.
    const pictured = scheduled.filter((post) => post.mediaUrls.length > 0);
    expect(pictured.map((post) => post.mediaUrls[0])).toEqual([
      expect.stringMatching(/^pressroom-media:[0-9a-f]{64}\.png$/),
      expect.stringMatching(/^pressroom-media:[0-9a-f]{64}\.png$/),
    ]);
    const range = call(pressroom, 'getCalendar', {
      from: Date.now(),
      to: Date.now() + 7 * 86_400_000,
      zone: 'UTC',
    });
    expect(Object.keys(range.thumbnails).sort()).toEqual(
      pictured.map((post) => post.mediaUrls[0]).sort(),
    );
    // Its own posts move: the first drag a user tries is not refused.
    const moved = await invoke(session, 'updatePost', {
      id: scheduled[0]!.id,
      at: new Date(scheduled[0]!.scheduledAt! + 3_600_000).toISOString(),
    });
    expect(moved).toMatchObject({ ok: true });
    const products = call(pressroom, 'listProducts', { search: 'DEMO-' }).rows;
    expect(products.map((product) => [product.sku, product.status])).toEqual([
      ['DEMO-BRUNCH-BOX', 'draft'],
      ['DEMO-GIFT-CARD', 'draft'],
    ]);
    // Deleted work stays deleted when the workspace opens again.
    await invoke(session, 'deleteProducts', { ids: products.map((product) => product.id) });
    await session.close();
    const again = await openDemoSession({ platform, folder, watch: true });
    expect(call(again.session.current, 'listProducts', { search: 'DEMO-' }).rows).toEqual([]);
    expect(
      call(again.session.current, 'listPosts', {}).filter((post) => post.origin === 'local'),
    ).toHaveLength(6);
  });

  it('refuses a token the platform rejects, naming the field, and stays where it was', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { session } = await openSession(platform);
    const refused = await invoke(session, 'connectAccount', {
      apiBase: platform.server.baseUrl,
      token: 'not-a-real-token-1234',
      plan: 'pro',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', issues: [{ field: 'token' }] },
    });
    expect(refused.ok === false && refused.error.message).toMatch(/refused by the platform \(401/);
    expect(refused.ok === false && refused.error.message).not.toContain('not-a-real-token');
    expect(session.accountSettings().mode).toBe('demo');

    const unreachable = await invoke(session, 'connectAccount', {
      apiBase: 'http://127.0.0.1:9/api/v1',
      token: 'whatever-token',
    });
    expect(unreachable).toMatchObject({ ok: false, error: { issues: [{ field: 'apiBase' }] } });
  });

  it('connects an account with a good token, keeps it sealed, and reopens it next time', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { session, folder } = await openSession(platform);
    const events: CoreEvent[] = [];
    session.subscribe((event) => events.push(event));
    const token = platform.server.token;
    const connected = await invoke(session, 'connectAccount', {
      apiBase: platform.server.baseUrl,
      token,
      plan: 'pro',
    });
    expect(connected).toEqual({
      ok: true,
      value: {
        mode: 'account',
        apiBase: platform.server.baseUrl,
        tokenHint: `••••••••${token.slice(-4)}`,
        plan: 'pro',
      },
    });
    expect(events).toContainEqual({ type: 'changed', what: 'account' });
    expect(readdirSync(folder)).toContain('workspace.sqlite');
    expect(folderText(folder)).not.toContain(token);

    await session.close();
    const reopened = await openSession(platform, folder);
    expect(reopened.session.accountSettings()).toMatchObject({ mode: 'account', plan: 'pro' });
    expect(await invoke(reopened.session, 'useDemo', {})).toMatchObject({
      ok: true,
      value: { mode: 'demo', tokenHint: null },
    });
    expect(readdirSync(folder)).not.toContain('token.sealed');
  });

  it('keeps demo and account data apart', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { session } = await openSession(platform);
    await invoke(session, 'addPost', { text: 'A demo draft', mode: 'draft' });
    await invoke(session, 'connectAccount', {
      apiBase: platform.server.baseUrl,
      token: platform.server.token,
    });
    expect(call(session.current, 'listPosts', {}).map((post) => post.text)).not.toContain(
      'A demo draft',
    );
  });
});
