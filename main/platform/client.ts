// The typed client of Platform API v1 (Node, main process): one function per endpoint, a bearer
// token and a timeout on every request, typed errors, and rate-limit headers parsed from every
// answer. It decides nothing about when to send: the engine's governor does.
import type { z } from 'zod';
import { describeIssues, summarizeIssues } from '../../shared/validation';
import {
  PlatformError,
  describeHtmlPage,
  idOfLocation,
  kindOfStatus,
  writeWasSent,
} from './errors';
import {
  aiChatSchema,
  aiUsageSchema,
  botSchema,
  messageSchema,
  orderSchema,
  postSchema,
  productSchema,
  readErrorBody,
  readList,
  subscriberSchema,
  unwrapOne,
  webhookSchema,
} from './normalize';
import type {
  AiChat,
  AiUsageReport,
  Bot,
  Message,
  Order,
  Post,
  Product,
  Subscriber,
  WebhookSubscriptionInfo,
} from './normalize';
import { parseRateLimit, parseRetryAfter } from './rate-limit';
import type { RateLimitState } from './rate-limit';
import { DEFAULT_PER_PAGE } from './wire';
import type {
  BotChannel,
  BotStatus,
  ChatMessage,
  EventType,
  OrderStatus,
  PostStatus,
} from './wire';

export interface ResponseInfo {
  method: string;
  path: string;
  /** null when no answer came (network error, timeout, abort). */
  status: number | null;
  durationMs: number;
  rateLimit: RateLimitState | null;
}

export interface PlatformClientOptions {
  /** Ends in /api/v1; a trailing slash is fine. */
  baseUrl: string;
  token: string;
  /** Per request; 15 s unless given. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  userAgent?: string;
  /** Called for every answer and every request that got none. */
  onResponse?: (info: ResponseInfo) => void;
}

export interface RequestOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ListQuery {
  page?: number;
  per_page?: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number | null;
  /** null on the last page. */
  nextPage: number | null;
}

export interface BotCreate {
  name: string;
  description?: string | null;
  channel?: BotChannel;
  status?: BotStatus;
  client_reference?: string;
}

export interface BotPatch {
  name?: string;
  description?: string | null;
  status?: BotStatus;
}

export interface PostCreate {
  bot_id: string;
  text: string;
  media_urls?: string[];
  /** RFC 3339 with an offset; absent or past: published at once. */
  scheduled_at?: string;
  client_reference?: string;
}

export interface ProductCreate {
  sku: string;
  name: string;
  /** Decimal text in major units, e.g. "19.99". */
  price: string;
  currency: string;
  description?: string | null;
  stock?: number | null;
  image_url?: string | null;
  client_reference?: string;
}

export interface MessageCreate {
  text: string;
  client_reference?: string;
}

export interface AiChatRequest {
  messages: ChatMessage[];
  max_tokens?: number;
  provider?: string;
  temperature?: number;
}

export interface WebhookCreate {
  url: string;
  events: EventType[];
  secret?: string;
}

type Query = Record<string, string | number | undefined>;

export interface PlatformClient {
  listBots(
    query?: ListQuery & { status?: BotStatus },
    options?: RequestOptions,
  ): Promise<Page<Bot>>;
  getBot(id: string, options?: RequestOptions): Promise<Bot>;
  createBot(input: BotCreate, options?: RequestOptions): Promise<Bot>;
  updateBot(id: string, patch: BotPatch, options?: RequestOptions): Promise<Bot>;
  deleteBot(id: string, options?: RequestOptions): Promise<void>;
  listSubscribers(
    query?: ListQuery & { bot_id?: string; tag?: string; status?: string; q?: string },
    options?: RequestOptions,
  ): Promise<Page<Subscriber>>;
  getSubscriber(id: string, options?: RequestOptions): Promise<Subscriber>;
  sendMessage(
    subscriberId: string,
    input: MessageCreate,
    options?: RequestOptions,
  ): Promise<Message>;
  /** The subscriber with its tags, or null when the platform answers without one. */
  addTag(subscriberId: string, tag: string, options?: RequestOptions): Promise<Subscriber | null>;
  listPosts(
    query?: ListQuery & {
      bot_id?: string;
      status?: PostStatus;
      client_reference?: string;
      from?: string;
      to?: string;
    },
    options?: RequestOptions,
  ): Promise<Page<Post>>;
  createPost(input: PostCreate, options?: RequestOptions): Promise<Post>;
  listProducts(
    query?: ListQuery & { sku?: string; client_reference?: string; q?: string },
    options?: RequestOptions,
  ): Promise<Page<Product>>;
  createProduct(input: ProductCreate, options?: RequestOptions): Promise<Product>;
  listOrders(
    query?: ListQuery & { status?: OrderStatus; bot_id?: string; since?: string; until?: string },
    options?: RequestOptions,
  ): Promise<Page<Order>>;
  aiChat(input: AiChatRequest, options?: RequestOptions): Promise<AiChat>;
  aiUsage(query?: { from?: string; to?: string }, options?: RequestOptions): Promise<AiUsageReport>;
  createWebhook(input: WebhookCreate, options?: RequestOptions): Promise<WebhookSubscriptionInfo>;
}

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query | undefined;
  body?: unknown;
  options?: RequestOptions | undefined;
}

interface Answer {
  status: number;
  body: unknown;
  call: Call;
  rateLimit: RateLimitState | null;
  /** The Location header: where a write's creation is, when its body does not say. */
  location: string | null;
}

const DEFAULT_TIMEOUT_MS = 15_000;

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  async function request(call: Call): Promise<Answer> {
    const url = new URL(base + call.path);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const timeout = AbortSignal.timeout(
      call.options?.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const signal = call.options?.signal ? AbortSignal.any([call.options.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.token}`,
      Accept: 'application/json',
      'User-Agent': options.userAgent ?? 'Pressroom',
    };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (call.options?.idempotencyKey) headers['Idempotency-Key'] = call.options.idempotencyKey;
    const started = now();
    const report = (status: number | null, rateLimit: RateLimitState | null) =>
      options.onResponse?.({
        method: call.method,
        path: call.path,
        status,
        durationMs: now() - started,
        rateLimit,
      });

    let response: Response;
    let text: string;
    try {
      response = await send(url, {
        method: call.method,
        headers,
        signal,
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      });
      text = await response.text();
    } catch (error) {
      report(null, null);
      const kind = call.options?.signal?.aborted
        ? 'aborted'
        : timeout.aborted
          ? 'timeout'
          : 'network';
      throw new PlatformError({
        kind,
        method: call.method,
        path: call.path,
        cause: causeOf(error, kind),
      });
    }
    const rateLimit = parseRateLimit(response.headers, now());
    report(response.status, rateLimit);
    let body: unknown;
    try {
      body = text.trim() === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      body = undefined; // not JSON: an error keeps the text, a success is a bad response
    }
    if (!response.ok) {
      const htmlPage = describeHtmlPage(text, response.headers.get('content-type'));
      const facts = readErrorBody(body, htmlPage ? '' : text);
      throw new PlatformError({
        kind: kindOfStatus(response.status),
        method: call.method,
        path: call.path,
        status: response.status,
        code: facts.code,
        serverMessage: htmlPage ?? facts.message ?? response.statusText,
        fieldErrors: facts.fieldErrors,
        existingId: facts.existingId,
        requestId: facts.requestId,
        retryAfterMs:
          rateLimit?.retryAfterMs ?? parseRetryAfter(response.headers.get('retry-after'), now()),
        rateLimit,
      });
    }
    const answer = {
      status: response.status,
      body,
      call,
      rateLimit,
      location: response.headers.get('location'),
    };
    if (body === undefined) throw badResponse(answer, 'the answer is not JSON');
    return answer;
  }

  function read<S extends z.ZodType>(schema: S, answer: Answer, value: unknown): z.output<S> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    throw badResponse(answer, summarizeIssues(describeIssues(result.error.issues)));
  }

  const one =
    <S extends z.ZodType>(schema: S) =>
    async (call: Call): Promise<z.output<S>> => {
      const answer = await request(call);
      return read(schema, answer, unwrapOne(answer.body));
    };

  const list =
    <S extends z.ZodType>(schema: S) =>
    async (call: Call): Promise<Page<z.output<S>>> => {
      const answer = await request(call);
      const shape = readList(answer.body);
      if (!shape) throw badResponse(answer, 'the answer is not a list');
      const items = shape.items.map((item, index) => {
        const result = schema.safeParse(item);
        if (result.success) return result.data as z.output<S>;
        const issues = summarizeIssues(describeIssues(result.error.issues));
        throw badResponse(answer, `item ${index}: ${issues}`);
      });
      const page = shape.page ?? Number(call.query?.page ?? 1);
      // Without a page size from the answer or the query, the documented default is the best guess.
      const perPage = shape.perPage ?? Number(call.query?.per_page ?? DEFAULT_PER_PAGE);
      return {
        items,
        page,
        perPage,
        total: shape.total,
        nextPage: nextPageOf(shape, page, perPage, items.length),
      };
    };

  const path = (template: string, id: string) => template.replace('{id}', encodeURIComponent(id));

  return {
    listBots: (query, o) =>
      list(botSchema)({ method: 'GET', path: '/bots', query: query as Query, options: o }),
    getBot: (id, o) => one(botSchema)({ method: 'GET', path: path('/bots/{id}', id), options: o }),
    createBot: (input, o) =>
      one(botSchema)({ method: 'POST', path: '/bots', body: input, options: o }),
    updateBot: (id, patch, o) =>
      one(botSchema)({ method: 'PATCH', path: path('/bots/{id}', id), body: patch, options: o }),
    deleteBot: async (id, o) => {
      await request({ method: 'DELETE', path: path('/bots/{id}', id), options: o });
    },
    listSubscribers: (query, o) =>
      list(subscriberSchema)({
        method: 'GET',
        path: '/subscribers',
        query: query as Query,
        options: o,
      }),
    getSubscriber: (id, o) =>
      one(subscriberSchema)({ method: 'GET', path: path('/subscribers/{id}', id), options: o }),
    sendMessage: (id, input, o) =>
      one(messageSchema)({
        method: 'POST',
        path: path('/subscribers/{id}/messages', id),
        body: input,
        options: o,
      }),
    addTag: async (id, tag, o) => {
      const answer = await request({
        method: 'POST',
        path: path('/subscribers/{id}/tags', id),
        body: { tag },
        options: o,
      });
      const value = unwrapOne(answer.body);
      // A platform may answer with the tag alone, or nothing: only a subscriber is worth reading.
      const looksLikeSubscriber =
        typeof value === 'object' && value !== null && 'id' in value && 'tags' in value;
      return looksLikeSubscriber ? read(subscriberSchema, answer, value) : null;
    },
    listPosts: (query, o) =>
      list(postSchema)({ method: 'GET', path: '/posts', query: query as Query, options: o }),
    createPost: (input, o) =>
      one(postSchema)({ method: 'POST', path: '/posts', body: input, options: o }),
    listProducts: (query, o) =>
      list(productSchema)({ method: 'GET', path: '/products', query: query as Query, options: o }),
    createProduct: (input, o) =>
      one(productSchema)({ method: 'POST', path: '/products', body: input, options: o }),
    listOrders: (query, o) =>
      list(orderSchema)({ method: 'GET', path: '/orders', query: query as Query, options: o }),
    aiChat: (input, o) =>
      one(aiChatSchema)({ method: 'POST', path: '/ai/chat', body: input, options: o }),
    aiUsage: async (query, o) => {
      const answer = await request({
        method: 'GET',
        path: '/ai/usage',
        query: query as Query,
        options: o,
      });
      return read(aiUsageSchema, answer, answer.body);
    },
    createWebhook: (input, o) =>
      one(webhookSchema)({ method: 'POST', path: '/webhooks', body: input, options: o }),
  };
}

function nextPageOf(
  shape: NonNullable<ReturnType<typeof readList>>,
  page: number,
  perPage: number,
  count: number,
) {
  if (shape.nextPage !== null) return shape.nextPage;
  if (shape.hasMore !== null) return shape.hasMore ? page + 1 : null;
  if (shape.total !== null) return page * perPage < shape.total ? page + 1 : null;
  return count > 0 && count >= perPage ? page + 1 : null;
}

/**
 * An answer that cannot be read. To a write it is still a 2xx: the write happened (`sent`), and
 * its Location header, if any, says what it made.
 */
function badResponse(answer: Omit<Answer, 'body'>, why: string): PlatformError {
  const { call, status } = answer;
  const sent = writeWasSent(call.method, status);
  return new PlatformError({
    kind: 'bad_response',
    method: call.method,
    path: call.path,
    status,
    serverMessage: `unreadable answer: ${why}`,
    rateLimit: answer.rateLimit,
    sent,
    createdId: sent ? idOfLocation(answer.location) : null,
  });
}

/** The reason a request got no answer, without the URL (and so without anything secret). */
function causeOf(error: unknown, kind: 'aborted' | 'timeout' | 'network'): string {
  if (kind === 'timeout') return 'no answer before the timeout';
  if (kind === 'aborted') return 'cancelled';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  return code ? `connection failed (${code})` : 'connection failed';
}

/**
 * Every item of a paginated list, a page at a time. Stops at the last page, at an empty page, and
 * at a page whose ids were all seen before (a platform that ignores `page`).
 */
export async function* paginate<T extends { id: string }>(
  fetchPage: (page: number) => Promise<Page<T>>,
): AsyncGenerator<T[]> {
  const seen = new Set<string>();
  let page: number | null = 1;
  while (page !== null) {
    const current: Page<T> = await fetchPage(page);
    const fresh = current.items.filter((item) => !seen.has(item.id));
    if (fresh.length === 0) return;
    fresh.forEach((item) => seen.add(item.id));
    yield fresh;
    page = current.nextPage !== null && current.nextPage > page ? current.nextPage : null;
  }
}
