// Response schemas of the reference server (Node, main process): the shapes its handlers answer
// with, as zod schemas so that openapi.ts can describe them. Each one `satisfies` the wire type the
// store builds the answer as, so a field the wire type has and the schema lacks fails the type check (and the document's types are checked against the wire types the other way), and
// the contract test (test/reference-server/contract.test.ts) checks every real answer against them.
import { z } from 'zod';
import { BOT_CHANNELS, EVENT_TYPES, ORDER_STATUSES } from '../platform/wire';
import type * as wire from '../platform/wire';

export const instant = z.iso.datetime().meta({
  description: 'RFC 3339 instant in UTC with milliseconds, e.g. 2026-11-22T15:04:05.000Z',
});
const nullableInstant = instant.nullable();
const id = (prefix: string) =>
  z.string().meta({ description: `Opaque id; this server's start with \`${prefix}_\`` });
export const money = z
  .string()
  .regex(/^\d+(\.\d+)?$/)
  .meta({
    description:
      'Decimal text in major units, with no more fraction digits than the currency has in ISO 4217, e.g. "19.99"',
  });
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .meta({ description: 'ISO 4217 currency code' });
const count = z.number().int().min(0);
export const day = z.iso.date().meta({ description: 'A UTC day, YYYY-MM-DD' });
const clientReference = z.string().nullable().meta({
  description:
    'What the client sent on create (not unique); lets a client whose write had an unknown outcome look the item up before sending it again',
});

export const bot = z.object({
  id: id('bot'),
  name: z.string(),
  description: z.string().nullable(),
  channel: z.enum(BOT_CHANNELS),
  status: z.enum(['active', 'paused']),
  subscriber_count: count,
  client_reference: clientReference,
  created_at: instant,
  updated_at: instant,
}) satisfies z.ZodType<wire.Bot>;

export const subscriber = z.object({
  id: id('sub'),
  bot_id: id('bot'),
  name: z.string(),
  handle: z.string().nullable(),
  language: z.string().nullable().meta({ description: 'BCP 47 language tag' }),
  tags: z.array(z.string()),
  status: z.enum(['active', 'unsubscribed']),
  created_at: instant,
  last_seen_at: nullableInstant,
}) satisfies z.ZodType<wire.Subscriber>;

export const message = z.object({
  id: id('msg'),
  subscriber_id: id('sub'),
  bot_id: id('bot'),
  text: z.string(),
  status: z.literal('sent'),
  client_reference: clientReference,
  created_at: instant,
}) satisfies z.ZodType<wire.Message>;

export const post = z.object({
  id: id('post'),
  bot_id: id('bot'),
  text: z.string(),
  media_urls: z.array(z.string()),
  status: z.enum(['scheduled', 'published']).meta({
    description: 'scheduled → published is the only transition; the platform publishes when due',
  }),
  scheduled_at: nullableInstant.meta({
    description: 'The time asked for; null when published on creation',
  }),
  published_at: nullableInstant,
  client_reference: clientReference,
  created_at: instant,
}) satisfies z.ZodType<wire.Post>;

export const product = z.object({
  id: id('prod'),
  sku: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: money,
  currency,
  stock: count.nullable().meta({ description: 'null: stock is not tracked' }),
  image_url: z.string().nullable(),
  status: z.literal('active'),
  client_reference: clientReference,
  created_at: instant,
  updated_at: instant,
}) satisfies z.ZodType<wire.Product>;

export const orderItem = z.object({
  product_id: id('prod').nullable().meta({ description: 'null once the product is deleted' }),
  sku: z.string(),
  name: z.string(),
  quantity: z.number().int().min(1),
  unit_price: money,
}) satisfies z.ZodType<wire.OrderItem>;

export const order = z.object({
  id: id('ord'),
  number: z.string(),
  bot_id: id('bot').nullable(),
  subscriber_id: id('sub').nullable().meta({ description: 'null once the buyer is deleted' }),
  status: z.enum(ORDER_STATUSES),
  currency,
  total: money,
  items: z.array(orderItem),
  created_at: instant,
}) satisfies z.ZodType<wire.Order>;

const tokenUsage = {
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
};

export const aiAttempt = z.object({
  provider: z.string(),
  outcome: z.enum(['ok', 'failed']),
  latency_ms: count,
  error: z.string().optional().meta({ description: 'Why the attempt failed' }),
}) satisfies z.ZodType<wire.AiAttempt>;

export const aiChatResponse = z.object({
  id: id('chat'),
  provider: z.string(),
  model: z.string(),
  message: z.object({ role: z.literal('assistant'), content: z.string() }),
  finish_reason: z.enum(['stop', 'length']).meta({
    description: 'length: the answer was cut at max_tokens',
  }),
  usage: z.object(tokenUsage),
  cost_usd: money,
  attempts: z.array(aiAttempt).meta({
    description: 'Every provider tried, in order; failed ones name their error',
  }),
}) satisfies z.ZodType<wire.AiChatResponse>;

const usageTotals = { ...tokenUsage, requests: count, cost_usd: money };

export const aiUsage = z.object({
  from: day,
  to: day,
  data: z
    .array(
      z.object({
        date: day,
        ...usageTotals,
        providers: z.array(z.object({ provider: z.string(), ...usageTotals })),
      }),
    )
    .meta({ description: 'One entry per UTC day of the range, days without use included' }),
}) satisfies z.ZodType<wire.AiUsage>;

export const webhookSubscription = z.object({
  id: id('wh'),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  secret: z.string().meta({ description: 'The signing secret; shown only in this answer' }),
  active: z.boolean(),
  created_at: instant,
}) satisfies z.ZodType<wire.WebhookSubscription>;

export const comment = z.object({
  id: id('cmt'),
  post_id: id('post').nullable(),
  bot_id: id('bot'),
  author_name: z.string(),
  text: z.string(),
  created_at: instant,
}) satisfies z.ZodType<wire.Comment>;

const event = <T extends wire.EventType, D extends z.ZodRawShape>(type: T, data: D) =>
  z.object({
    id: id('evt'),
    type: z.literal(type),
    created_at: instant,
    data: z.object(data),
  });

export const webhookEvents = {
  'message.received': event('message.received', {
    message: message.omit({ status: true, client_reference: true }),
    subscriber,
  }),
  'order.created': event('order.created', { order }),
  'comment.posted': event('comment.posted', { comment }),
} satisfies Record<wire.EventType, z.ZodType<wire.WebhookEvent>>;

export const pageMeta = z.object({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1),
  total: count,
  total_pages: count,
  next_page: z.number().int().min(2).nullable().meta({
    description: 'The page after this one; null on the last page, which ends the list',
  }),
}) satisfies z.ZodType<wire.PageMeta>;

export const fieldError = z.object({
  field: z.string().meta({ description: 'Path of the field, e.g. media_urls[1]' }),
  message: z.string(),
}) satisfies z.ZodType<wire.FieldError>;

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z
      .union([z.array(fieldError), z.array(aiAttempt)])
      .optional()
      .meta({
        description: 'Each invalid field on 400/422; each provider attempt on 503 ai_unavailable',
      }),
    request_id: z.string(),
    existing_id: z.string().optional().meta({ description: 'On 409 duplicate_sku' }),
    retry_after: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({ description: 'On 429: seconds to wait, as in Retry-After' }),
  }),
}) satisfies z.ZodType<wire.ErrorBody>;
