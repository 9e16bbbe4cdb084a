// The wire format of Platform API v1 as Pressroom reads it (docs/platform-api.md): what the
// reference server sends and what the client normalises any platform's answers into.
// Runs in Node (main process); imported by the client and the reference server alike.

export const API_PREFIX = '/api/v1';

import type { PLANS } from '../../shared/connection';

export type Plan = keyof typeof PLANS;

export { PLANS, RESET_FORMATS } from '../../shared/connection';
export type { ResetFormat } from '../../shared/connection';

export const EVENT_TYPES = ['message.received', 'order.created', 'comment.posted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const BOT_CHANNELS = ['telegram', 'whatsapp', 'messenger', 'instagram', 'web'] as const;
export type BotChannel = (typeof BOT_CHANNELS)[number];
export type BotStatus = 'active' | 'paused';
export type PostStatus = 'scheduled' | 'published';
export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type ChatRole = 'system' | 'user' | 'assistant';

/** RFC 3339 instant in UTC, e.g. 2026-11-22T15:04:05.000Z. */
export type Instant = string;

export interface Bot {
  id: string;
  name: string;
  description: string | null;
  channel: string;
  status: BotStatus;
  subscriber_count: number;
  client_reference: string | null;
  created_at: Instant;
  updated_at: Instant;
}

export interface Subscriber {
  id: string;
  bot_id: string;
  name: string;
  handle: string | null;
  language: string | null;
  tags: string[];
  status: 'active' | 'unsubscribed';
  created_at: Instant;
  last_seen_at: Instant | null;
}

export interface Message {
  id: string;
  subscriber_id: string;
  bot_id: string;
  text: string;
  status: string;
  client_reference: string | null;
  created_at: Instant;
}

export interface Post {
  id: string;
  bot_id: string;
  text: string;
  media_urls: string[];
  status: PostStatus;
  scheduled_at: Instant | null;
  published_at: Instant | null;
  client_reference: string | null;
  created_at: Instant;
}

export interface Product {
  id: string;
  sku: string;
  name: string;
  description: string | null;
  /** Decimal text in major units, e.g. "19.99". */
  price: string;
  currency: string;
  stock: number | null;
  image_url: string | null;
  status: string;
  client_reference: string | null;
  created_at: Instant;
  updated_at: Instant;
}

export interface OrderItem {
  product_id: string | null;
  sku: string;
  name: string;
  quantity: number;
  unit_price: string;
}

export interface Order {
  id: string;
  number: string;
  bot_id: string | null;
  subscriber_id: string | null;
  status: OrderStatus;
  currency: string;
  total: string;
  items: OrderItem[];
  created_at: Instant;
}

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface AiAttempt {
  provider: string;
  outcome: 'ok' | 'failed';
  latency_ms: number;
  error?: string;
}

export interface AiChatResponse {
  id: string;
  provider: string;
  model: string;
  message: { role: 'assistant'; content: string };
  finish_reason: 'stop' | 'length';
  usage: TokenUsage;
  cost_usd: string;
  attempts: AiAttempt[];
}

export interface AiUsageTotals extends TokenUsage {
  requests: number;
  cost_usd: string;
}

export interface AiUsageDay extends AiUsageTotals {
  date: string;
  providers: (AiUsageTotals & { provider: string })[];
}

export interface AiUsage {
  from: string;
  to: string;
  data: AiUsageDay[];
}

export interface WebhookSubscription {
  id: string;
  url: string;
  events: EventType[];
  secret: string;
  active: boolean;
  created_at: Instant;
}

export interface Comment {
  id: string;
  post_id: string | null;
  bot_id: string;
  author_name: string;
  text: string;
  created_at: Instant;
}

export type WebhookEvent =
  | { id: string; type: 'order.created'; created_at: Instant; data: { order: Order } }
  | {
      id: string;
      type: 'message.received';
      created_at: Instant;
      data: { message: Omit<Message, 'status' | 'client_reference'>; subscriber: Subscriber };
    }
  | { id: string; type: 'comment.posted'; created_at: Instant; data: { comment: Comment } };

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  next_page: number | null;
}

export interface ListEnvelope<T> {
  data: T[];
  meta: PageMeta;
}

export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    details?: FieldError[] | AiAttempt[];
    request_id: string;
    existing_id?: string;
    retry_after?: number;
  };
}

export const MAX_PER_PAGE = 200;
export const DEFAULT_PER_PAGE = 50;

/** Headers of webhook deliveries (docs/platform-api.md, "Webhook deliveries"). */
export const WEBHOOK_HEADERS = {
  subscription: 'x-webhook-id',
  eventId: 'x-event-id',
  eventType: 'x-event-type',
  attempt: 'x-webhook-attempt',
  signature: 'x-webhook-signature',
} as const;
