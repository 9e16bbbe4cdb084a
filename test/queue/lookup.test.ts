// The lookup after a lost answer, against servers that follow the spec to the letter (no client
// reference, no Idempotency-Key) and read it their own way: each post exactly once, and never a
// resend on a lookup that could not be sure (issue 26, cases 1, 2 and 5).
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { WorkspaceConfig } from '../../main/core/workspace';
import type { Quirks } from '../../main/reference-server/quirks';
import type { PlatformServerOptions } from '../../main/reference-server/server';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

const FAST_RETRY = { baseMs: 1, capMs: 5, maxAttempts: 5 };

/** A platform that keeps no client reference and ignores Idempotency-Key, with `quirks` besides. */
async function specLiteral(quirks: Partial<Quirks> = {}, options: PlatformServerOptions = {}) {
  return startTestPlatform({
    seed: 'demo',
    plan: 'enterprise',
    quirks: { specLiteral: true, ...quirks },
    ...options,
  });
}

function pressroomOn(platform: TestPlatform, extra: Partial<WorkspaceConfig> = {}) {
  return testWorkspace({
    platform,
    plan: 'enterprise',
    timeoutMs: 2_000,
    retryRules: FAST_RETRY,
    ...extra,
  });
}

/** The server's posts whose text starts with `prefix`, read from its store (no quirk applies). */
function serverPosts(platform: TestPlatform, prefix: string) {
  return platform.server.store.posts
    .listPosts(platform.server.accountId, {}, { page: 1, perPage: 100_000 })
    .data.filter((post) => post.text.trimStart().startsWith(prefix.trim()));
}

/** `count` posts of someone else's on bot_1, made before ours. */
function olderPosts(platform: TestPlatform, count: number) {
  for (let i = 0; i < count; i++)
    platform.server.store.posts.createPost(platform.server.accountId, {
      botId: 1,
      text: `Someone else's ${i}`,
      mediaUrls: [],
      scheduledAt: null,
      clientReference: null,
    });
}

describe('the lookup after a lost answer', () => {
  it.each<[string, Partial<Quirks>, PlatformServerOptions]>([
    ['a server clock 120 s behind', {}, { clockOffsetMs: -120_000 }],
    ['camelCase fields (botId, createdAt)', { fieldCase: 'camel' }, {}],
    ['text trimmed and CRLF turned into LF', { trimsText: true }, {}],
    ['no created_at', { noCreatedAt: true }, {}],
  ])(
    'finds each post again after a 502 after commit, with %s: every post once',
    async (_, quirks, options) => {
      const platform = await specLiteral(quirks, options);
      await platform.admin('PUT', '/faults', { odd_answer_rate: 1, odd_answer: 'html_502' });
      const pressroom = pressroomOn(platform);
      // Measure the clock as any earlier request would have.
      await call(pressroom, 'sync');
      for (let i = 0; i < 4; i++)
        call(pressroom, 'addPost', {
          text: `  Lost answer ${i}\r\nsecond line  `,
          botId: 'bot_1',
          mode: 'publish_now',
        });
      await pressroom.queue.publishUntilEmpty();
      expect(platform.server.stats.oddAfterCommit).toBeGreaterThanOrEqual(4);
      expect(serverPosts(platform, 'Lost answer')).toHaveLength(4);
      expect(call(pressroom, 'status').outbox).toMatchObject({ done: 4, failed: 0 });
      pressroom.close();
    },
  );

  /**
   * A post published once, answered with `oddAnswer`, on a spec-literal server that ignores the
   * page asked for, behind 250 older posts: no lookup can read its list to the end.
   */
  async function publishedBehindPageOne(oddAnswer: string, text: string) {
    const platform = await specLiteral({ ignoresPage: true });
    olderPosts(platform, 250);
    await platform.admin('PUT', '/faults', { odd_answer_rate: 1, odd_answer: oddAnswer });
    const pressroom = pressroomOn(platform);
    call(pressroom, 'addPost', { text, botId: 'bot_1', mode: 'publish_now' });
    await pressroom.queue.publishUntilEmpty();
    return { platform, pressroom };
  }

  it('never resends on a lookup that could not read its list to the end: it waits for the user', async () => {
    const { platform, pressroom } = await publishedBehindPageOne('html_502', 'Behind page one');
    expect(serverPosts(platform, 'Behind page one')).toHaveLength(1);
    const [waiting] = pressroom.store.outbox.list('failed');
    expect(waiting?.outcomeUnknown).toBe(true);
    expect(waiting?.lastError).toMatch(/not sure whether it was published/i);
    expect(waiting?.lastError).toMatch(/not read to its end/);
    // The user's Retry looks again, and is no surer: still one copy.
    call(pressroom, 'retryItem', { id: waiting?.id ?? 0 });
    await pressroom.queue.publishUntilEmpty();
    expect(serverPosts(platform, 'Behind page one')).toHaveLength(1);
    expect(call(pressroom, 'status').outbox).toMatchObject({ done: 0, failed: 1 });
    // The user looked: it is there.
    call(pressroom, 'markItemPublished', { id: waiting?.id ?? 0 });
    expect(call(pressroom, 'listPosts')[0]).toMatchObject({ status: 'published' });
    expect(serverPosts(platform, 'Behind page one')).toHaveLength(1);
  });

  it('takes a 201 whose connection broke mid-body as published, where a lookup could not be sure', async () => {
    const { platform, pressroom } = await publishedBehindPageOne('cut_off', 'Answer cut off');
    expect(platform.server.stats.oddAfterCommit).toBe(1);
    expect(serverPosts(platform, 'Answer cut off')).toHaveLength(1);
    // The 201 said it happened: nothing waits for the user, nothing is sent again.
    expect(call(pressroom, 'status').outbox).toMatchObject({ done: 1, failed: 0 });
    expect(call(pressroom, 'listPosts')[0]).toMatchObject({ status: 'published' });
    pressroom.close();
  });

  it('reads its pages through the rate governor, newest first: no 429 and every post once', async () => {
    const platform = await specLiteral(
      {},
      { rateLimit: 40, windowMs: 3_000, conventions: { pageCap: 100 } },
    );
    olderPosts(platform, 2_000);
    await platform.admin('PUT', '/faults', { odd_answer_rate: 1, odd_answer: 'html_502' });
    const pressroom = pressroomOn(platform, { windowMs: 3_000 });
    for (let i = 0; i < 12; i++)
      call(pressroom, 'addPost', { text: `Governed ${i}`, botId: 'bot_1', mode: 'publish_now' });
    await pressroom.queue.publishUntilEmpty();
    expect(serverPosts(platform, 'Governed')).toHaveLength(12);
    expect(call(pressroom, 'status').outbox).toMatchObject({ done: 12, failed: 0 });
    expect(platform.server.stats.rateLimited).toBeLessThanOrEqual(1);
    pressroom.close();
  }, 30_000);

  describe('a post the platform took without telling its id', () => {
    /** Posts sent with every answer cut off mid-body, and their id lookups failing with a 503. */
    async function sentWithoutId(platform: TestPlatform, texts: string[]) {
      await platform.admin('PUT', '/faults', { odd_answer_rate: 1, odd_answer: 'cut_off' });
      const lookups = { fail: true };
      const flaky: typeof fetch = async (input, init) => {
        const list = (init?.method ?? 'GET') === 'GET' && String(input).includes('/posts');
        if (list && lookups.fail) return new Response('{}', { status: 503 });
        return fetch(input, init);
      };
      const pressroom = pressroomOn(platform, { fetch: flaky });
      for (const text of texts)
        call(pressroom, 'addPost', { text, botId: 'bot_1', mode: 'publish_now' });
      await pressroom.queue.publishUntilEmpty();
      lookups.fail = false;
      await platform.admin('PUT', '/faults', { odd_answer_rate: 0 });
      return pressroom;
    }

    const mine = (pressroom: ReturnType<typeof pressroomOn>, text: string) =>
      call(pressroom, 'listPosts')
        .filter((post) => post.text === text)
        .map(({ origin, remoteId, status }) => ({ origin, remoteId, status }));

    it('is linked by the next sync: one post, not a second copy kept as someone else’s', async () => {
      const platform = await specLiteral();
      const pressroom = await sentWithoutId(platform, ['Id never heard']);
      expect(mine(pressroom, 'Id never heard')).toEqual([
        { origin: 'local', remoteId: null, status: 'published' },
      ]);
      await call(pressroom, 'sync');
      const [onServer] = serverPosts(platform, 'Id never heard');
      expect(mine(pressroom, 'Id never heard')).toEqual([
        { origin: 'local', remoteId: onServer?.id, status: 'published' },
      ]);
      expect(pressroom.store.outbox.list('done')[0]?.remoteId).toBe(onServer?.id);
      pressroom.close();
    });

    it('of two with the same text, each takes a post of its own', async () => {
      const platform = await specLiteral();
      const pressroom = await sentWithoutId(platform, ['Said twice', 'Said twice']);
      await call(pressroom, 'sync');
      const onServer = serverPosts(platform, 'Said twice').map((post) => post.id);
      expect(onServer).toHaveLength(2);
      const linked = mine(pressroom, 'Said twice');
      expect(linked.every((post) => post.origin === 'local')).toBe(true);
      expect(linked.map((post) => post.remoteId).sort()).toEqual([...onServer].sort());
      pressroom.close();
    });

    it('is never taken for an older post with the same text', async () => {
      const platform = await specLiteral();
      platform.server.store.posts.createPost(platform.server.accountId, {
        botId: 1,
        text: 'Same words',
        mediaUrls: [],
        scheduledAt: null,
        clientReference: null,
      });
      await platform.admin('POST', '/clock', { advance_ms: 60_000 });
      const pressroom = await sentWithoutId(platform, ['Same words']);
      await call(pressroom, 'sync');
      const [newer, older] = serverPosts(platform, 'Same words').sort(
        (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
      );
      expect(mine(pressroom, 'Same words')).toEqual(
        expect.arrayContaining([
          { origin: 'local', remoteId: newer?.id, status: 'published' },
          { origin: 'remote', remoteId: older?.id, status: 'published' },
        ]),
      );
      expect(mine(pressroom, 'Same words')).toHaveLength(2);
      pressroom.close();
    });
  });

  describe('a lookup that itself fails keeps the outcome unknown', () => {
    const failures: [string, () => Response][] = [
      [
        '429',
        () =>
          new Response('{"error":{"code":"rate_limited"}}', {
            status: 429,
            headers: { 'Retry-After': '0' },
          }),
      ],
      ['503', () => new Response('{"error":{"code":"unavailable"}}', { status: 503 })],
      [
        'a timeout',
        () => {
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }),
          });
        },
      ],
    ];
    it.each(failures)('(%s): the next attempt looks again instead of sending', async (_, fail) => {
      const platform = await specLiteral();
      // Every answer to a write is lost, and the first lookup after it fails too.
      await platform.admin('PUT', '/faults', { drop_after_commit_rate: 1 });
      let lookupsToFail = 1;
      const flaky: typeof fetch = async (input, init) => {
        const lookup = (init?.method ?? 'GET') === 'GET' && String(input).includes('/posts');
        if (lookup && lookupsToFail > 0) {
          lookupsToFail--;
          return fail();
        }
        return fetch(input, init);
      };
      const pressroom = pressroomOn(platform, { fetch: flaky });
      call(pressroom, 'addPost', { text: 'Looked up twice', botId: 'bot_1', mode: 'publish_now' });
      await pressroom.queue.publishUntilEmpty();
      expect(lookupsToFail).toBe(0);
      expect(serverPosts(platform, 'Looked up twice')).toHaveLength(1);
      expect(call(pressroom, 'status').outbox).toMatchObject({ done: 1, failed: 0 });
    });
  });
});
