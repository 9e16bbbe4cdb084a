// Sync and publishing against the reference server speaking other platforms' ways: every list
// envelope and paging style with pages capped at 3, ids as numbers (past 2^53 too), and times in
// other formats. Each checks that every item arrived, exactly, and that a post goes out.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { Conventions } from '../../main/reference-server/conventions';
import type { TestPlatform } from '../support/platform';
import { platformWith250Orders, rejectionOf, startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

const CACHED = { bots: 3, orders: 80, subscribers: 300 };
const SEEDED = { ...CACHED, posts: 60, products: 40 };

function connect(platform: TestPlatform, extra: { fetch?: typeof fetch } = {}) {
  return testWorkspace({
    platform,
    plan: 'enterprise',
    ...extra,
  });
}

/** The id the server sends for one of its own (prefixed) ids, under an id style. */
function wireId(style: Conventions['ids'], id: string): string {
  const [kind = '', row = '0'] = id.split('_');
  if (style === 'numeric') return row;
  if (style === 'big') {
    const small = ['bot', 'sub'].includes(kind);
    return String(BigInt(row) + (small ? 2n ** 53n : 12345678901234567889n));
  }
  return id;
}

/** The instant a time format can carry: whole seconds for some. */
function carried(format: Conventions['times'], iso: string): number {
  const ms = Date.parse(iso);
  return ['rfc2822', 'epoch-s', 'epoch-string'].includes(format)
    ? Math.floor(ms / 1000) * 1000
    : ms;
}

/** Syncs, then checks the cache holds exactly the server's bots and orders, then publishes. */
async function syncsEverything(conventions: Partial<Conventions>) {
  const platform = await startTestPlatform({
    seed: 'demo',
    plan: 'enterprise',
    conventions: { pageCap: 3, ...conventions },
  });
  const pressroom = connect(platform);
  const report = await call(pressroom, 'sync');
  expect(report).toEqual(SEEDED);

  const ids = conventions.ids ?? 'prefixed';
  const times = conventions.times ?? 'iso';
  const { store, accountId } = platform.server;
  const all = { page: 1, perPage: 10_000 };
  const orders = store.orders.listOrders(accountId, {}, all).data;
  expect(
    pressroom.store.cache
      .orders({ offset: 0, limit: 10_000 })
      .rows.map((order) => [order.id, order.totalMinor, order.createdAt])
      .sort(),
  ).toEqual(
    orders
      .map((order) => [
        wireId(ids, order.id),
        Math.round(Number(order.total) * 100),
        carried(times, order.created_at),
      ])
      .sort(),
  );
  const bots = store.bots.listBots(accountId, {}, all).data;
  expect(
    pressroom.store.cache
      .bots()
      .map((bot) => [bot.id, bot.name, bot.status])
      .sort(),
  ).toEqual(bots.map((bot) => [wireId(ids, bot.id), bot.name, bot.status]).sort());

  const botId = wireId(ids, bots[0]?.id ?? '');
  const post = call(pressroom, 'addPost', {
    text: 'Across conventions',
    botId,
    mode: 'publish_now',
  });
  await call(pressroom, 'publishDue');
  const published = pressroom.store.posts.require(post.id);
  expect(published.status).toBe('published');
  const onServer = store.posts
    .listPosts(accountId, {}, all)
    .data.find((candidate) => candidate.text === 'Across conventions');
  expect(published.remoteId).toBe(wireId(ids, onServer?.id ?? ''));
}

describe('sync against other platforms’ conventions', () => {
  it.each<[string, Partial<Conventions>]>([
    ['a bare array', { envelope: 'bare' }],
    ['{data}', { envelope: 'data' }],
    ['{items}', { envelope: 'items' }],
    ['{results, next, count}', { envelope: 'results', paging: 'next-url' }],
    ['{data, links: {next}}', { envelope: 'data', paging: 'next-url' }],
    ['{data, meta: {current_page, last_page}}', { envelope: 'data', paging: 'last-page' }],
    [
      'a cursor {data, next_cursor, has_more}, page ignored',
      { envelope: 'data', paging: 'cursor' },
    ],
    ['a Link rel="next" header', { envelope: 'bare', paging: 'link' }],
    ['JSON:API resources with links.next', { envelope: 'jsonapi', paging: 'next-url' }],
  ])('reads every item of %s, pages capped at 3', async (_name, conventions) => {
    await syncsEverything(conventions);
  });

  it.each<[string, Partial<Conventions>]>([
    ['numeric ids', { ids: 'numeric' }],
    ['ids past 2^53 as JSON numbers', { ids: 'big' }],
    ['epoch seconds', { times: 'epoch-s' }],
    ['epoch milliseconds', { times: 'epoch-ms' }],
    ['epoch seconds as digit strings', { times: 'epoch-string' }],
  ])('keeps %s exact', async (_name, conventions) => {
    await syncsEverything({ pageCap: 50, ...conventions });
  });

  // A time without a zone is UTC, whatever zone this computer is in.
  it.each<[string, string, Conventions['times']]>([
    ['zone-less ISO', 'America/New_York', 'zoneless'],
    ['zone-less ISO', 'Asia/Tokyo', 'zoneless'],
    ['SQL', 'America/New_York', 'sql'],
    ['SQL', 'Asia/Tokyo', 'sql'],
    ['RFC 2822 zone-less', 'America/New_York', 'rfc2822'],
    ['RFC 2822 zone-less', 'Asia/Tokyo', 'rfc2822'],
  ])('keeps %s times exact on a computer in %s', async (_name, zone, times) => {
    await inZone(zone, () => syncsEverything({ pageCap: 50, times }));
  });
});

/** Runs `work` with this process's local time zone set to `zone`, then puts the old one back. */
async function inZone(zone: string, work: () => Promise<void>): Promise<void> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    // The zone really changed what Date reads as local time.
    expect(new Date('2026-11-20T15:04:00').toISOString()).not.toBe('2026-11-20T15:04:00.000Z');
    await work();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

describe('errors in JSON:API', () => {
  it('gives the detail as the message and the pointer as the field, and the existing id', async () => {
    const platform = await startTestPlatform({
      seed: 'demo',
      conventions: { envelope: 'jsonapi' },
    });
    const refused = await rejectionOf(platform.client.createPost({ bot_id: 'bot_1', text: '' }));
    expect(refused).toMatchObject({
      kind: 'validation',
      code: 'validation_failed',
      fieldErrors: [{ field: 'text', message: expect.any(String) }],
    });
    const [product] = (await platform.client.listProducts({ per_page: 1 })).items;
    const duplicate = await rejectionOf(
      platform.client.createProduct({
        sku: product?.sku ?? '',
        name: 'Again',
        price: '1.00',
        currency: 'EUR',
      }),
    );
    expect(duplicate).toMatchObject({ kind: 'conflict', existingId: product?.id });
  });
});

describe('pruning', () => {
  it('reads 250 orders capped at 100 a page as a bare array, and prunes only what went', async () => {
    const platform = await platformWith250Orders({ envelope: 'bare', pageCap: 100 });
    const pressroom = connect(platform);
    expect((await call(pressroom, 'sync')).orders).toBe(250);
    expect(pressroom.store.cache.counts().orders).toBe(250);
  });

  it('writes an order listed twice, on one page and again on a later one, once', async () => {
    // A read's repeats are told by the rows it wrote (seen_in), not by ids held in memory.
    const platform = await startTestPlatform({
      seed: 'demo',
      plan: 'enterprise',
      conventions: { envelope: 'bare', pageCap: 30 },
    });
    let firstOfPageOne: unknown = null;
    const repeating = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      const url = new URL(String(input));
      if (!url.pathname.endsWith('/orders')) return response;
      const page = (await response.json()) as unknown[];
      const asked = url.searchParams.get('page') ?? '1';
      if (asked === '1') firstOfPageOne = page[0];
      if (asked === '2') page.push(page[0], firstOfPageOne);
      return new Response(JSON.stringify(page), {
        status: response.status,
        headers: response.headers,
      });
    }) as typeof fetch;
    const pressroom = connect(platform, { fetch: repeating });
    for (let sync = 0; sync < 3; sync++) {
      expect((await call(pressroom, 'sync')).orders).toBe(CACHED.orders);
      expect(pressroom.store.cache.counts().orders).toBe(CACHED.orders);
    }
  });

  it('never deletes a cached row after a list that was not read to its end', async () => {
    const platform = await startTestPlatform({
      seed: 'demo',
      plan: 'enterprise',
      conventions: { envelope: 'bare', pageCap: 3 },
    });
    const dbFile = join(tmpdir(), `pressroom-prune-${process.pid}-${Date.now()}.db`);
    const first = testWorkspace({
      dbFile,
      platform,
      plan: 'enterprise',
    });
    await call(first, 'sync');
    expect(first.store.cache.counts()).toEqual(CACHED);
    first.close();

    // The same server behind a proxy that always answers the first page, whatever page is asked.
    const firstPageOnly = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      url.searchParams.delete('page');
      return fetch(url, init);
    }) as typeof fetch;
    const second = testWorkspace({
      dbFile,
      platform,
      plan: 'enterprise',
      fetch: firstPageOnly,
    });
    const report = await call(second, 'sync');
    expect(report.orders).toEqual({
      fetched: 3,
      notPruned: expect.stringContaining('page 2 repeats items already read'),
    });
    expect(second.store.cache.counts()).toEqual(CACHED);
    expect(call(second, 'status').sync.orders?.problem).toContain('not pruned');
    second.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbFile}${suffix}`, { force: true });
  });

  it('reports an item with an impossible time, reads the rest, and deletes nothing', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
    // The same server behind a proxy that breaks the first order's time.
    const oneBadTime = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/orders')) return response;
      const text = (await response.text()).replace(
        /"created_at":"[^"]*"/,
        '"created_at":"2026-02-30T10:00:00Z"',
      );
      return new Response(text, { status: response.status, headers: response.headers });
    }) as typeof fetch;
    const pressroom = connect(platform, { fetch: oneBadTime });
    const report = await call(pressroom, 'sync');
    expect(report.orders).toEqual({
      fetched: 79,
      notPruned:
        '1 item(s) could not be read: item 0 (id ord_1): created_at: "2026-02-30T10:00:00Z" is not a possible date-time',
    });
    expect(report.bots).toBe(3);
    expect(pressroom.store.cache.counts().orders).toBe(79);
  });
});
