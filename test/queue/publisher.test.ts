// The publisher against the reference server: on time, exactly once, through faults.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ODD_ANSWERS } from '../../main/reference-server/server-state';
import { testWorkspace } from '../support/workspace';
import type { WorkspaceConfig } from '../../main/core/workspace';
import type { PublisherEvent } from '../../main/queue/publisher';
import { PRIORITY } from '../../shared/domain';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

function pressroomOn(platform: TestPlatform, extra: Partial<WorkspaceConfig> = {}) {
  const events: PublisherEvent[] = [];
  const pressroom = testWorkspace({
    platform,
    timeoutMs: 2_000,
    onEvent: (event) => events.push(event),
    ...extra,
  });
  return { pressroom, events };
}

/** Retries at once: the reconciliation is what these tests look at, not the backoff. */
const FAST_RETRY = { baseMs: 1, capMs: 5, maxAttempts: 5 };

const soon = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Every post on the platform, read with a token of its own so the test's reads have their own budget. */
async function remotePosts(platform: TestPlatform) {
  const { token } = await platform.admin<{ token: string }>(
    'POST',
    `/accounts/acct_${platform.server.accountId}/tokens`,
  );
  const reader = platform.clientWith(token);
  const posts = [];
  for (let page = 1; ; page++) {
    const result = await reader.listPosts({ per_page: 200, page });
    posts.push(...result.items);
    if (result.next.kind !== 'request') return posts;
  }
}

describe('publisher', () => {
  it('publishes now, schedules for later, and hands off with the platform’s own schedule', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { pressroom } = pressroomOn(platform);
    const now = call(pressroom, 'addPost', { text: 'Now', botId: 'bot_1', mode: 'publish_now' });
    const later = call(pressroom, 'addPost', {
      text: 'Later',
      botId: 'bot_1',
      at: soon(300),
      zone: 'UTC',
    });
    const handOff = call(pressroom, 'addPost', {
      text: 'Handed off',
      botId: 'bot_2',
      at: soon(3_600_000),
      zone: 'UTC',
      mode: 'hand_off',
    });

    const report = await pressroom.queue.publishUntilEmpty();
    expect(report).toMatchObject({ published: 3, failed: 0 });
    const local = Object.fromEntries(call(pressroom, 'listPosts').map((post) => [post.text, post]));
    expect(local.Now?.status).toBe('published');
    expect(local.Later?.status).toBe('published');
    expect(local['Handed off']?.status).toBe('handed_off');
    expect((local.Later?.publishedAt ?? 0) >= (later.scheduledAt ?? Infinity)).toBe(true);

    const remote = await remotePosts(platform);
    const handed = remote.find((post) => post.id === local['Handed off']?.remoteId);
    expect(handed).toMatchObject({
      status: 'scheduled',
      scheduled_at: new Date(handOff.scheduledAt ?? 0).toISOString(),
    });
    expect(remote.filter((post) => post.text === 'Now')).toHaveLength(1);
    expect(now.id).toBeGreaterThan(0);
  });

  it('fails an invalid post with the server’s field errors, and does not retry it', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { pressroom } = pressroomOn(platform);
    call(pressroom, 'addPost', { text: 'Nowhere', botId: 'bot_999', mode: 'publish_now' });
    const report = await call(pressroom, 'publishDue');
    expect(report).toMatchObject({ published: 0, failed: 1 });
    const [item] = pressroom.store.outbox.list('failed');
    expect(item?.fieldErrors).toEqual([{ field: 'bot_id', message: 'no bot with id "bot_999"' }]);
    expect(call(pressroom, 'listPosts')[0]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('no bot with id'),
    });
  });

  it('pauses the whole queue when the token is refused, keeping every item', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { pressroom, events } = pressroomOn(platform);
    for (let i = 0; i < 3; i++)
      call(pressroom, 'addPost', { text: `Post ${i}`, botId: 'bot_1', mode: 'publish_now' });
    await platform.admin('POST', '/tokens/revoke', { token: platform.server.token });
    await call(pressroom, 'publishDue');
    expect(events.some((event) => event.type === 'paused')).toBe(true);
    const status = call(pressroom, 'status');
    expect(status.paused).toMatch(/refused the API token \(401\)/);
    expect(status.outbox.failed).toBe(0);
    expect(status.outbox.queued + status.outbox.retrying).toBe(3);
    // Requests already under way when the first 401 came back may answer too; no new ones go.
    expect(status.requests).toBeLessThanOrEqual(3);
    await call(pressroom, 'publishDue');
    expect(call(pressroom, 'status').requests).toBe(status.requests);
    // The user's own pause and resume.
    call(pressroom, 'pauseQueue');
    expect(call(pressroom, 'status').paused).toBe('Paused by you');
    call(pressroom, 'resumeQueue');
    expect(call(pressroom, 'status').paused).toBeNull();
  });

  it('takes a SKU that exists as published with the existing id', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { pressroom } = pressroomOn(platform);
    const product = pressroom.store.products.create({
      sku: 'BK-001',
      name: 'Dup',
      description: null,
      priceMinor: 100,
      currency: 'EUR',
      stock: null,
      imageUrl: null,
    });
    pressroom.store.outbox.enqueue({
      kind: 'create_product',
      productId: product.id,
      priority: 1,
      dueAt: 0,
    });
    expect(await call(pressroom, 'publishDue')).toMatchObject({ published: 1 });
    expect(pressroom.store.products.require(product.id)).toMatchObject({
      status: 'published',
      remoteId: 'prod_1',
    });
  });

  it('publishes exactly once when answers are lost after the write committed', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
    // A platform that ignores Idempotency-Key: only the lookup before resending prevents copies.
    await platform.admin('PUT', '/faults', {
      drop_after_commit_rate: 0.5,
      ignore_idempotency: true,
    });
    const { pressroom } = pressroomOn(platform, { plan: 'enterprise' });
    for (let i = 0; i < 30; i++)
      call(pressroom, 'addPost', {
        text: `Exactly once ${i}`,
        botId: 'bot_1',
        mode: 'publish_now',
      });
    // Real backoff would make the test slow: retry at once, the reconciliation is what matters.
    for (let pass = 0; pass < 50 && call(pressroom, 'status').outbox.done < 30; pass++) {
      for (const item of pressroom.store.outbox.list('retrying'))
        pressroom.store.outbox.retry(item.id, 1);
      await call(pressroom, 'publishDue');
    }
    expect(call(pressroom, 'status').outbox).toMatchObject({ done: 30, failed: 0 });
    expect(platform.server.stats.droppedAfterCommit).toBeGreaterThan(0);
    const remote = (await remotePosts(platform)).filter((post) =>
      post.text.startsWith('Exactly once'),
    );
    expect(remote).toHaveLength(30);
    expect(new Set(remote.map((post) => post.text)).size).toBe(30);
    const local = call(pressroom, 'listPosts');
    expect(local.every((post) => post.status === 'published' && post.remoteId !== null)).toBe(true);
  });

  it.each(ODD_ANSWERS)(
    'publishes exactly once when committed writes are answered oddly (%s), through the user’s Retry',
    async (odd) => {
      const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
      await platform.admin('PUT', '/faults', {
        odd_answer_rate: 0.5,
        odd_answer: odd,
        ignore_idempotency: true,
      });
      const { pressroom } = pressroomOn(platform, {
        plan: 'enterprise',
        retryRules: { baseMs: 1, capMs: 5, maxAttempts: 4 },
      });
      for (let i = 0; i < 8; i++)
        call(pressroom, 'addPost', {
          text: `Odd ${odd} ${i}`,
          botId: 'bot_1',
          mode: 'publish_now',
        });
      await pressroom.queue.publishUntilEmpty();
      // As a user would: Retry whatever shows failed, then publish again.
      for (const item of pressroom.store.outbox.list('failed'))
        call(pressroom, 'retryItem', { id: item.id });
      await pressroom.queue.publishUntilEmpty();
      expect(platform.server.stats.oddAfterCommit).toBeGreaterThan(0);
      const remote = (await remotePosts(platform)).filter((post) =>
        post.text.startsWith(`Odd ${odd} `),
      );
      expect(remote.map((post) => post.text).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `Odd ${odd} ${i}`).sort(),
      );
      expect(call(pressroom, 'status').outbox).toMatchObject({ done: 8, failed: 0 });
      const linked = new Set(call(pressroom, 'listPosts').map((post) => post.remoteId));
      expect(linked).toEqual(new Set(remote.map((post) => post.id)));
      pressroom.close();
    },
  );

  it('looks an unknown outcome up on every page, where the platform ignores the reference filter', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
    // 250 older posts of the same bot, someone else's: ours lands on the second page, oldest first.
    for (let i = 0; i < 250; i++)
      platform.server.store.posts.createPost(platform.server.accountId, {
        botId: 1,
        text: `Someone else's ${i}`,
        mediaUrls: [],
        scheduledAt: null,
        clientReference: `other-${i}`,
      });
    await platform.admin('PUT', '/faults', {
      ignore_idempotency: true,
      ignore_reference_filter: true,
      drop_after_commit_rate: 1,
    });
    const { pressroom } = pressroomOn(platform, { plan: 'enterprise', retryRules: FAST_RETRY });
    call(pressroom, 'addPost', { text: 'Found on page two', botId: 'bot_1', mode: 'publish_now' });
    // Every answer to a write is lost: only the lookups can tell the post went out.
    expect(await pressroom.queue.publishUntilEmpty()).toMatchObject({ published: 1, failed: 0 });
    expect(platform.server.stats.droppedAfterCommit).toBeGreaterThan(0);
    const remote = (await remotePosts(platform)).filter(
      (post) => post.text === 'Found on page two',
    );
    expect(remote).toHaveLength(1);
    expect(call(pressroom, 'listPosts')[0]?.remoteId).toBe(remote[0]?.id);
  });

  it('never takes a deliberately repeated post whose request got no answer for its first copy', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    // The client_reference filter is ignored, so the lookup sees the first copy too.
    await platform.admin('PUT', '/faults', { ignore_reference_filter: true });
    let loseNextWrite = false;
    // The second copy's first request never reaches the platform (a timeout on the way).
    const lossy: typeof fetch = async (input, init) => {
      if (loseNextWrite && init?.method === 'POST') {
        loseNextWrite = false;
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }),
        });
      }
      return fetch(input, init);
    };
    const { pressroom } = pressroomOn(platform, { fetch: lossy, retryRules: FAST_RETRY });
    call(pressroom, 'addPost', { text: 'Twice on purpose', botId: 'bot_1', mode: 'publish_now' });
    await pressroom.queue.publishUntilEmpty();
    loseNextWrite = true;
    call(pressroom, 'addPost', {
      text: 'Twice on purpose',
      botId: 'bot_1',
      mode: 'publish_now',
      allowDuplicate: true,
    });
    await pressroom.queue.publishUntilEmpty();
    const remote = (await remotePosts(platform)).filter((post) => post.text === 'Twice on purpose');
    expect(remote).toHaveLength(2);
    expect(new Set(call(pressroom, 'listPosts').map((post) => post.remoteId))).toEqual(
      new Set(remote.map((post) => post.id)),
    );
  });

  describe('an unknown outcome is never forgotten', () => {
    /** A post whose only answer was lost after the platform committed it, on a platform without keys. */
    async function lostAnswer(rules = { baseMs: 1, capMs: 5, maxAttempts: 1 }) {
      const platform = await startTestPlatform({ seed: 'demo' });
      await platform.admin('PUT', '/faults', {
        drop_after_commit_rate: 1,
        ignore_idempotency: true,
      });
      const { pressroom } = pressroomOn(platform, { retryRules: rules });
      const post = call(pressroom, 'addPost', {
        text: 'Went out once',
        botId: 'bot_1',
        mode: 'publish_now',
      });
      await call(pressroom, 'publishDue');
      await platform.admin('PUT', '/faults', { drop_after_commit_rate: 0 });
      const copies = async () =>
        (await remotePosts(platform)).filter((remote) => remote.text === 'Went out once').length;
      return { platform, pressroom, post, copies };
    }

    it('through giving up and the user’s Retry', async () => {
      const { pressroom, copies } = await lostAnswer();
      const [failed] = pressroom.store.outbox.list('failed');
      expect(failed?.lastError).toMatch(/Gave up after 1 attempts/);
      call(pressroom, 'retryItem', { id: failed?.id ?? 0 });
      await pressroom.queue.publishUntilEmpty();
      expect(await copies()).toBe(1);
      expect(call(pressroom, 'status').outbox).toMatchObject({ done: 1, failed: 0 });
    });

    it('through cancel and reschedule', async () => {
      const { pressroom, post, copies } = await lostAnswer({
        baseMs: 60_000,
        capMs: 60_000,
        maxAttempts: 8,
      });
      const [retrying] = pressroom.store.outbox.list('retrying');
      expect(retrying?.outcomeUnknown).toBe(true);
      call(pressroom, 'cancelItem', { id: retrying?.id ?? 0 });
      call(pressroom, 'updatePost', { id: post.id, at: soon(50), zone: 'UTC' });
      call(pressroom, 'queuePost', { id: post.id, mode: 'schedule' });
      await pressroom.queue.publishUntilEmpty();
      expect(await copies()).toBe(1);
      expect(pressroom.store.posts.require(post.id)).toMatchObject({ status: 'published' });
    });

    it('and a sync that finds the post settles its item, so it is never sent again', async () => {
      const { pressroom, post, copies } = await lostAnswer();
      expect(call(pressroom, 'status').outbox.failed).toBe(1);
      await call(pressroom, 'sync');
      expect(call(pressroom, 'status').outbox).toMatchObject({ done: 1, failed: 0 });
      expect(pressroom.store.posts.require(post.id)).toMatchObject({ status: 'published' });
      expect(await copies()).toBe(1);
    });
  });

  it('does not send an item rescheduled while it waited for rate-limit budget', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'free', windowMs: 400 });
    const { pressroom } = pressroomOn(platform, { windowMs: 400 });
    // A request is in flight before any rate-limit header was seen: the governor lets no second
    // one go yet (slow start), so the next request waits for budget.
    const inFlight = await pressroom.governor.acquire(PRIORITY.sync);
    const post = call(pressroom, 'addPost', {
      text: 'Next week',
      botId: 'bot_1',
      at: soon(100),
      zone: 'UTC',
    });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const pass = call(pressroom, 'publishDue');
    expect(pressroom.governor.state().waiting).toBe(1);
    call(pressroom, 'updatePost', { id: post.id, at: soon(7 * 86_400_000), zone: 'UTC' });
    inFlight();
    await pass;
    expect(pressroom.store.posts.require(post.id).status).toBe('scheduled');
    expect((await remotePosts(platform)).some((remote) => remote.text === 'Next week')).toBe(false);
  });

  it('a user’s pause stops publishing only: sync and AI assist still go', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { pressroom } = pressroomOn(platform);
    call(pressroom, 'addPost', { text: 'Held', botId: 'bot_1', mode: 'publish_now' });
    call(pressroom, 'pauseQueue');
    const within = <T>(work: Promise<T>) =>
      Promise.race([
        work,
        new Promise<never>((_resolve, reject) =>
          setTimeout(() => reject(new Error('still waiting after 3 s')), 3_000),
        ),
      ]);
    await within(call(pressroom, 'sync'));
    expect(
      (await within(call(pressroom, 'aiAssist', { task: 'shorten', text: 'A long text' }))).text,
    ).not.toBe('');
    expect(await call(pressroom, 'publishDue')).toMatchObject({ published: 0 });
    expect(pressroom.store.outbox.list('queued')).toHaveLength(1);
  });

  it('marks a post missed that was backing off after a 429 when the computer slept', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    let offset = 0;
    let limited = true;
    // The platform's first answer to the post is a 429 asking to wait a minute.
    const once429: typeof fetch = async (input, init) => {
      if (limited && init?.method === 'POST') {
        limited = false;
        return new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'wait' } }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '60' },
        });
      }
      return fetch(input, init);
    };
    const { pressroom, events } = pressroomOn(platform, {
      now: () => Date.now() + offset,
      fetch: once429,
      graceMs: 30 * 60_000,
    });
    const post = call(pressroom, 'addPost', {
      text: 'Backed off',
      botId: 'bot_1',
      at: soon(200),
      zone: 'UTC',
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await call(pressroom, 'publishDue')).toMatchObject({ retrying: 1 });
    offset = 3 * 3_600_000; // the laptop slept for three hours
    expect(await call(pressroom, 'publishDue')).toMatchObject({ missed: 1, published: 0 });
    expect(events.some((event) => event.type === 'missed')).toBe(true);
    expect(pressroom.store.posts.require(post.id).status).toBe('missed');
  });

  it('lets one process publish a workspace file: another opening it neither resets nor sends', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    await platform.admin('PUT', '/faults', { latency_ms: 300, ignore_idempotency: true });
    const dbFile = join(mkdtempSync(join(tmpdir(), 'pressroom-two-')), 'workspace.sqlite');
    const first = pressroomOn(platform, { dbFile }).pressroom;
    call(first, 'addPost', { text: 'One publisher', botId: 'bot_1', mode: 'publish_now' });
    const publishing = call(first, 'publishDue');
    await new Promise((resolve) => setTimeout(resolve, 100)); // its request is under way
    const { pressroom: second, events } = pressroomOn(platform, { dbFile });
    expect(await call(second, 'publishDue')).toMatchObject({ published: 0 });
    expect(events).toContainEqual({ type: 'paused', reason: call(second, 'status').paused });
    expect(call(second, 'status').paused).toMatch(
      /^Another Pressroom process \(\d+ on .+\) publishes this workspace; this one does not$/,
    );
    expect(await publishing).toMatchObject({ published: 1 });
    const copies = (await remotePosts(platform)).filter((post) => post.text === 'One publisher');
    expect(copies).toHaveLength(1);
    // Once the first has closed, the second takes over.
    first.close();
    call(second, 'addPost', { text: 'Taken over', botId: 'bot_1', mode: 'publish_now' });
    expect(await call(second, 'publishDue')).toMatchObject({ published: 1 });
    expect(call(second, 'status').paused).toBeNull();
    second.close();
  });

  it('rides out a 429 storm on a short Free window without failing or duplicating anything', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'free', windowMs: 1_000 });
    // Another client spends most of each window, so the platform answers 429 now and then.
    const { pressroom } = pressroomOn(platform, { windowMs: 1_000 });
    const noisy = platform.clientWith(platform.server.token);
    // Bursts of 40 at once, so the platform's count jumps between the engine's observations.
    const storm = (async () => {
      for (let burst = 0; burst < 3; burst++) {
        await Promise.all(
          Array.from({ length: 40 }, () => noisy.listBots().catch(() => undefined)),
        );
      }
    })();
    for (let i = 0; i < 90; i++)
      call(pressroom, 'addPost', { text: `Storm ${i}`, botId: 'bot_1', mode: 'publish_now' });
    const report = await pressroom.queue.publishUntilEmpty();
    await storm;
    expect(report.failed).toBe(0);
    expect(platform.server.stats.rateLimited).toBeGreaterThan(0); // the storm was real
    const remote = (await remotePosts(platform)).filter((post) => post.text.startsWith('Storm'));
    expect(remote).toHaveLength(90);
  });

  it('marks posts found long after their time as missed, and publishes those within the grace period', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    let offset = 0;
    const { pressroom, events } = pressroomOn(platform, {
      now: () => Date.now() + offset,
      graceMs: 30 * 60_000,
    });
    const slightlyLate = call(pressroom, 'addPost', {
      text: 'Slightly late',
      botId: 'bot_1',
      at: soon(20 * 60_000),
      zone: 'UTC',
    });
    const veryLate = call(pressroom, 'addPost', {
      text: 'Very late',
      botId: 'bot_1',
      at: soon(10_000),
      zone: 'UTC',
    });
    offset = 45 * 60_000; // the laptop slept: 25 min past "slightly late", 45 past "very late"
    const report = await call(pressroom, 'publishDue');
    expect(report).toMatchObject({ missed: 1, published: 1 });
    expect(
      events
        .filter((event) => event.type === 'missed')
        .map((event) => event.type === 'missed' && event.item.postId),
    ).toEqual([veryLate.id]);
    expect(pressroom.store.posts.require(veryLate.id)).toMatchObject({
      status: 'missed',
      error: expect.stringContaining('Missed: found 45 min after its time'),
    });
    expect(pressroom.store.posts.require(slightlyLate.id).status).toBe('published');
    // Publish now: the user's retry sends it.
    const [missedItem] = pressroom.store.outbox.list('failed');
    call(pressroom, 'retryItem', { id: missedItem?.id ?? 0 });
    expect(await call(pressroom, 'publishDue')).toMatchObject({ published: 1 });
  });
});
