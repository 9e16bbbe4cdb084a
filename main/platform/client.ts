// The typed client of Platform API v1 (Node, main process): one function per endpoint, a bearer
// token and a timeout on every request, typed errors, and rate-limit headers parsed from every
// answer. It decides nothing about when to send: the engine's governor does.
import type { z } from 'zod';
import { describeIssues, summarizeIssues } from '../../shared/validation';
import { BodyTooLarge, idleTimeout, parseJsonExact, readBodyText } from './body';
import {
  PlatformError,
  describeHtmlPage,
  idOfLocation,
  kindOfStatus,
  writeWasSent,
} from './errors';
import { botSchema, webhookSchema } from './normalize/account';
import type { Bot, WebhookSubscriptionInfo } from './normalize/account';
import { aiChatSchema, aiUsageSchema } from './normalize/ai';
import type { AiChat, AiUsageReport } from './normalize/ai';
import { readErrorBody } from './normalize/errors';
import { nextFromLinkHeader, readList, unwrapOne } from './normalize/lists';
import type { PageRequest } from './normalize/lists';
import type { Page, RejectedItem } from './lists';
import { messageSchema, orderSchema, subscriberSchema } from './normalize/people';
import type { Message, Order, Subscriber } from './normalize/people';
import { postSchema } from './normalize/posts';
import type { Post } from './normalize/posts';
import { productSchema } from './normalize/products';
import type { Product } from './normalize/products';
import { parseRateLimit, parseRetryAfter } from './rate-limit';
import type { RateLimitState } from './rate-limit';
import type {
  BotChannel,
  BotStatus,
  ChatMessage,
  EventType,
  OrderStatus,
  PostStatus,
} from './wire';

// Reading a whole list lives in lists.ts; these names stay importable from here for its callers.
export { readWholeList } from './lists';
export type { Page, RejectedItem, WholeList } from './lists';

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
  /** How long a request waits for its answer to start, or for its next bytes; 15 s unless given. */
  timeoutMs?: number;
  /** The largest answer body read; 64 MiB unless given. */
  maxBodyBytes?: number;
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

/** `next_url` (from an answer's next link) replaces the whole query; the rest join it. */
export interface ListQuery extends PageRequest {
  per_page?: number;
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
  /** The whole address, when the server gave it (a next-page link); else base + path + query. */
  url?: URL;
  query?: Query | undefined;
  body?: unknown;
  options?: RequestOptions | undefined;
}

interface Answer {
  status: number;
  body: unknown;
  call: Call;
  rateLimit: RateLimitState | null;
  /** Its headers: paging (Link) for a list, and Location for a write whose body does not say. */
  headers: Headers | null;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  async function request(call: Call): Promise<Answer> {
    const url = call.url ?? new URL(base + call.path);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const idle = idleTimeout(call.options?.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = call.options?.signal
      ? AbortSignal.any([call.options.signal, idle.signal])
      : idle.signal;
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
        // A write sent on to another address would arrive there as a GET: say where instead.
        redirect: call.method === 'GET' ? 'follow' : 'manual',
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      });
      idle.restart();
      text = await readBodyText(
        response,
        options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        signal,
        idle,
      );
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        report(error.status, null);
        throw badResponse(
          { call, status: error.status, rateLimit: null, headers: null },
          error.message,
        );
      }
      report(null, null);
      const kind = call.options?.signal?.aborted ? 'aborted' : idle.fired() ? 'timeout' : 'network';
      throw new PlatformError({
        kind,
        method: call.method,
        path: call.path,
        cause: causeOf(error, kind),
      });
    } finally {
      idle.stop();
    }
    const rateLimit = parseRateLimit(response.headers, now());
    report(response.status, rateLimit);
    if (response.status >= 300 && response.status < 400) throw redirected(call, response, url);
    let body: unknown;
    try {
      body = text.trim() === '' ? null : parseJsonExact(text);
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
    const answer = { status: response.status, body, call, rateLimit, headers: response.headers };
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
      const answer = await request(listCall(call, base));
      const shape = readList(answer.body, pageAsked(call.query));
      if (!shape) throw badResponse(answer, 'the answer is not a list');
      const items: z.output<S>[] = [];
      const rejected: RejectedItem[] = [];
      shape.items.forEach((item, index) => {
        const result = schema.safeParse(item);
        if (result.success) items.push(result.data as z.output<S>);
        else rejected.push(rejectedItem(item, index, result.error));
      });
      return {
        items,
        rejected,
        page: shape.page,
        perPage: shape.perPage,
        total: shape.total,
        next: nextFromLinkHeader(answer.headers?.get('link') ?? null) ?? shape.next,
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

/** The page number a list query asks for: 1 unless it says, none when it follows a link or cursor. */
function pageAsked(query: Query | undefined): number | null {
  if (query?.next_url !== undefined || query?.cursor !== undefined) return null;
  if (query?.starting_after !== undefined || query?.offset !== undefined) return null;
  return Number(query?.page ?? 1);
}

/**
 * A list call as sent: a next-page link from the server replaces the query, and must stay on the
 * base URL's origin, the only one the token is sent to.
 */
function listCall(call: Call, base: string): Call {
  const link = call.query?.next_url;
  if (link === undefined) return call;
  const url = new URL(String(link), base + call.path);
  if (url.origin !== new URL(base).origin) {
    throw new PlatformError({
      kind: 'bad_response',
      method: call.method,
      path: call.path,
      serverMessage: `the next page is on another site (${url.origin}); Pressroom sends its token only to ${new URL(base).origin}`,
    });
  }
  return { ...call, url, path: url.pathname, query: undefined };
}

function rejectedItem(item: unknown, index: number, error: z.ZodError): RejectedItem {
  const raw =
    typeof item === 'object' && item !== null ? (item as Record<string, unknown>).id : null;
  const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null;
  const issues = summarizeIssues(describeIssues(error.issues));
  return { id, why: `item ${index}${id === null ? '' : ` (id ${id})`}: ${issues}` };
}

/** A write answered with a redirect, which `redirect: 'manual'` did not follow. */
function redirected(call: Call, response: Response, url: URL): PlatformError {
  const location = response.headers.get('location');
  const target = location ? new URL(location, url) : null;
  const said = target
    ? `the base URL redirects to ${target.origin}${target.pathname}; use that address`
    : 'the base URL redirects elsewhere without saying where';
  return new PlatformError({
    kind: 'bad_response',
    method: call.method,
    path: call.path,
    status: response.status,
    serverMessage: said,
  });
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
    createdId: sent ? idOfLocation(answer.headers?.get('location') ?? null) : null,
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
