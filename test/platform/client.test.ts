// The client against other readings of the spec, served by a fake fetch: envelopes, ids, money,
// error bodies, failures without an answer, and the token never leaking.
import { describe, expect, it } from 'vitest';
import { createPlatformClient, readWholeList } from '../../main/platform/client';
import type { Page, PlatformClientOptions } from '../../main/platform/client';
import type { PageRequest } from '../../main/platform/normalize';
import { PlatformError } from '../../main/platform/errors';
import { rejectionOf } from '../support/platform';

const TOKEN = 'pk_super-secret-token-1234';

interface Seen {
  url: URL;
  init: RequestInit;
}

/** A client whose fetch answers with `respond` and records every request. */
function fakeClient(
  respond: (url: URL, init: RequestInit) => Response | Promise<Response>,
  extra: Partial<PlatformClientOptions> = {},
) {
  const seen: Seen[] = [];
  const client = createPlatformClient({
    baseUrl: 'https://platform.example/api/v1/',
    token: TOKEN,
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      seen.push({ url, init: init ?? {} });
      return respond(url, init ?? {});
    }) as typeof fetch,
    ...extra,
  });
  return { client, seen };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(PlatformError);
  const platformError = error as PlatformError;
  // Whatever went wrong, the token is nowhere in what the error carries.
  expect(
    JSON.stringify({
      ...platformError,
      message: platformError.message,
      stack: platformError.stack,
    }),
  ).not.toContain(TOKEN);
  return platformError;
}

describe('requests', () => {
  it('sends the bearer token, JSON, the idempotency key and the query', async () => {
    const { client, seen } = fakeClient(() =>
      json({ id: 1, bot_id: 2, text: 'hi', status: 'published' }, 201),
    );
    await client.createPost({ bot_id: 'bot_2', text: 'hi' }, { idempotencyKey: 'key-9' });
    await client
      .listPosts({ status: 'scheduled', per_page: 10, bot_id: undefined })
      .catch(() => undefined);
    const [create, list] = seen;
    const headers = new Headers(create?.init.headers);
    expect(create?.url.href).toBe('https://platform.example/api/v1/posts');
    expect(create?.init.method).toBe('POST');
    expect(headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(headers.get('idempotency-key')).toBe('key-9');
    expect(headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(String(create?.init.body))).toEqual({ bot_id: 'bot_2', text: 'hi' });
    expect(list?.url.search).toBe('?status=scheduled&per_page=10');
  });

  it('escapes ids in paths', async () => {
    const { client, seen } = fakeClient(() => json({ id: 'a/b', name: 'x' }));
    await client.getBot('a/b?x');
    expect(seen[0]?.url.pathname).toBe('/api/v1/bots/a%2Fb%3Fx');
  });
});

describe('tolerant reading', () => {
  const post = {
    id: 7,
    bot_id: 3,
    text: 'Hello',
    status: 'published',
    extra_field: { nested: true },
  };

  it.each([
    ['a bare array', [post]],
    ['data', { data: [post] }],
    ['items', { items: [post], total: 1 }],
    ['results', { results: [post], has_more: false }],
  ])(
    'reads a list given as %s, with numeric ids as strings and unknown fields kept',
    async (_name, body) => {
      const { client } = fakeClient(() => json(body));
      const page = await client.listPosts();
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({
        id: '7',
        bot_id: '3',
        status: 'published',
        extra_field: { nested: true },
      });
      expect(page.next.kind).not.toBe('request');
    },
  );

  it('reads single objects bare or wrapped in data', async () => {
    const { client } = fakeClient(() => json({ data: { id: 5, name: 'Wrapped' } }));
    expect(await client.getBot('5')).toMatchObject({ id: '5', name: 'Wrapped' });
  });

  it('reads post status and text in other words', async () => {
    const { client } = fakeClient(() =>
      json([
        { id: 1, content: 'A', status: 'LIVE' },
        { id: 2, message: 'B', status: 'pending' },
        { id: 3, caption: 'C', status: 'weird', published_at: 1_795_359_600 },
        { id: 4, body: 'D', scheduled_at: '2026-12-01T10:00:00+01:00' },
      ]),
    );
    const { items } = await client.listPosts();
    expect(items.map((p) => [p.text, p.status])).toEqual([
      ['A', 'published'],
      ['B', 'scheduled'],
      ['C', 'published'],
      ['D', 'scheduled'],
    ]);
    expect(items[2]?.published_at).toBe('2026-11-22T15:00:00.000Z');
    expect(items[3]?.scheduled_at).toBe('2026-12-01T09:00:00.000Z');
  });

  it('reads money in every accepted form, exactly', async () => {
    const { client } = fakeClient(() =>
      json([
        { id: 1, sku: 'A', name: 'a', price: '19.9', currency: 'usd' },
        { id: 2, sku: 'B', name: 'b', price: 19.99, currency: 'USD' },
        { id: 3, sku: 'C', name: 'c', price_cents: 1999, currency: 'USD' },
        { id: 4, sku: 'D', name: 'd', price: { amount: '1299', currency: 'JPY' } },
        { id: 5, sku: 6, title: 'e', price: '1.250', currency: 'KWD' },
      ]),
    );
    const { items } = await client.listProducts();
    expect(items.map((p) => [p.sku, p.name, p.price, p.price_minor, p.currency])).toEqual([
      ['A', 'a', '19.90', 1990, 'USD'],
      ['B', 'b', '19.99', 1999, 'USD'],
      ['C', 'c', '19.99', 1999, 'USD'],
      ['D', 'd', '1299', 1299, 'JPY'],
      ['6', 'e', '1.250', 1250, 'KWD'],
    ]);
  });

  it('reads order totals and item prices in the order currency', async () => {
    const { client } = fakeClient(() =>
      json({
        data: [
          {
            id: 9,
            total: '7.50',
            currency: 'EUR',
            items: [{ product_id: 1, sku: 'A', name: 'a', quantity: 3, unit_price: 2.5 }],
          },
        ],
      }),
    );
    const [order] = (await client.listOrders()).items;
    expect(order).toMatchObject({ id: '9', total: '7.50', total_minor: 750, currency: 'EUR' });
    expect(order?.items[0]).toMatchObject({
      product_id: '1',
      unit_price: '2.50',
      unit_price_minor: 250,
    });
  });

  it('reads an OpenAI-style chat answer and a bare array of usage days', async () => {
    const { client } = fakeClient((url) =>
      url.pathname.endsWith('/chat')
        ? json({
            choices: [
              { message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'length' },
            ],
            usage: { input_tokens: 3, output_tokens: 4 },
          })
        : json([{ date: '2026-11-20', prompt_tokens: 5, completion_tokens: 6 }]),
    );
    const chat = await client.aiChat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(chat).toMatchObject({
      message: { content: 'Hi there' },
      finish_reason: 'length',
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
    const usage = await client.aiUsage();
    expect(usage.data[0]).toMatchObject({ date: '2026-11-20', total_tokens: 11, providers: [] });
  });

  it('reads tags given as objects, and a tag answer without a subscriber', async () => {
    const { client } = fakeClient((url) =>
      url.pathname.endsWith('/tags')
        ? new Response(null, { status: 204 })
        : json({ id: 1, name: 'Ana', tags: [{ name: 'vip' }, 'local'] }),
    );
    expect((await client.getSubscriber('1')).tags).toEqual(['vip', 'local']);
    expect(await client.addTag('1', 'vip')).toBeNull();
  });

  it('calls an unreadable success a bad response', async () => {
    for (const body of [
      '<html>oops</html>',
      JSON.stringify({ id: 1 }),
      JSON.stringify({ nothing: [] }),
    ]) {
      const { client } = fakeClient(() => new Response(body, { status: 200 }));
      const error = await failure(
        client.createProduct({ sku: 'A', name: 'a', price: '1', currency: 'USD' }),
      );
      expect(error).toMatchObject({ kind: 'bad_response', retryable: false, status: 200 });
    }
    const { client } = fakeClient(() => json({ nothing: [] }));
    expect((await failure(client.listBots())).serverMessage).toContain('not a list');
  });
});

describe('errors', () => {
  it.each([
    [401, 'auth', false],
    [403, 'forbidden', false],
    [404, 'not_found', false],
    [400, 'validation', false],
    [422, 'validation', false],
    [409, 'conflict', false],
    [429, 'rate_limited', true],
    [408, 'server', true],
    [500, 'server', true],
    [503, 'server', true],
  ] as const)('status %i is %s (retryable: %s)', async (status, kind, retryable) => {
    const { client } = fakeClient(() => json({ error: { code: 'x', message: 'said' } }, status));
    expect(await failure(client.listBots())).toMatchObject({
      status,
      kind,
      retryable,
      serverMessage: 'said',
    });
  });

  it.each([
    [
      'the documented body',
      {
        error: {
          code: 'validation_failed',
          message: 'bad',
          details: [{ field: 'price', message: 'too big' }],
        },
      },
    ],
    ['a string error', { error: 'bad', errors: [{ field: 'price', message: 'too big' }] }],
    ['a top-level message', { message: 'bad', errors: { price: ['too big'] } }],
  ])('reads %s', async (_name, body) => {
    const { client } = fakeClient(() => json(body, 422));
    const error = await failure(
      client.createProduct({ sku: 'A', name: 'a', price: '1', currency: 'USD' }),
    );
    expect(error.serverMessage).toBe('bad');
    expect(error.fieldErrors).toEqual([{ field: 'price', message: 'too big' }]);
    expect(error.message).toContain('POST /products: 422');
  });

  it('reads a plain-text or empty error body', async () => {
    const text = fakeClient(() => new Response('Bad Gateway from the proxy', { status: 502 }));
    expect((await failure(text.client.listBots())).serverMessage).toBe(
      'Bad Gateway from the proxy',
    );
    const empty = fakeClient(
      () => new Response(null, { status: 500, statusText: 'Internal Server Error' }),
    );
    expect((await failure(empty.client.listBots())).serverMessage).toBe('Internal Server Error');
  });

  it('gives the existing id of a duplicate SKU and the wait of a 429', async () => {
    const dup = fakeClient(() =>
      json({ error: { code: 'duplicate_sku', message: 'exists', existing_id: 44 } }, 409),
    );
    expect(
      await failure(dup.client.createProduct({ sku: 'A', name: 'a', price: '1', currency: 'USD' })),
    ).toMatchObject({ existingId: '44', code: 'duplicate_sku' });
    const limited = fakeClient(() =>
      json({ error: 'slow down' }, 429, { 'Retry-After': '7', 'X-RateLimit-Remaining': '0' }),
    );
    expect(await failure(limited.client.listBots())).toMatchObject({
      retryAfterMs: 7000,
      rateLimit: { remaining: 0 },
    });
  });

  it('tells a timeout, a lost connection and a cancel apart; writes may have committed', async () => {
    const hang = (_url: URL, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const slow = fakeClient(hang, { timeoutMs: 30 });
    expect(await failure(slow.client.createPost({ bot_id: '1', text: 'x' }))).toMatchObject({
      kind: 'timeout',
      retryable: true,
      mayHaveCommitted: true,
      status: null,
    });
    expect(await failure(slow.client.listBots())).toMatchObject({
      kind: 'timeout',
      mayHaveCommitted: false,
    });

    const reset = fakeClient(() =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        }),
      ),
    );
    const lost = await failure(
      reset.client.createProduct({ sku: 'A', name: 'a', price: '1', currency: 'USD' }),
    );
    expect(lost).toMatchObject({ kind: 'network', retryable: true, mayHaveCommitted: true });
    expect(lost.message).toBe('POST /products: connection failed (ECONNRESET)');

    const controller = new AbortController();
    const cancelled = fakeClient(hang);
    const pending = cancelled.client.listBots(undefined, { signal: controller.signal });
    controller.abort();
    expect(await failure(pending)).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('reports every answer, and every failure, to onResponse', async () => {
    const seen: (number | null)[] = [];
    const { client } = fakeClient(
      () => json({ error: 'x' }, 500, { 'X-RateLimit-Remaining': '4' }),
      {
        onResponse: (info) => seen.push(info.status, info.rateLimit?.remaining ?? null),
      },
    );
    await failure(client.listBots());
    expect(seen).toEqual([500, 4]);
  });
});

describe('answers to writes', () => {
  const post = (client: ReturnType<typeof fakeClient>['client']) =>
    failure(client.createPost({ bot_id: '1', text: 'x' }));

  it('takes any 2xx to a write as sent, with the id of a Location header when there is one', async () => {
    const noContent = await post(fakeClient(() => new Response(null, { status: 204 })).client);
    expect(noContent).toMatchObject({ kind: 'bad_response', sent: true, createdId: null });
    const located = await post(
      fakeClient(
        () => new Response(null, { status: 201, headers: { Location: '/api/v1/posts/post_77' } }),
      ).client,
    );
    expect(located).toMatchObject({ sent: true, createdId: 'post_77' });
    const absolute = await post(
      fakeClient(
        () =>
          new Response('{"id": "post_', {
            status: 201,
            headers: { Location: 'https://platform.example/api/v1/posts/post%2078?x=1' },
          }),
      ).client,
    );
    expect(absolute).toMatchObject({ sent: true, createdId: 'post 78' });
    // A read's odd answer is only that: nothing was sent.
    const list = await failure(
      fakeClient(() => new Response(null, { status: 204 })).client.listBots(),
    );
    expect(list).toMatchObject({ kind: 'bad_response', sent: false, mayHaveCommitted: false });
  });

  it('takes a 2xx whose body breaks off, or stalls past the timeout, to a write as sent', async () => {
    const head = { status: 201, headers: { Location: '/api/v1/posts/post_81' } };
    const dropped = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id": "post_8'));
        controller.error(new TypeError('terminated'));
      },
    });
    const cut = await post(fakeClient(() => new Response(dropped, head)).client);
    expect(cut).toMatchObject({ kind: 'bad_response', status: 201, sent: true });
    expect(cut).toMatchObject({ createdId: 'post_81', mayHaveCommitted: true, retryable: false });
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id": "post_8'));
      },
    });
    const slow = fakeClient(() => new Response(stalled, { status: 201 }), { timeoutMs: 50 });
    const late = await post(slow.client);
    expect(late).toMatchObject({ kind: 'bad_response', status: 201, sent: true, createdId: null });
    // A read's broken body is no answer, as before.
    const read = fakeClient(
      () =>
        new Response(
          new ReadableStream({ start: (controller) => controller.error(new TypeError('x')) }),
        ),
    );
    expect(await failure(read.client.listBots())).toMatchObject({ kind: 'network', sent: false });
  });

  it.each([
    ['an HTML 502 from a proxy', 502, '<html><head><title>502 Bad Gateway</title></head></html>'],
    ['an empty 500', 500, ''],
    ['a 503 with JSON', 503, '{"error":{"code":"busy","message":"later"}}'],
  ])('takes %s to a write as an unknown outcome', async (_name, status, body) => {
    const error = await post(fakeClient(() => new Response(body || null, { status })).client);
    expect(error).toMatchObject({
      kind: 'server',
      retryable: true,
      mayHaveCommitted: true,
      sent: false,
    });
  });

  it('says an HTML error page in one sentence, never its markup', async () => {
    const page =
      '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><hr>nginx</body></html>';
    const { client } = fakeClient(
      () => new Response(page, { status: 502, headers: { 'Content-Type': 'text/html' } }),
    );
    const error = await failure(client.listBots());
    expect(error.serverMessage).toBe('the server answered with an HTML page: "502 Bad Gateway"');
    expect(error.message).not.toContain('<');
  });
});

describe('readWholeList', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i + 1) }));
  /** A server of `all` that serves pages of `size`, saying as much about paging as `says`. */
  const server =
    (all: { id: string }[], size: number, says: { perPage?: boolean; total?: boolean } = {}) =>
    async (request: PageRequest): Promise<Page<{ id: string }>> => {
      const page = request.page ?? 1;
      const items = all.slice((page - 1) * size, page * size);
      return {
        items,
        rejected: [],
        page,
        perPage: says.perPage ? size : null,
        total: says.total ? all.length : null,
        next: { kind: 'unsaid' },
      };
    };
  const asked: PageRequest[] = [];
  const counting =
    (fetchPage: (request: PageRequest) => Promise<Page<{ id: string }>>) =>
    (request: PageRequest) => {
      asked.push(request);
      return fetchPage(request);
    };
  const idsOf = (list: { items: { id: string }[] }) => list.items.map((item) => item.id);

  it('asks once more after a short page when the page size was not said, and ends on an empty one', async () => {
    asked.length = 0;
    const list = await readWholeList(counting(server(ids(7), 3)));
    expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(list.unproven).toBeNull();
    expect(asked.map((request) => request.page)).toEqual([1, 2, 3, 4]);
  });

  it('reads on after a page shorter than the page size the server said, and ends at its total', async () => {
    asked.length = 0;
    // A cap the answer does not admit makes every page short: only an empty one ends the list.
    const capped = await readWholeList(counting(server(ids(7), 3, { perPage: true })));
    expect(idsOf(capped)).toHaveLength(7);
    expect(asked).toHaveLength(4);
    asked.length = 0;
    const list = await readWholeList(counting(server(ids(6), 3, { total: true })));
    expect(asked).toHaveLength(2);
    expect(list).toMatchObject({ unproven: null });
  });

  it('reads past a "last page" that its own total contradicts, and says so when nothing follows', async () => {
    const pageCount =
      (all: number, echoed: number) =>
      async (request: PageRequest): Promise<Page<{ id: string }>> => {
        const page = await server(ids(all), 2, { total: true })(request);
        const stated = Math.ceil(all / echoed);
        return {
          ...page,
          next:
            (request.page ?? 1) < stated
              ? { kind: 'request', request: { page: (request.page ?? 1) + 1 } }
              : { kind: 'last' },
        };
      };
    // 7 items, 2 a page, but the page count worked out for 4 a page: "last" after page 2.
    const echoed = await readWholeList(pageCount(7, 4));
    expect(idsOf(echoed)).toHaveLength(7);
    expect(echoed.unproven).toBeNull();
    const lying = async (request: PageRequest): Promise<Page<{ id: string }>> => ({
      ...(await server(ids(4), 2)(request)),
      total: 6,
      next: { kind: 'last' },
    });
    const list = await readWholeList(lying);
    expect(idsOf(list)).toHaveLength(4);
    expect(list.unproven).toMatch(
      /^the server said the list ended, but its total says 6 and 4 were read/,
    );
  });

  it('follows offsets and limits to the total', async () => {
    const { client, seen } = fakeClient((url) => {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const data = ids(5)
        .slice(offset, offset + 2)
        .map((bot) => ({ ...bot, name: 'Bot' }));
      return json({ data, offset, limit: 2, total: 5 });
    });
    const list = await readWholeList((request) => client.listBots({ per_page: 200, ...request }));
    expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5']);
    expect(list.unproven).toBeNull();
    expect(seen.map((request) => request.url.search)).toEqual([
      '?per_page=200&page=1',
      '?per_page=200&offset=2&limit=2',
      '?per_page=200&offset=4&limit=2',
    ]);
  });

  it('stops with a clear reason when a server ignores page and repeats itself', async () => {
    const ignoring = async () => (await server(ids(10), 3)({ page: 1 })) as Page<{ id: string }>;
    const list = await readWholeList(ignoring);
    expect(idsOf(list)).toEqual(['1', '2', '3']);
    expect(list.unproven).toMatch(/^page 2 repeats items already read/);
  });

  it('stops when a cursor leads back to a page already read', async () => {
    const looping = async (request: PageRequest): Promise<Page<{ id: string }>> => ({
      items: [{ id: request.cursor ?? 'first' }],
      rejected: [],
      page: null,
      perPage: null,
      total: null,
      next: { kind: 'request', request: { cursor: request.cursor === 'b' ? 'a' : 'b' } },
    });
    const list = await readWholeList(looping);
    expect(idsOf(list)).toEqual(['first', 'b', 'a']);
    expect(list.unproven).toContain('cursor b');
  });

  it('reads a repeated id within a page once', async () => {
    const list = await readWholeList(
      server([{ id: '1' }, { id: '1' }, { id: '2' }], 3, { perPage: true }),
    );
    expect(idsOf(list)).toEqual(['1', '2']);
  });
});

describe('list paging facts', () => {
  const pageOf = (body: unknown, headers: Record<string, string> = {}) => {
    const { client, seen } = fakeClient(() => json(body, 200, headers));
    return { page: client.listPosts({ per_page: 200 }), seen };
  };
  const post = { id: 1, text: 'a' };

  it.each<[string, unknown, Record<string, string>, unknown]>([
    [
      'a Link rel="next" header',
      [post],
      { Link: '</api/v1/posts?page=2>; rel="next", </api/v1/posts?page=9>; rel="last"' },
      { next_url: '/api/v1/posts?page=2' },
    ],
    ['a Link header without next', [post], { Link: '</api/v1/posts?page=1>; rel="first"' }, 'last'],
    [
      'next',
      { results: [post], next: 'https://platform.example/api/v1/posts?page=2', count: 9 },
      {},
      { next_url: 'https://platform.example/api/v1/posts?page=2' },
    ],
    ['next: null', { results: [post], next: null, count: 9 }, {}, 'last'],
    [
      'links.next',
      { data: [post], links: { next: '/api/v1/posts?page=2' } },
      {},
      { next_url: '/api/v1/posts?page=2' },
    ],
    [
      'meta.next',
      { data: [post], meta: { next: '/api/v1/posts?page=2' } },
      {},
      { next_url: '/api/v1/posts?page=2' },
    ],
    ['next_cursor', { data: [post], next_cursor: 'abc', has_more: true }, {}, { cursor: 'abc' }],
    ['has_more false', { data: [post], next_cursor: 'abc', has_more: false }, {}, 'last'],
    ['has_more alone', { data: [post], has_more: true }, {}, { starting_after: '1' }],
    ['last_page', { data: [post], meta: { current_page: 2, last_page: 3 } }, {}, { page: 3 }],
    [
      'total_pages reached',
      { data: [post], meta: { current_page: 3, total_pages: 3 } },
      {},
      'last',
    ],
    [
      'a relative next link',
      { data: [post], next: 'posts?page=2&per_page=3' },
      {},
      { next_url: 'posts?page=2&per_page=3' },
    ],
    [
      'a next cursor in base64',
      { data: [post], next: 'cGFnZT0y/+a=' },
      {},
      { cursor: 'cGFnZT0y/+a=' },
    ],
    ['an offset', { data: [post], offset: 0, limit: 1, total: 9 }, {}, { offset: 1, limit: 1 }],
    ['an offset at its total', { data: [post], offset: 8, limit: 1, total: 9 }, {}, 'last'],
    ['nothing', { data: [post] }, {}, 'unsaid'],
  ])('reads %s', async (_name, body, headers, expected) => {
    const next = (await pageOf(body, headers).page).next;
    expect(next.kind === 'request' ? next.request : next.kind).toEqual(expected);
  });

  it('follows a next link on the same site and refuses one elsewhere', async () => {
    const { client, seen } = fakeClient(() => json([]));
    await client.listPosts({ next_url: '/api/v1/posts?page=2&per_page=3' });
    expect(seen[0]?.url.href).toBe('https://platform.example/api/v1/posts?page=2&per_page=3');
    await client.listPosts({ next_url: 'posts?page=3&per_page=3' });
    expect(seen[1]?.url.href).toBe('https://platform.example/api/v1/posts?page=3&per_page=3');
    const error = await failure(client.listPosts({ next_url: 'https://evil.example/steal' }));
    expect(error.message).toContain('Pressroom sends its token only to https://platform.example');
    expect(seen).toHaveLength(2);
  });
});

describe('exact ids', () => {
  it('keeps integer ids past 2^53 as their exact digits', async () => {
    const { client } = fakeClient((url) =>
      url.pathname.endsWith('/posts')
        ? new Response('{"id": 12345678901234567890, "bot_id": 9007199254740993, "text": "hi"}', {
            status: 201,
          })
        : new Response(
            '[{"id": 9007199254740993, "name": "A"}, {"id": 9007199254740992, "name": "B"}]',
          ),
    );
    const { items } = await client.listBots();
    expect(items.map((bot) => bot.id)).toEqual(['9007199254740993', '9007199254740992']);
    const post = await client.createPost({ bot_id: '9007199254740993', text: 'hi' });
    expect(post).toMatchObject({ id: '12345678901234567890', bot_id: '9007199254740993' });
  });
});

describe('exact times', () => {
  const timesOf = async (values: unknown[]) => {
    const { client } = fakeClient(() =>
      json(values.map((created_at, index) => ({ id: index + 1, name: 'b', created_at }))),
    );
    const page = await client.listBots();
    return { times: page.items.map((bot) => bot.created_at), rejected: page.rejected };
  };
  const instant = '2026-11-20T15:04:00.000Z';

  it.each(['America/New_York', 'Asia/Tokyo'])(
    'reads a time without a zone as UTC on a computer in %s',
    async (zone) => {
      const before = process.env.TZ;
      process.env.TZ = zone;
      try {
        expect(new Date('2026-11-20T15:04:00').toISOString()).not.toBe(instant); // the zone took
        const { times } = await timesOf([
          '2026-11-20T15:04:00',
          '2026-11-20 15:04:00',
          'Fri, 20 Nov 2026 15:04:00',
          'Fri, 20 Nov 2026 16:04:00 +0100',
          '2026-11-20T10:04:00-05:00',
        ]);
        expect(times).toEqual(Array(5).fill(instant));
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    },
  );

  it('reads epochs in s, ms, µs and ns, as numbers or digit strings', async () => {
    const seconds = Date.parse(instant) / 1000;
    const { times } = await timesOf([
      seconds,
      String(seconds),
      seconds * 1e3,
      `${seconds * 1e3}`,
      seconds * 1e6,
      `${seconds}000000000`,
    ]);
    expect(times).toEqual(Array(6).fill(instant));
  });

  it('rejects an impossible time as one item’s error, and reads the rest', async () => {
    const { times, rejected } = await timesOf([
      '2026-02-30T10:00:00Z',
      '99999999999999999999999',
      instant,
    ]);
    expect(times).toEqual([instant]);
    expect(rejected).toEqual([
      {
        id: '1',
        why: expect.stringContaining('"2026-02-30T10:00:00Z" is not a possible date-time'),
      },
      { id: '2', why: expect.stringContaining('is not a possible date-time') },
    ]);
  });
});

describe('JSON:API items', () => {
  it('reads attributes and relationships, and never fills a missing name', async () => {
    const { client } = fakeClient((url) =>
      url.pathname.endsWith('/posts')
        ? json({
            data: [
              {
                id: '5',
                type: 'posts',
                attributes: { text: 'From JSON:API', status: 'published' },
                relationships: { bot: { data: { type: 'bots', id: '9' } } },
              },
            ],
          })
        : json({
            data: [
              { id: '1', type: 'bots', attributes: { name: 'Shop bot', status: 'paused' } },
              { id: '2', type: 'bots', attributes: { status: 'active' } },
            ],
          }),
    );
    const posts = await client.listPosts();
    expect(posts.items[0]).toMatchObject({ id: '5', text: 'From JSON:API', bot_id: '9' });
    const bots = await client.listBots();
    expect(bots.items).toMatchObject([{ id: '1', name: 'Shop bot', status: 'paused' }]);
    expect(bots.rejected).toEqual([{ id: '2', why: 'item 1 (id 2): name: is required' }]);
  });
});

describe('answer bodies', () => {
  it('decodes the charset the answer declares', async () => {
    const { client } = fakeClient(
      () =>
        new Response(Buffer.from('[{"id":1,"name":"Caf\xe9 cr\xe8me"}]', 'latin1'), {
          headers: { 'Content-Type': 'application/json; charset=ISO-8859-1' },
        }),
    );
    expect((await client.listBots()).items[0]?.name).toBe('Café crème');
  });

  /** An answer whose body comes in `chunks` pieces, `gapMs` apart. */
  const trickle = (chunks: number, gapMs: number) =>
    new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('[{"id":1,"name":"'));
          for (let n = 0; n < chunks; n++) {
            await new Promise((resolve) => setTimeout(resolve, gapMs));
            controller.enqueue(new TextEncoder().encode('x'));
          }
          controller.enqueue(new TextEncoder().encode('"}]'));
          controller.close();
        },
      }),
    );

  it('waits for a slow body while bytes keep coming, and gives up when they stop', async () => {
    const slow = fakeClient(() => trickle(8, 20), { timeoutMs: 60 });
    expect((await slow.client.listBots()).items[0]?.name).toBe('xxxxxxxx'); // 160 ms in all
    const stalled = fakeClient(() => trickle(1, 200), { timeoutMs: 60 });
    expect(await failure(stalled.client.listBots())).toMatchObject({ kind: 'timeout' });
  });

  it('refuses a body over the size cap with a clear error', async () => {
    const { client } = fakeClient(() => json([{ id: 1, name: 'x'.repeat(2000) }]), {
      maxBodyBytes: 1024,
    });
    const error = await failure(client.listBots());
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('the answer is over');
  });

  it('does not follow a redirect on a write, and names the new address', async () => {
    const { client, seen } = fakeClient(
      () =>
        new Response(null, {
          status: 301,
          headers: { Location: 'https://api.platform.example/v1/posts' },
        }),
    );
    const error = await failure(client.createPost({ bot_id: '1', text: 'x' }));
    expect(error.message).toContain(
      'the base URL redirects to https://api.platform.example/v1/posts; use that address',
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.init.redirect).toBe('manual');
  });
});

describe('error bodies of other conventions', () => {
  it('reads a JSON:API error list and problem+json', async () => {
    const jsonApi = fakeClient(() =>
      json(
        {
          errors: [
            {
              status: '422',
              code: 'too_long',
              title: 'Invalid attribute',
              detail: 'Text is too long',
              source: { pointer: '/data/attributes/text' },
            },
          ],
        },
        422,
      ),
    );
    const error = await failure(jsonApi.client.createPost({ bot_id: '1', text: 'x' }));
    expect(error).toMatchObject({ serverMessage: 'Text is too long', code: 'too_long' });
    expect(error.fieldErrors).toEqual([{ field: 'text', message: 'Text is too long' }]);

    const problem = fakeClient(() =>
      json(
        {
          type: 'https://example.net/validation',
          title: 'Your request is not valid',
          detail: 'price must be positive',
          'invalid-params': [{ name: 'price', reason: 'must be positive' }],
        },
        400,
        { 'Content-Type': 'application/problem+json' },
      ),
    );
    const refused = await failure(
      problem.client.createProduct({ sku: 'A', name: 'a', price: '-1', currency: 'USD' }),
    );
    expect(refused.serverMessage).toBe('price must be positive');
    expect(refused.fieldErrors).toEqual([{ field: 'price', message: 'must be positive' }]);
  });
});
