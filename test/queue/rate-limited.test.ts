// The engine against platforms that refuse: every 429 obeyed, through the real client and HTTP,
// and what the governor learns kept for the next run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { forward, startFront } from '../support/front';
import { startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

describe('rate limits, end to end', () => {
  it('a platform answering 429 without headers to everything: few requests, then a clear failure', async () => {
    // Time scaled 100×: a 10 ms backoff step stands for 1 s, 600 ms for the first minute.
    const front = await startFront(() => ({ status: 429, body: 'Too Many Requests' }));
    const pressroom = testWorkspace({
      apiBase: front.baseUrl,
      token: 'tok_test',
      retryRules: { baseMs: 10, capMs: 300, maxAttempts: 8 },
    });
    for (const text of ['One', 'Two'])
      call(pressroom, 'addPost', { text, botId: 'bot_1', mode: 'publish_now' });
    const started = Date.now();
    const report = await pressroom.queue.publishUntilEmpty();
    expect(report).toMatchObject({ published: 0, failed: 2 });
    expect(front.seen.filter((request) => request.atMs - started < 600).length).toBeLessThanOrEqual(
      10,
    );
    expect(front.seen).toHaveLength(16);
    for (const item of pressroom.store.outbox.list('failed'))
      expect(item.lastError).toMatch(/^The platform keeps refusing: rate limited \(8 attempts/);
  });

  it('a 429 with Retry-After: 1 is sent again a second later, not at the window’s end', async () => {
    const platform = await startTestPlatform({ seed: 'demo', windowMs: 3_600_000 });
    let refused = false;
    const front = await startFront((request) => {
      if (request.method === 'POST' && !refused) {
        refused = true;
        return { status: 429, headers: { 'Retry-After': '1' }, body: '{}' };
      }
      return forward(platform.server.origin, request);
    });
    const pressroom = testWorkspace({
      apiBase: front.baseUrl,
      token: platform.server.token,
    });
    call(pressroom, 'addPost', { text: 'Once', botId: 'bot_1', mode: 'publish_now' });
    const report = await pressroom.queue.publishUntilEmpty();
    expect(report).toMatchObject({ published: 1, failed: 0 });
    const posts = front.seen.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(2);
    const gap = (posts[1]?.atMs ?? 0) - (posts[0]?.atMs ?? 0);
    expect(gap).toBeGreaterThanOrEqual(1_000);
    expect(gap).toBeLessThan(1_600);
  });

  it('keeps the limit and window it learned, per API base, for the next run', async () => {
    const platform = await startTestPlatform({
      seed: 'demo',
      rateLimit: 5,
      windowMs: 1_000,
      rateHeaders: { limit: false },
    });
    const dbFile = join(mkdtempSync(join(tmpdir(), 'pressroom-learned-')), 'workspace.sqlite');
    const open = (apiBase = platform.server.baseUrl) =>
      testWorkspace({
        dbFile,
        apiBase,
        token: platform.server.token,
      });
    const first = open();
    for (let i = 0; i < 12; i++)
      call(first, 'addPost', { text: `Post ${i}`, botId: 'bot_1', mode: 'publish_now' });
    await first.queue.publishUntilEmpty();
    expect(call(first, 'status').rateLimited).toBeLessThanOrEqual(1);
    expect(first.governor.learned()).toMatchObject({ limit: 5, windowMs: 1_000 });
    first.close();
    const second = open();
    expect(second.governor.learned()).toMatchObject({ limit: 5, windowMs: 1_000 });
    second.close();
    const elsewhere = open(`${platform.server.origin}/other/api/v1`);
    expect(elsewhere.governor.learned()).toMatchObject({ limit: null, windowMs: null });
    elsewhere.close();
  });

  it('a limit the platform cuts from 20 to 10 per window costs at most one 429', async () => {
    // Spec-literal headers: Remaining and Reset only.
    const platform = await startTestPlatform({
      seed: 'demo',
      rateLimit: 20,
      windowMs: 1_000,
      rateHeaders: { limit: false },
    });
    const pressroom = testWorkspace({
      platform,
      plan: 'enterprise',
    });
    const publish = async (count: number, label: string) => {
      for (let i = 0; i < count; i++)
        call(pressroom, 'addPost', { text: `${label} ${i}`, botId: 'bot_1', mode: 'publish_now' });
      return pressroom.queue.publishUntilEmpty();
    };
    await publish(50, 'Before the cut');
    expect(pressroom.governor.learned()).toMatchObject({ limit: 20 });
    const refusedBefore = call(pressroom, 'status').rateLimited;
    await platform.admin('PATCH', '/accounts/acct_1', { rate_limit: 10 });
    // From the next window on.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await publish(40, 'After the cut')).toMatchObject({ published: 40, failed: 0 });
    expect(call(pressroom, 'status').rateLimited - refusedBefore).toBeLessThanOrEqual(1);
    expect(pressroom.governor.learned()).toMatchObject({ limit: 10 });
  });
});
