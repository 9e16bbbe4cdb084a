// The client against other readings of the spec, served by a fake fetch: envelopes, ids, money,
// error bodies, failures without an answer, and the token never leaking.
import { describe, expect, it } from 'vitest';
import { createPlatformClient, paginate } from '../../main/platform/client';
import type { Page, PlatformClientOptions } from '../../main/platform/client';
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
      expect(page.nextPage).toBeNull();
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

describe('paginate', () => {
  const pages =
    (
      all: { id: string }[],
      perPage: number,
      options: { ignorePage?: boolean; noMeta?: boolean } = {},
    ) =>
    async (page: number): Promise<Page<{ id: string }>> => {
      const start = options.ignorePage ? 0 : (page - 1) * perPage;
      const items = all.slice(start, start + perPage);
      const nextPage = options.noMeta
        ? items.length === perPage
          ? page + 1
          : null
        : start + perPage < all.length
          ? page + 1
          : null;
      return { items, page, perPage, total: options.noMeta ? null : all.length, nextPage };
    };
  const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i + 1) }));
  const collect = async (fetchPage: (page: number) => Promise<Page<{ id: string }>>) => {
    const seen: string[] = [];
    for await (const page of paginate(fetchPage)) seen.push(...page.map((item) => item.id));
    return seen;
  };

  it('walks every page and stops at the last', async () => {
    expect(await collect(pages(ids(7), 3))).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(await collect(pages(ids(6), 3, { noMeta: true }))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    expect(await collect(pages([], 3))).toEqual([]);
  });

  it('stops when a platform ignores page and repeats itself', async () => {
    expect(await collect(pages(ids(10), 3, { ignorePage: true }))).toEqual(['1', '2', '3']);
  });
});
