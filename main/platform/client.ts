// The typed client of Platform API v1 (Node, main process): one function per endpoint, a bearer
// token and a timeout on every request, typed errors, and rate-limit headers parsed from every
// answer (transport.ts). It decides nothing about when to send: the engine's governor does.
import type { z } from 'zod';
import { botSchema, webhookSchema } from './normalize/account';
import type { Bot, WebhookSubscriptionInfo } from './normalize/account';
import { aiChatSchema, aiUsageSchema } from './normalize/ai';
import type { AiChat, AiUsageReport } from './normalize/ai';
import { unwrapOne } from './normalize/lists';
import type { PageRequest } from './normalize/lists';
import type { Page } from './lists';
import { messageSchema, orderReader, subscriberSchema } from './normalize/people';
import type { Message, Order, Subscriber } from './normalize/people';
import { postSchema } from './normalize/posts';
import type { Post } from './normalize/posts';
import { productSchema } from './normalize/products';
import type { Product } from './normalize/products';
import { Transport, read } from './transport';
import type { Call, ItemReader, PlatformClientOptions, Query, RequestOptions } from './transport';
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
export type { PlatformClientOptions, RequestOptions, ResponseInfo } from './transport';

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

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const transport = new Transport(options);
  const request = (call: Call) => transport.request(call);
  const one =
    <S extends z.ZodType>(schema: S) =>
    (call: Call) =>
      transport.one(schema, call);
  const list =
    <T>(reader: ItemReader<T>) =>
    (call: Call) =>
      transport.list(reader, call);
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
      list(orderReader)({ method: 'GET', path: '/orders', query: query as Query, options: o }),
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
