// The 17 endpoints of Platform API v1 in the reference server (Node, main process). Each handler
// validates its input with the schemas, works through the store, and answers in the wire format.
import { randomBytes } from 'node:crypto';
import type { AiUsage, AiUsageTotals } from '../platform/wire';
import type { AiRouter } from './ai';
import { HttpError, notFound, parseQuery, parseWith, route, validationFailed } from './http';
import type { Reply, Route } from './http';
import { formatId, parseId } from './ids';
import type { IdKind } from './ids';
import {
  botCreate,
  botPatch,
  botsQuery,
  chatRequest,
  messageCreate,
  ordersQuery,
  postCreate,
  postsQuery,
  productCreate,
  productsQuery,
  subscribersQuery,
  tagAdd,
  usageQuery,
  webhookCreate,
} from './schemas';
import type { AccountRow } from './data/accounts';
import type { UsageRow } from './data/ai-usage';
import type { ReferenceServerStore } from './store';

export interface ApiContext {
  account: AccountRow;
  store: ReferenceServerStore;
  ai: AiRouter;
  now: () => number;
  query: URLSearchParams;
  body: unknown;
}

const DAY_MS = 86_400_000;
const MAX_SCHEDULE_AHEAD_MS = 365 * DAY_MS;
const MAX_USAGE_DAYS = 366;

const ok = (body: unknown, status = 200): Reply => ({ status, body });

/** The row id behind a path id, or 404 naming it. */
function pathId(kind: IdKind, what: string, text: string | undefined): number {
  const id = parseId(kind, text ?? '');
  if (id === null) throw notFound(what, text ?? '');
  return id;
}

/** A filter id that cannot be parsed matches nothing rather than everything. */
function filterId(kind: IdKind, text: string | undefined): number | undefined {
  return text === undefined ? undefined : (parseId(kind, text) ?? -1);
}

function found<T>(value: T | undefined, what: string, id: string | undefined): T {
  if (value === undefined) throw notFound(what, id ?? '');
  return value;
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function microUsd(micro: number): string {
  return (micro / 1_000_000).toFixed(6);
}

function usageTotals(rows: readonly UsageRow[]): AiUsageTotals {
  const sum = (pick: (row: UsageRow) => number) =>
    rows.reduce((total, row) => total + pick(row), 0);
  const prompt = sum((row) => row.prompt_tokens);
  const completion = sum((row) => row.completion_tokens);
  return {
    requests: sum((row) => row.requests),
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cost_usd: microUsd(sum((row) => row.cost_micro_usd)),
  };
}

function aiUsage(context: ApiContext): AiUsage {
  const query = parseQuery(usageQuery, context.query);
  const to = query.to ?? utcDay(context.now());
  const from = query.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1)
    throw validationFailed(
      [{ field: 'from', message: 'must not be after to' }],
      'invalid_query',
      400,
    );
  if (days > MAX_USAGE_DAYS) {
    throw validationFailed(
      [{ field: 'from', message: `the range must be at most ${MAX_USAGE_DAYS} days` }],
      'invalid_query',
      400,
    );
  }
  const rows = context.store.aiUsage.usage(context.account.id, from, to);
  const data = Array.from({ length: days }, (_, index) => {
    const date = utcDay(Date.parse(`${from}T00:00:00Z`) + index * DAY_MS);
    const dayRows = rows.filter((row) => row.date === date);
    return {
      date,
      ...usageTotals(dayRows),
      providers: dayRows.map((row) => ({ provider: row.provider, ...usageTotals([row]) })),
    };
  });
  return { from, to, data };
}

export const apiRoutes: readonly Route<ApiContext>[] = [
  route('GET', '/bots', ({ store, account, query }) => {
    const q = parseQuery(botsQuery, query);
    return ok(store.bots.listBots(account.id, q, { page: q.page, perPage: q.per_page }));
  }),
  route('GET', '/bots/:id', ({ store, account }, { id }) =>
    ok(found(store.bots.getBot(account.id, pathId('bot', 'bot', id)), 'bot', id)),
  ),
  route('POST', '/bots', ({ store, account, body }) =>
    ok(store.bots.createBot(account.id, parseWith(botCreate, body)), 201),
  ),
  route('PATCH', '/bots/:id', ({ store, account, body }, { id }) => {
    const rowId = pathId('bot', 'bot', id);
    found(store.bots.getBot(account.id, rowId), 'bot', id);
    return ok(store.bots.updateBot(account.id, rowId, parseWith(botPatch, body)));
  }),
  route('DELETE', '/bots/:id', ({ store, account }, { id }) => {
    if (!store.bots.deleteBot(account.id, pathId('bot', 'bot', id)))
      throw notFound('bot', id ?? '');
    return { status: 204 };
  }),

  route('GET', '/subscribers', ({ store, account, query }) => {
    const q = parseQuery(subscribersQuery, query);
    return ok(
      store.subscribers.listSubscribers(
        account.id,
        { botId: filterId('bot', q.bot_id), tag: q.tag, status: q.status, q: q.q },
        { page: q.page, perPage: q.per_page },
      ),
    );
  }),
  route('GET', '/subscribers/:id', ({ store, account }, { id }) =>
    ok(
      found(
        store.subscribers.getSubscriber(account.id, pathId('subscriber', 'subscriber', id)),
        'subscriber',
        id,
      ),
    ),
  ),
  route('POST', '/subscribers/:id/messages', ({ store, account, body }, { id }) => {
    const rowId = pathId('subscriber', 'subscriber', id);
    const subscriber = found(store.subscribers.getSubscriber(account.id, rowId), 'subscriber', id);
    const input = parseWith(messageCreate, body);
    if (subscriber.status !== 'active') {
      throw new HttpError(
        409,
        'subscriber_unsubscribed',
        `Subscriber ${subscriber.id} has unsubscribed`,
      );
    }
    const message = store.subscribers.addMessage(account.id, {
      subscriberId: rowId,
      botId: parseId('bot', subscriber.bot_id) ?? 0,
      direction: 'out',
      text: input.text,
      clientReference: input.client_reference ?? null,
    });
    return ok(message, 201);
  }),
  route('POST', '/subscribers/:id/tags', ({ store, account, body }, { id }) => {
    const rowId = pathId('subscriber', 'subscriber', id);
    found(store.subscribers.getSubscriber(account.id, rowId), 'subscriber', id);
    const added = store.subscribers.addTag(rowId, parseWith(tagAdd, body).tag);
    return ok(store.subscribers.getSubscriber(account.id, rowId), added ? 201 : 200);
  }),

  route('GET', '/posts', ({ store, account, query }) => {
    const q = parseQuery(postsQuery, query);
    return ok(
      store.posts.listPosts(
        account.id,
        {
          botId: filterId('bot', q.bot_id),
          status: q.status,
          clientReference: q.client_reference,
          from: q.from,
          to: q.to,
        },
        { page: q.page, perPage: q.per_page },
      ),
    );
  }),
  route('POST', '/posts', ({ store, account, body, now }) => {
    const input = parseWith(postCreate, body);
    const botId = parseId('bot', input.bot_id);
    if (botId === null || !store.bots.getBot(account.id, botId)) {
      throw validationFailed([{ field: 'bot_id', message: `no bot with id "${input.bot_id}"` }]);
    }
    const scheduledAt = input.scheduled_at ?? null;
    if (scheduledAt !== null && scheduledAt > now() + MAX_SCHEDULE_AHEAD_MS) {
      throw validationFailed([
        { field: 'scheduled_at', message: 'must be at most 365 days ahead' },
      ]);
    }
    return ok(
      store.posts.createPost(account.id, {
        botId,
        text: input.text,
        mediaUrls: input.media_urls,
        scheduledAt,
        clientReference: input.client_reference ?? null,
      }),
      201,
    );
  }),

  route('GET', '/products', ({ store, account, query }) => {
    const q = parseQuery(productsQuery, query);
    return ok(
      store.products.listProducts(
        account.id,
        { sku: q.sku, clientReference: q.client_reference, q: q.q },
        { page: q.page, perPage: q.per_page },
      ),
    );
  }),
  route('POST', '/products', ({ store, account, body }) => {
    const input = parseWith(productCreate, body);
    const existing = store.products.productIdBySku(account.id, input.sku);
    if (existing !== undefined) {
      const existingId = formatId('product', existing);
      throw new HttpError(
        409,
        'duplicate_sku',
        `A product with SKU "${input.sku}" already exists (${existingId})`,
        undefined,
        {
          existing_id: existingId,
        },
      );
    }
    return ok(
      store.products.createProduct(account.id, {
        sku: input.sku,
        name: input.name,
        description: input.description ?? null,
        priceMinor: input.priceMinor,
        currency: input.currency,
        stock: input.stock ?? null,
        imageUrl: input.image_url ?? null,
        clientReference: input.client_reference ?? null,
      }),
      201,
    );
  }),

  route('GET', '/orders', ({ store, account, query }) => {
    const q = parseQuery(ordersQuery, query);
    return ok(
      store.orders.listOrders(
        account.id,
        { status: q.status, botId: filterId('bot', q.bot_id), since: q.since, until: q.until },
        { page: q.page, perPage: q.per_page },
      ),
    );
  }),

  route('POST', '/ai/chat', async ({ store, account, ai, body, now }) => {
    const input = parseWith(chatRequest, body);
    const outcome = await ai.chat(input, `chat_${randomBytes(6).toString('hex')}`);
    if (!outcome.ok && outcome.status === 422) {
      throw validationFailed([{ field: outcome.field, message: outcome.message }]);
    }
    if (!outcome.ok)
      throw new HttpError(outcome.status, outcome.code, outcome.message, outcome.attempts);
    const { response } = outcome;
    store.aiUsage.recordUsage({
      accountId: account.id,
      date: utcDay(now()),
      provider: response.provider,
      promptTokens: response.usage.prompt_tokens,
      completionTokens: response.usage.completion_tokens,
      costMicroUsd: Math.round(Number(response.cost_usd) * 1_000_000),
    });
    return ok(response);
  }),
  route('GET', '/ai/usage', (context) => ok(aiUsage(context))),

  route('POST', '/webhooks', ({ store, account, body }) => {
    const input = parseWith(webhookCreate, body);
    const secret = input.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
    return ok(
      store.webhooks.createWebhook(account.id, { url: input.url, events: input.events, secret }),
      201,
    );
  }),
];
