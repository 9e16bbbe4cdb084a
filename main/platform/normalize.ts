// Tolerant reading of the platform's answers (Node, main process): whatever reasonable shape a
// platform sends (docs/platform-api.md, "Client tolerance") becomes one canonical object. Unknown
// fields are kept, ids become strings, instants ISO UTC, money exact minor units.
import { z } from 'zod';
import { decimalToMinor, isCurrency, minorToDecimal } from '../../shared/money';
import type { FieldError } from './wire';

type Raw = Record<string, unknown>;

const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const id = z.union([z.string().min(1), z.number()]).transform(String);
const nullableId = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) =>
    value === null || value === undefined || value === '' ? null : String(value),
  );
const nullableText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/** ISO UTC from an ISO-ish string, or from epoch seconds / milliseconds told apart by magnitude. */
function toIso(value: string | number): string | null {
  const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const nullableInstant = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value, context) => {
    if (value === null || value === undefined || value === '') return null;
    const iso = toIso(value);
    if (iso === null)
      context.addIssue({ code: 'custom', message: `"${value}" is not a date-time` });
    return iso;
  });

/** The first of `keys` that the object has (not null or undefined). */
function first(raw: Raw, keys: readonly string[]): unknown {
  for (const key of keys) if (raw[key] !== undefined && raw[key] !== null) return raw[key];
  return undefined;
}

/** Renames alternative field names to the canonical one before the schema reads the object. */
function aliases(map: Record<string, readonly string[]>) {
  return (value: unknown) => {
    if (!isRecord(value)) return value;
    const copy: Raw = { ...value };
    for (const [canonical, alternatives] of Object.entries(map)) {
      if (copy[canonical] === undefined) {
        const found = first(copy, alternatives);
        if (found !== undefined) copy[canonical] = found;
      }
    }
    return copy;
  };
}

type MoneyResult = { ok: true; minor: number; currency: string } | { ok: false; reason: string };

/**
 * Money under `field` in any accepted form: decimal text, a JSON number (read through its decimal
 * text), integer minor units under `<field>_cents` / `<field>_minor` / `amount_minor`, or an object
 * `{ amount, currency }`.
 */
function readMoney(raw: Raw, field: string, fallbackCurrency: unknown): MoneyResult {
  let value = raw[field];
  let currency = raw.currency ?? fallbackCurrency;
  if (isRecord(value)) {
    currency = value.currency ?? currency;
    value = value.amount ?? value.value;
  }
  if (typeof currency !== 'string' || !isCurrency(currency.toUpperCase())) {
    return { ok: false, reason: `${field} has no known ISO 4217 currency` };
  }
  const code = currency.toUpperCase();
  if (typeof value === 'string' || typeof value === 'number') {
    const read = decimalToMinor(String(value).trim(), code);
    return read.ok
      ? { ok: true, minor: read.minor, currency: code }
      : { ok: false, reason: `${field} ${read.reason}` };
  }
  const minor = first(raw, [`${field}_cents`, `${field}_minor`, 'amount_minor']);
  if (typeof minor === 'number' && Number.isSafeInteger(minor))
    return { ok: true, minor, currency: code };
  return { ok: false, reason: `${field} is missing` };
}

function withMoney<T extends Raw>(field: string, fallbackCurrency?: (raw: T) => unknown) {
  return (raw: T, context: z.RefinementCtx) => {
    const money = readMoney(raw, field, fallbackCurrency?.(raw));
    if (!money.ok) {
      context.addIssue({ code: 'custom', path: [field], message: money.reason });
      return z.NEVER;
    }
    return {
      ...raw,
      [field]: minorToDecimal(money.minor, money.currency),
      [`${field}_minor`]: money.minor,
      currency: money.currency,
    } as T & Record<string, string | number> & { currency: string };
  };
}

export const botSchema = z.looseObject({
  id,
  name: z.string().default(''),
  description: nullableText,
  channel: z.string().default('web'),
  status: z.string().default('active'),
  subscriber_count: z
    .number()
    .nullish()
    .transform((value) => value ?? null),
  client_reference: nullableText,
  created_at: nullableInstant,
  updated_at: nullableInstant,
});

const tag = z.union([z.string(), z.looseObject({ name: z.string() }).transform((t) => t.name)]);

export const subscriberSchema = z.looseObject({
  id,
  bot_id: nullableId,
  name: z.string().default(''),
  handle: nullableText,
  language: nullableText,
  tags: z
    .union([
      z.array(tag),
      z.string().transform((text) =>
        text
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ])
    .nullish()
    .transform((tags) => tags ?? []),
  status: z.string().default('active'),
  created_at: nullableInstant,
  last_seen_at: nullableInstant,
});

export const messageSchema = z.preprocess(
  aliases({ text: ['content', 'body'] }),
  z.looseObject({
    id,
    subscriber_id: nullableId,
    bot_id: nullableId,
    text: z.string().default(''),
    status: z.string().default('sent'),
    client_reference: nullableText,
    created_at: nullableInstant,
  }),
);

const SCHEDULED = new Set(['scheduled', 'pending', 'queued']);
const PUBLISHED = new Set(['published', 'sent', 'live', 'posted']);

export const postSchema = z.preprocess(
  aliases({ text: ['content', 'message', 'body', 'caption'], media_urls: ['media'] }),
  z
    .looseObject({
      id,
      bot_id: nullableId,
      text: z.string(),
      media_urls: z
        .array(z.string())
        .nullish()
        .transform((urls) => urls ?? []),
      status: z.string().nullish(),
      scheduled_at: nullableInstant,
      published_at: nullableInstant,
      client_reference: nullableText,
      created_at: nullableInstant,
    })
    .transform((post) => {
      const said = post.status?.toLowerCase() ?? '';
      const status: 'scheduled' | 'published' = PUBLISHED.has(said)
        ? 'published'
        : SCHEDULED.has(said)
          ? 'scheduled'
          : post.published_at
            ? 'published'
            : 'scheduled';
      return { ...post, status };
    }),
);

export const productSchema = z.preprocess(
  aliases({ name: ['title'], image_url: ['image'] }),
  z
    .looseObject({
      id,
      sku: z.union([z.string(), z.number()]).transform(String),
      name: z.string().default(''),
      description: nullableText,
      stock: z
        .number()
        .int()
        .nullish()
        .transform((value) => value ?? null),
      image_url: nullableText,
      status: z.string().default('active'),
      client_reference: nullableText,
      created_at: nullableInstant,
      updated_at: nullableInstant,
    })
    .transform(withMoney('price'))
    .transform((product) => product as typeof product & { price: string; price_minor: number }),
);

const orderItemSchema = (currency: unknown) =>
  z
    .looseObject({
      product_id: nullableId,
      sku: z.string().default(''),
      name: z.string().default(''),
      quantity: z.number().int().default(1),
    })
    .transform(withMoney('unit_price', () => currency))
    .transform((item) => item as typeof item & { unit_price: string; unit_price_minor: number });

export const orderSchema = z
  .looseObject({
    id,
    number: z
      .union([z.string(), z.number()])
      .nullish()
      .transform((value) => (value === null || value === undefined ? null : String(value))),
    bot_id: nullableId,
    subscriber_id: nullableId,
    status: z.string().default('pending'),
    items: z.array(z.unknown()).nullish(),
    created_at: nullableInstant,
  })
  .transform(withMoney('total'))
  .transform((order, context) => {
    const items = z.array(orderItemSchema(order.currency)).safeParse(order.items ?? []);
    if (!items.success) {
      for (const issue of items.error.issues)
        context.addIssue({ ...issue, path: ['items', ...issue.path] });
      return z.NEVER;
    }
    return {
      ...order,
      total: String(order.total),
      total_minor: Number(order.total_minor),
      items: items.data,
    };
  });

const attemptSchema = z.looseObject({
  provider: z.string(),
  outcome: z.string().default('ok'),
  latency_ms: z.number().nullish(),
  error: nullableText,
});

export const aiChatSchema = z.unknown().transform((value, context) => {
  if (!isRecord(value)) {
    context.addIssue({ code: 'custom', message: 'the answer is not an object' });
    return z.NEVER;
  }
  const choice = Array.isArray(value.choices) && isRecord(value.choices[0]) ? value.choices[0] : {};
  const message = isRecord(value.message)
    ? value.message
    : isRecord(choice.message)
      ? choice.message
      : {};
  const content = first({ ...value, message_content: message.content }, [
    'message_content',
    'content',
    'text',
    'output',
  ]);
  if (typeof content !== 'string') {
    context.addIssue({
      code: 'custom',
      path: ['message', 'content'],
      message: 'the answer has no text',
    });
    return z.NEVER;
  }
  const usage = isRecord(value.usage) ? value.usage : {};
  const tokens = (keys: string[]) => {
    const count = first(usage, keys);
    return typeof count === 'number' ? count : 0;
  };
  const prompt = tokens(['prompt_tokens', 'input_tokens']);
  const completion = tokens(['completion_tokens', 'output_tokens']);
  const attempts = z.array(attemptSchema).safeParse(value.attempts ?? []);
  const provider = typeof value.provider === 'string' ? value.provider : 'unknown';
  return {
    ...value,
    id: value.id === undefined || value.id === null ? null : String(value.id),
    provider,
    model: typeof value.model === 'string' ? value.model : provider,
    message: { role: 'assistant' as const, content },
    finish_reason: String(value.finish_reason ?? choice.finish_reason ?? 'stop'),
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: tokens(['total_tokens']) || prompt + completion,
    },
    cost_usd:
      value.cost_usd === undefined || value.cost_usd === null ? null : String(value.cost_usd),
    attempts: attempts.success ? attempts.data : [],
  };
});

const usageTotals = {
  requests: z.number().default(0),
  prompt_tokens: z.number().default(0),
  completion_tokens: z.number().default(0),
  cost_usd: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => (value === null || value === undefined ? null : String(value))),
};

const withTotal = <
  T extends { prompt_tokens: number; completion_tokens: number; total_tokens?: number | undefined },
>(
  totals: T,
) => ({
  ...totals,
  total_tokens: totals.total_tokens ?? totals.prompt_tokens + totals.completion_tokens,
});

const usageDaySchema = z
  .looseObject({
    date: z.string(),
    ...usageTotals,
    total_tokens: z.number().optional(),
    providers: z
      .array(
        z
          .looseObject({
            provider: z.string(),
            ...usageTotals,
            total_tokens: z.number().optional(),
          })
          .transform(withTotal),
      )
      .nullish()
      .transform((providers) => providers ?? []),
  })
  .transform(withTotal);

export const aiUsageSchema = z
  .union([
    z.array(z.unknown()).transform((data) => ({ data })),
    z.looseObject({ data: z.array(z.unknown()) }),
  ])
  .pipe(
    z.looseObject({
      from: z
        .string()
        .nullish()
        .transform((value) => value ?? null),
      to: z
        .string()
        .nullish()
        .transform((value) => value ?? null),
      data: z.array(usageDaySchema),
    }),
  );

export const webhookSchema = z.looseObject({
  id,
  url: z.string(),
  events: z.array(z.string()).default([]),
  secret: nullableText,
  active: z.boolean().default(true),
  created_at: nullableInstant,
});

export type Bot = z.output<typeof botSchema>;
export type Subscriber = z.output<typeof subscriberSchema>;
export type Message = z.output<typeof messageSchema>;
export type Post = z.output<typeof postSchema>;
export type Product = z.output<typeof productSchema>;
export type Order = z.output<typeof orderSchema>;
export type AiChat = z.output<typeof aiChatSchema>;
export type AiUsageReport = z.output<typeof aiUsageSchema>;
export type WebhookSubscriptionInfo = z.output<typeof webhookSchema>;

/** One object, bare or wrapped in `data`. */
export function unwrapOne(body: unknown): unknown {
  if (isRecord(body) && isRecord(body.data) && body.id === undefined) return body.data;
  return body;
}

export interface ListShape {
  items: unknown[];
  page: number | null;
  perPage: number | null;
  total: number | null;
  nextPage: number | null;
  hasMore: boolean | null;
}

const numberOrNull = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** A list as a bare array, or under data / items / results, with paging facts wherever they are. */
export function readList(body: unknown): ListShape | null {
  if (Array.isArray(body))
    return { items: body, page: null, perPage: null, total: null, nextPage: null, hasMore: null };
  if (!isRecord(body)) return null;
  const items = first(body, ['data', 'items', 'results']);
  if (!Array.isArray(items)) return null;
  const meta = isRecord(body.meta)
    ? { ...body, ...body.meta }
    : isRecord(body.pagination)
      ? { ...body, ...body.pagination }
      : body;
  const hasMore = first(meta, ['has_more', 'hasMore']);
  return {
    items,
    page: numberOrNull(first(meta, ['page', 'current_page'])),
    perPage: numberOrNull(first(meta, ['per_page', 'perPage', 'page_size', 'limit'])),
    total: numberOrNull(first(meta, ['total', 'total_count', 'count'])),
    nextPage: numberOrNull(first(meta, ['next_page', 'nextPage'])),
    hasMore: typeof hasMore === 'boolean' ? hasMore : null,
  };
}

export interface ErrorFacts {
  code: string | null;
  message: string | null;
  fieldErrors: FieldError[];
  existingId: string | null;
  requestId: string | null;
}

function fieldErrorsOf(value: unknown): FieldError[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry): FieldError[] => {
      if (typeof entry === 'string') return [{ field: '', message: entry }];
      if (!isRecord(entry)) return [];
      const field = first(entry, ['field', 'path', 'param', 'name', 'provider']);
      const message = first(entry, ['message', 'error', 'detail', 'msg']);
      if (typeof message !== 'string') return [];
      return [{ field: Array.isArray(field) ? field.join('.') : String(field ?? ''), message }];
    });
  }
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([field, messages]) =>
      (Array.isArray(messages) ? messages : [messages])
        .filter((message): message is string => typeof message === 'string')
        .map((message) => ({ field, message })),
    );
  }
  return [];
}

/** The facts of an error answer, whatever its body looks like (JSON of several shapes, or text). */
export function readErrorBody(body: unknown, text: string): ErrorFacts {
  const outer = isRecord(body) ? body : {};
  const inner = isRecord(outer.error) ? outer.error : outer;
  const message =
    first(inner, ['message', 'error_description', 'detail', 'title']) ??
    (typeof outer.error === 'string' ? outer.error : undefined);
  const trimmed = text.trim();
  const existing =
    first(inner, ['existing_id', 'existingId']) ?? first(outer, ['existing_id', 'existingId']);
  const requestId =
    first(inner, ['request_id', 'requestId']) ?? first(outer, ['request_id', 'requestId']);
  return {
    code: typeof inner.code === 'string' ? inner.code : null,
    message:
      typeof message === 'string'
        ? message
        : body === undefined && trimmed
          ? trimmed.slice(0, 300)
          : null,
    fieldErrors: fieldErrorsOf(first(inner, ['details', 'errors', 'fields']) ?? outer.errors),
    existingId: existing === undefined ? null : String(existing),
    requestId: requestId === undefined ? null : String(requestId),
  };
}
