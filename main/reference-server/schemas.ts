// Request schemas of the reference server (Node, main process): the strict side of
// docs/platform-api.md. Bodies refuse unknown fields; queries ignore them.
import { z } from 'zod';
import { decimalToMinor, isCurrency } from '../../shared/money';
import { LIMITS } from '../../shared/limits';
import { httpUrl, instantWithOffset, isRealDate, text } from '../../shared/validation';
import {
  BOT_CHANNELS,
  DEFAULT_PER_PAGE,
  EVENT_TYPES,
  MAX_PER_PAGE,
  ORDER_STATUSES,
} from '../platform/wire';

const clientReference = text(1, 128).optional();
const nullableText = (max: number) => z.union([text(0, max), z.null()]).optional();

export const botCreate = z.strictObject({
  name: text(1, LIMITS.botName),
  description: nullableText(LIMITS.botDescription),
  channel: z
    .enum(BOT_CHANNELS, { error: `must be one of ${BOT_CHANNELS.join(', ')}` })
    .default('web'),
  status: z.enum(['active', 'paused'], { error: 'must be active or paused' }).default('active'),
  client_reference: clientReference,
});

export const botPatch = z
  .strictObject({
    name: text(1, LIMITS.botName).optional(),
    description: nullableText(500),
    status: z.enum(['active', 'paused'], { error: 'must be active or paused' }).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, {
    error: 'give at least one of name, description, status',
  })
  .meta({ minProperties: 1 });

export const messageCreate = z.strictObject({
  text: text(1, LIMITS.messageText),
  client_reference: clientReference,
});

export const tagAdd = z.strictObject({
  tag: text(1, LIMITS.tag).refine((tag) => !tag.includes(','), {
    error: 'must not contain commas',
  }),
});

export const postCreate = z.strictObject({
  bot_id: z.string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a bot id'),
  }),
  text: text(1, LIMITS.postText),
  media_urls: z
    .array(httpUrl.meta({ format: 'uri', description: 'An absolute http or https URL' }))
    .max(LIMITS.postMediaUrls, { error: `must have at most ${LIMITS.postMediaUrls} URLs` })
    .default([]),
  scheduled_at: instantWithOffset.nullable().optional().meta({
    description:
      'RFC 3339 with an offset. Absent, null or not in the future: published at once; at most 365 days ahead',
  }),
  client_reference: clientReference,
});

/** Money arrives as decimal text or a JSON number; a number is read through its decimal text. */
const price = z
  .union([z.string(), z.number()], { error: 'must be a decimal such as "19.99"' })
  .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
  .meta({
    description:
      'Decimal text in major units ("19.99"), or a JSON number read through its decimal text; no more fraction digits than the currency has in ISO 4217',
  });

export const productCreate = z
  .strictObject({
    sku: z
      .string({
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
      })
      .min(1, { error: 'must not be empty' })
      .max(LIMITS.productSku, { error: `must be at most ${LIMITS.productSku} characters` })
      .refine((sku) => sku.trim() === sku, { error: 'must not start or end with white space' }),
    name: text(1, LIMITS.productName),
    description: nullableText(LIMITS.productDescription),
    price,
    currency: z
      .string()
      .refine(isCurrency, { error: 'must be an ISO 4217 currency code such as USD' })
      .meta({ description: 'ISO 4217 currency code, e.g. EUR' }),
    stock: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must not be negative' })
      .nullable()
      .optional(),
    image_url: httpUrl.nullable().optional().meta({ description: 'An absolute http or https URL' }),
    client_reference: clientReference,
  })
  .transform((product, context) => {
    const minor = decimalToMinor(product.price, product.currency);
    if (!minor.ok) {
      context.addIssue({ code: 'custom', path: ['price'], message: minor.reason });
      return z.NEVER;
    }
    return { ...product, priceMinor: minor.minor };
  });

export const chatRequest = z.strictObject({
  messages: z
    .array(
      z.strictObject({
        role: z.enum(['system', 'user', 'assistant'], {
          error: 'must be system, user or assistant',
        }),
        content: z
          .string()
          .min(1, { error: 'must not be empty' })
          .max(20_000, { error: 'must be at most 20000 characters' }),
      }),
    )
    .min(1, { error: 'must have at least one message' })
    .max(50, { error: 'must have at most 50 messages' }),
  max_tokens: z
    .number()
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(4096, { error: 'must be at most 4096' })
    .default(256),
  provider: z.string().min(1).default('auto').meta({
    description: 'auto (the cheapest healthy provider, with failover) or one provider by name',
  }),
  temperature: z
    .number()
    .min(0, { error: 'must be between 0 and 2' })
    .max(2, { error: 'must be between 0 and 2' })
    .optional(),
});

export const webhookCreate = z.strictObject({
  url: httpUrl.meta({
    format: 'uri',
    description: 'An absolute http or https URL; loopback addresses are allowed',
  }),
  events: z
    .array(z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }))
    .min(1, { error: 'must name at least one event' })
    .refine((events) => new Set(events).size === events.length, {
      error: 'must not repeat an event',
    }),
  secret: text(16, 128)
    .optional()
    .meta({ description: 'Signing secret; when absent the server makes one (whsec_…)' }),
});

// Queries arrive as strings; absent parameters are undefined.

const positiveInt = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: 'must be a whole number' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: `must be between 1 and ${max}` })
    .optional()
    .transform((n) => n ?? fallback)
    // On the wire a query integer is its digits, so the document says integer.
    .meta({ type: 'integer', minimum: 1, maximum: max, default: fallback });

export const pageQuery = z.object({
  page: positiveInt(Number.MAX_SAFE_INTEGER, 1),
  per_page: positiveInt(MAX_PER_PAGE, DEFAULT_PER_PAGE),
});

const queryInstant = instantWithOffset.optional();

export const botsQuery = pageQuery.extend({ status: z.string().optional() });
export const subscribersQuery = pageQuery.extend({
  bot_id: z.string().optional(),
  tag: z.string().optional(),
  status: z.string().optional(),
  q: z.string().optional(),
});
export const postsQuery = pageQuery.extend({
  bot_id: z.string().optional(),
  status: z.string().optional(),
  client_reference: z.string().optional(),
  from: queryInstant,
  to: queryInstant,
});
export const productsQuery = pageQuery.extend({
  sku: z.string().optional(),
  client_reference: z.string().optional(),
  q: z.string().optional(),
});
export const ordersQuery = pageQuery.extend({
  status: z
    .enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` })
    .optional(),
  bot_id: z.string().optional(),
  since: queryInstant,
  until: queryInstant,
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date such as 2026-11-22' })
  .refine(isRealDate, { error: 'is not a real date' })
  .optional();
export const usageQuery = z.object({ from: day, to: day });
