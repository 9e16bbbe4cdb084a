// Every endpoint of API v1 through the client against the reference server: success, missing
// token, invalid input and unknown id.
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../main/platform/errors';
import type { PlatformClient } from '../../main/platform/client';
import { rejectionOf, startTestPlatform } from '../support/platform';

async function platformError(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

async function seeded() {
  const platform = await startTestPlatform({ seed: 'demo' });
  const bots = await platform.client.listBots();
  const bot = bots.items[0];
  const subscribers = await platform.client.listSubscribers({ status: 'active', per_page: 1 });
  const subscriber = subscribers.items[0];
  if (!bot || !subscriber) throw new Error('the demo seed has bots and subscribers');
  return { ...platform, bot, subscriber };
}

describe('every endpoint refuses a request without a valid token', () => {
  const calls: [string, (client: PlatformClient) => Promise<unknown>][] = [
    ['GET /bots', (c) => c.listBots()],
    ['GET /bots/{id}', (c) => c.getBot('bot_1')],
    ['POST /bots', (c) => c.createBot({ name: 'x' })],
    ['PATCH /bots/{id}', (c) => c.updateBot('bot_1', { name: 'y' })],
    ['DELETE /bots/{id}', (c) => c.deleteBot('bot_1')],
    ['GET /subscribers', (c) => c.listSubscribers()],
    ['GET /subscribers/{id}', (c) => c.getSubscriber('sub_1')],
    ['POST /subscribers/{id}/messages', (c) => c.sendMessage('sub_1', { text: 'hi' })],
    ['POST /subscribers/{id}/tags', (c) => c.addTag('sub_1', 'vip')],
    ['GET /posts', (c) => c.listPosts()],
    ['POST /posts', (c) => c.createPost({ bot_id: 'bot_1', text: 'hi' })],
    ['GET /products', (c) => c.listProducts()],
    [
      'POST /products',
      (c) => c.createProduct({ sku: 'A', name: 'A', price: '1.00', currency: 'USD' }),
    ],
    ['GET /orders', (c) => c.listOrders()],
    ['POST /ai/chat', (c) => c.aiChat({ messages: [{ role: 'user', content: 'hi' }] })],
    ['GET /ai/usage', (c) => c.aiUsage()],
    [
      'POST /webhooks',
      (c) => c.createWebhook({ url: 'http://127.0.0.1:9/hook', events: ['order.created'] }),
    ],
  ];

  it.each(calls)(
    '%s: 401 without a token, with a wrong one, and with a revoked one',
    async (_name, call) => {
      const platform = await startTestPlatform({ seed: 'demo' });
      for (const token of ['', 'pk_not-a-real-token']) {
        const error = await platformError(call(platform.clientWith(token)));
        expect(error.kind).toBe('auth');
        expect(error.status).toBe(401);
        expect(error.retryable).toBe(false);
      }
      await platform.admin('POST', '/tokens/revoke', { token: platform.server.token });
      expect((await platformError(call(platform.client))).status).toBe(401);
    },
  );
});

describe('bots', () => {
  it('lists, reads, creates, updates and deletes', async () => {
    const { client, bot } = await seeded();
    const list = await client.listBots();
    expect(list.total).toBe(3);
    expect(list.items.map((b) => b.name)).toContain('Corner Bakery');
    expect((await client.getBot(bot.id)).name).toBe(bot.name);
    expect(bot.subscriber_count).toBeGreaterThan(0);

    const created = await client.createBot({ name: 'Weekend Market', channel: 'telegram' });
    expect(created).toMatchObject({
      name: 'Weekend Market',
      channel: 'telegram',
      status: 'active',
      description: null,
    });
    const renamed = await client.updateBot(created.id, {
      name: 'Saturday Market',
      status: 'paused',
    });
    expect(renamed).toMatchObject({
      id: created.id,
      name: 'Saturday Market',
      status: 'paused',
      channel: 'telegram',
    });
    await client.deleteBot(created.id);
    expect((await platformError(client.getBot(created.id))).kind).toBe('not_found');
  });

  it('names each invalid field', async () => {
    const { client, bot } = await seeded();
    const error = await platformError(client.createBot({ name: '', channel: 'fax' } as never));
    expect(error.status).toBe(422);
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'must not be empty' },
        { field: 'channel', message: expect.stringContaining('must be one of') },
      ]),
    );
    const empty = await platformError(client.updateBot(bot.id, {}));
    expect(empty.status).toBe(422);
    expect(empty.serverMessage).toContain('at least one');
    const badQuery = await platformError(client.listBots({ per_page: 1000 }));
    expect(badQuery.status).toBe(400);
    expect(badQuery.fieldErrors[0]?.field).toBe('per_page');
  });

  it('answers 404 for unknown ids', async () => {
    const { client } = await seeded();
    const calls = [
      () => client.getBot('bot_999'),
      () => client.updateBot('bot_999', { name: 'x' }),
      () => client.deleteBot('bot_999'),
      () => client.getBot('nonsense'),
    ];
    for (const call of calls) {
      const error = await platformError(call());
      expect(error.status).toBe(404);
      expect(error.kind).toBe('not_found');
    }
  });
});

describe('subscribers', () => {
  it('lists with filters and pages, reads, messages and tags', async () => {
    const { client, subscriber } = await seeded();
    const first = await client.listSubscribers({ per_page: 100 });
    expect(first.total).toBe(300);
    expect(first.items).toHaveLength(100);
    expect(first.next).toEqual({ kind: 'request', request: { page: 2 } });
    const vip = await client.listSubscribers({ tag: 'vip', per_page: 200 });
    expect(vip.items.length).toBeGreaterThan(0);
    expect(vip.items.every((s) => s.tags.includes('vip'))).toBe(true);

    expect((await client.getSubscriber(subscriber.id)).name).toBe(subscriber.name);
    const message = await client.sendMessage(subscriber.id, {
      text: 'Your order is ready',
      client_reference: 'm-1',
    });
    expect(message).toMatchObject({
      subscriber_id: subscriber.id,
      text: 'Your order is ready',
      client_reference: 'm-1',
    });

    const tagged = await client.addTag(subscriber.id, 'Early-Bird');
    expect(tagged?.tags).toContain('Early-Bird');
    const again = await client.addTag(subscriber.id, 'early-bird');
    expect(again?.tags.filter((t) => t.toLowerCase() === 'early-bird')).toHaveLength(1);
  });

  it('refuses bad messages and tags, and unknown subscribers', async () => {
    const { client, subscriber } = await seeded();
    const emptyText = await platformError(client.sendMessage(subscriber.id, { text: '   ' }));
    expect(emptyText.fieldErrors).toEqual([{ field: 'text', message: 'must not be empty' }]);
    const comma = await platformError(client.addTag(subscriber.id, 'a,b'));
    expect(comma.fieldErrors).toEqual([{ field: 'tag', message: 'must not contain commas' }]);
    const calls = [
      () => client.getSubscriber('sub_99999'),
      () => client.sendMessage('sub_99999', { text: 'hi' }),
      () => client.addTag('sub_99999', 'vip'),
    ];
    for (const call of calls) expect((await platformError(call())).status).toBe(404);
  });

  it('refuses a message to a subscriber who left', async () => {
    const { client } = await seeded();
    const gone = (await client.listSubscribers({ status: 'unsubscribed', per_page: 1 })).items[0];
    expect(gone).toBeDefined();
    const error = await platformError(client.sendMessage(gone?.id ?? '', { text: 'hi' }));
    expect(error).toMatchObject({ status: 409, code: 'subscriber_unsubscribed', retryable: false });
  });
});

describe('posts', () => {
  it('publishes at once or schedules, and the platform publishes when due', async () => {
    const { client, bot, server } = await seeded();
    const now = await client.createPost({
      bot_id: bot.id,
      text: 'Open today',
      client_reference: 'p-now',
    });
    expect(now).toMatchObject({
      status: 'published',
      scheduled_at: null,
      client_reference: 'p-now',
    });
    expect(now.published_at).not.toBeNull();

    const due = new Date(Date.now() + 3_600_000).toISOString();
    const later = await client.createPost({
      bot_id: bot.id,
      text: 'Stollen pre-orders open',
      media_urls: ['https://example.com/stollen.jpg'],
      scheduled_at: due,
      client_reference: 'p-later',
    });
    expect(later).toMatchObject({ status: 'scheduled', scheduled_at: due, published_at: null });

    server.clock.offsetMs = 3_600_001;
    const found = await client.listPosts({ client_reference: 'p-later' });
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ id: later.id, status: 'published', published_at: due });
  });

  it('filters by status, bot and time', async () => {
    const { client, bot } = await seeded();
    const scheduled = await client.listPosts({ status: 'scheduled', per_page: 200 });
    expect(scheduled.items.length).toBeGreaterThan(0);
    expect(scheduled.items.every((p) => p.status === 'scheduled')).toBe(true);
    const ofBot = await client.listPosts({ bot_id: bot.id, per_page: 200 });
    expect(ofBot.items.every((p) => p.bot_id === bot.id)).toBe(true);
    const from = new Date().toISOString();
    const future = await client.listPosts({ from, per_page: 200 });
    expect(future.items.every((p) => (p.scheduled_at ?? p.published_at ?? '') >= from)).toBe(true);
  });

  it('names invalid fields, including unknown ones', async () => {
    const { client, bot } = await seeded();
    const error = await platformError(
      client.createPost({
        bot_id: bot.id,
        text: '',
        media_urls: ['ftp://example.com/a.jpg'],
        scheduled_at: '2026-12-01 10:00',
        schedule_at: 'typo',
      } as never),
    );
    expect(error.status).toBe(422);
    expect(error.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'text', message: 'must not be empty' },
        { field: 'media_urls[0]', message: 'must be an absolute http or https URL' },
        { field: 'scheduled_at', message: expect.stringContaining('offset') },
        { field: 'schedule_at', message: 'is not a known field' },
      ]),
    );
    const unknownBot = await platformError(client.createPost({ bot_id: 'bot_999', text: 'hi' }));
    expect(unknownBot.fieldErrors).toEqual([
      { field: 'bot_id', message: 'no bot with id "bot_999"' },
    ]);
  });
});

describe('products', () => {
  it('adds products with exact prices and finds them by SKU', async () => {
    const { client } = await seeded();
    const product = await client.createProduct({
      sku: 'CAKE-1',
      name: 'Birthday cake',
      price: '34.90',
      currency: 'EUR',
      stock: 3,
      client_reference: 'prod-ref',
    });
    expect(product).toMatchObject({
      sku: 'CAKE-1',
      price: '34.90',
      price_minor: 3490,
      currency: 'EUR',
      stock: 3,
    });
    const yen = await client.createProduct({
      sku: 'JP-1',
      name: 'Melon pan',
      price: '1299',
      currency: 'JPY',
    });
    expect(yen).toMatchObject({ price: '1299', price_minor: 1299 });
    const found = await client.listProducts({ sku: 'CAKE-1' });
    expect(found.items.map((p) => p.id)).toEqual([product.id]);
    expect((await client.listProducts({ client_reference: 'prod-ref' })).items).toHaveLength(1);
    expect((await client.listProducts({ per_page: 200 })).total).toBe(42);
  });

  it('refuses bad prices and currencies, field by field', async () => {
    const { client } = await seeded();
    const error = await platformError(
      client.createProduct({ sku: ' A', name: 'A', price: '1.999', currency: 'usd', stock: -1 }),
    );
    expect(error.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'sku', message: 'must not start or end with white space' },
        { field: 'currency', message: 'must be an ISO 4217 currency code such as USD' },
        { field: 'stock', message: 'must not be negative' },
      ]),
    );
    const fraction = await platformError(
      client.createProduct({ sku: 'B', name: 'B', price: '1.999', currency: 'USD' }),
    );
    expect(fraction.fieldErrors).toEqual([
      { field: 'price', message: 'must have at most 2 fraction digits for USD' },
    ]);
  });

  it('answers 409 with the existing id for a SKU that exists', async () => {
    const { client } = await seeded();
    const first = await client.createProduct({
      sku: 'DUP-1',
      name: 'One',
      price: '1.00',
      currency: 'USD',
    });
    const error = await platformError(
      client.createProduct({ sku: 'DUP-1', name: 'Two', price: '2.00', currency: 'USD' }),
    );
    expect(error).toMatchObject({
      status: 409,
      kind: 'conflict',
      code: 'duplicate_sku',
      existingId: first.id,
    });
    expect((await client.listProducts({ sku: 'DUP-1' })).items).toHaveLength(1);
  });
});

describe('orders', () => {
  it('lists orders with items and exact totals, filtered', async () => {
    const { client } = await seeded();
    const orders = await client.listOrders({ per_page: 200 });
    expect(orders.total).toBe(80);
    for (const order of orders.items) {
      const sum = order.items.reduce(
        (total, item) => total + item.quantity * item.unit_price_minor,
        0,
      );
      expect(order.total_minor).toBe(sum);
    }
    const paid = await client.listOrders({ status: 'paid', per_page: 200 });
    expect(paid.items.every((o) => o.status === 'paid')).toBe(true);
    const bad = await platformError(client.listOrders({ status: 'lost' } as never));
    expect(bad.status).toBe(400);
    expect(bad.fieldErrors[0]?.field).toBe('status');
  });
});

describe('AI', () => {
  it('answers a chat with the provider, tokens and cost, and counts usage per day and provider', async () => {
    const { client } = await seeded();
    const before = await client.aiUsage();
    const chat = await client.aiChat({
      messages: [{ role: 'user', content: 'Suggest hashtags for our sourdough bread launch' }],
      max_tokens: 100,
    });
    expect(chat.provider).toBe('lark');
    expect(chat.message.content).toMatch(/#\w+/);
    expect(chat.usage.total_tokens).toBe(chat.usage.prompt_tokens + chat.usage.completion_tokens);
    const after = await client.aiUsage();
    const today = after.data.at(-1);
    const todayBefore = before.data.at(-1);
    expect(today?.total_tokens).toBe((todayBefore?.total_tokens ?? 0) + chat.usage.total_tokens);
    expect(today?.providers.find((p) => p.provider === 'lark')?.requests).toBeGreaterThan(0);
    expect(after.data).toHaveLength(30);
  });

  it('fails over when a provider fails', async () => {
    const { client, admin } = await seeded();
    await admin('PUT', '/ai/providers/lark', { failure_rate: 1 });
    const chat = await client.aiChat({
      messages: [{ role: 'user', content: 'Draft a post about rye bread' }],
    });
    expect(chat.provider).toBe('heron');
    expect(chat.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['lark', 'failed'],
      ['heron', 'ok'],
    ]);
  });

  it('answers 503 when every provider fails, and 422 for bad requests', async () => {
    const { client, admin } = await seeded();
    for (const name of ['lark', 'heron', 'owl'])
      await admin('PUT', `/ai/providers/${name}`, { failure_rate: 1 });
    const down = await platformError(
      client.aiChat({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(down).toMatchObject({ status: 503, code: 'ai_unavailable', retryable: true });
    const bad = await platformError(
      client.aiChat({ messages: [{ role: 'robot' as never, content: 'hi' }], max_tokens: 0 }),
    );
    expect(bad.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'messages[0].role', message: 'must be system, user or assistant' },
        { field: 'max_tokens', message: 'must be at least 1' },
      ]),
    );
    const badRange = await platformError(client.aiUsage({ from: '2026-02-30' }));
    expect(badRange.status).toBe(400);
  });
});

describe('webhooks', () => {
  it('subscribes with a generated secret and refuses bad URLs and events', async () => {
    const { client } = await seeded();
    const hook = await client.createWebhook({
      url: 'https://example.com/hook',
      events: ['order.created'],
    });
    expect(hook).toMatchObject({
      url: 'https://example.com/hook',
      events: ['order.created'],
      active: true,
    });
    expect(hook.secret).toMatch(/^whsec_/);
    const error = await platformError(
      client.createWebhook({ url: 'mailto:me@example.com', events: ['order.shipped' as never] }),
    );
    expect(error.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'url', message: 'must be an absolute http or https URL' },
        { field: 'events[0]', message: expect.stringContaining('must be one of') },
      ]),
    );
  });
});
