// Tolerant reading of the platform's answers (Node, main process): whatever reasonable shape a
// platform sends (docs/platform-api.md, "Client tolerance") becomes one canonical object. Unknown
// fields are kept, ids become exact strings, instants ISO UTC, money exact minor units.
import { isInteger, isSafeNumber, parse as parseLossless } from 'lossless-json';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { decimalToMinor, isCurrency, minorToDecimal } from '../../shared/money';
import type { FieldError } from './wire';

type Raw = Record<string, unknown>;

const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sixteen digits in a row somewhere: the only texts that may hold an integer past 2^53. */
const LONG_DIGITS = /\d{16}/;

/**
 * JSON.parse, except that an integer too big for a double (an id past 2^53) is kept as its exact
 * digits in a string instead of being rounded. Texts without a long digit run take the fast path.
 */
export function parseJsonExact(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text) as unknown;
  return parseLossless(text, undefined, (digits) =>
    isInteger(digits) && !isSafeNumber(digits) ? digits : Number(digits),
  );
}

/** A number id is exact only as a safe integer; bigger ones arrive as digit strings (above). */
const id = z
  .union([z.string().min(1), z.number().refine(Number.isSafeInteger, 'is not an exact integer')])
  .transform(String);
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

/** Epoch seconds, milliseconds, microseconds or nanoseconds, told apart by magnitude. */
function epochMillis(value: number): number {
  const size = Math.abs(value);
  if (size < 1e11) return value * 1000; // seconds until the year 5138
  if (size < 1e14) return value;
  if (size < 1e17) return value / 1e3;
  return value / 1e6;
}

const EPOCH_TEXT = /^-?\d+(\.\d+)?$/;
const RFC_2822_ZONE = /(?:[+-]\d{4}|\b(?:UT|UTC|GMT|Z|[ECMP][SD]T))\s*$/i;

/** Milliseconds of a date-time text; a text without a zone or offset is UTC (docs/platform-api.md). */
function textMillis(text: string): number {
  const trimmed = text.trim();
  if (EPOCH_TEXT.test(trimmed)) return epochMillis(Number(trimmed));
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    try {
      return Temporal.Instant.from(trimmed).epochMilliseconds;
    } catch {
      // No offset (or not a valid one): a wall time in UTC, if it is one at all.
    }
    try {
      return Temporal.PlainDateTime.from(trimmed, { overflow: 'reject' }).toZonedDateTime('UTC')
        .epochMilliseconds;
    } catch {
      return NaN;
    }
  }
  // RFC 2822 and the like: Date.parse reads a zone-less one in this computer's zone, so add UTC.
  return Date.parse(RFC_2822_ZONE.test(trimmed) ? trimmed : `${trimmed} GMT`);
}

/** Years 0000–9999: what RFC 3339 can write, and far past any real post or order. */
const MIN_MS = -62_167_219_200_000; // 0000-01-01T00:00:00Z
const MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** ISO UTC from an ISO, SQL or RFC 2822 text, or from an epoch number or digit text; else null. */
export function toIso(value: string | number): string | null {
  const ms = typeof value === 'number' ? epochMillis(value) : textMillis(value);
  if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) return null;
  return new Date(Math.round(ms)).toISOString();
}

const nullableInstant = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value, context) => {
    if (value === null || value === undefined || value === '') return null;
    const iso = toIso(value);
    if (iso === null)
      context.addIssue({ code: 'custom', message: `"${value}" is not a possible date-time` });
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
  name: z.string(),
  description: nullableText,
  channel: nullableText,
  status: nullableText,
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
      name: z.string(),
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

/**
 * A JSON:API resource object `{ id, type, attributes, relationships }` as one flat record: the
 * attributes, the id, and each to-one relationship as `<name>_id`. Anything else is left as is.
 */
export function flattenResource(value: unknown): unknown {
  if (!isRecord(value) || !isRecord(value.attributes)) return value;
  const { attributes, relationships, type: _type, links: _links, ...rest } = value;
  const flat: Raw = { ...attributes, ...rest };
  if (isRecord(relationships)) {
    for (const [name, relationship] of Object.entries(relationships)) {
      const target = isRecord(relationship) ? relationship.data : undefined;
      if (isRecord(target) && target.id !== undefined) flat[`${name}_id`] ??= target.id;
    }
  }
  return flat;
}

/** One object, bare or wrapped in `data`. */
export function unwrapOne(body: unknown): unknown {
  if (isRecord(body) && isRecord(body.data) && body.id === undefined)
    return flattenResource(body.data);
  return flattenResource(body);
}

/** What to send for a page after the first: a page number, a cursor, or the server's own URL. */
export interface PageRequest {
  page?: number;
  cursor?: string;
  starting_after?: string;
  next_url?: string;
}

/** What an answer said about the page after it. */
export type NextMarker =
  { kind: 'request'; request: PageRequest } | { kind: 'last' } | { kind: 'unsaid' };

export interface ListShape {
  items: unknown[];
  page: number | null;
  perPage: number | null;
  total: number | null;
  next: NextMarker;
}

const numberOrNull = (value: unknown) => {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
};

const LAST: NextMarker = { kind: 'last' };
const UNSAID: NextMarker = { kind: 'unsaid' };
const ask = (request: PageRequest): NextMarker => ({ kind: 'request', request });

/** The value under the first of `keys` that one of `sources` has at all, null included. */
function said(sources: readonly Raw[], keys: readonly string[]): { value: unknown } | null {
  for (const source of sources)
    for (const key of keys) if (Object.hasOwn(source, key)) return { value: source[key] };
  return null;
}

/**
 * The next page as the body tells it, in this order: a next URL (`next`, `links.next`, `meta.next`,
 * `next_page_url`), a cursor (`next_cursor`, `cursor`, `has_more`), page numbers (`next_page`,
 * `last_page`, `total_pages`). A `total` alone is left to the reader, who counts what it has.
 */
function nextOf(
  sources: readonly Raw[],
  page: number | null,
  statedPage: number | null,
  lastId: unknown,
): NextMarker {
  const links = sources.flatMap((source) => (isRecord(source.links) ? [source.links] : []));
  const url = said([...sources, ...links], ['next', 'next_page_url', 'nextPageUrl']);
  if (url) {
    const value = isRecord(url.value) ? url.value.href : url.value;
    if (typeof value === 'string' && value !== '') {
      const isUrl = /^(https?:\/\/|\/|\?)/i.test(value);
      return ask(isUrl ? { next_url: value } : { cursor: value });
    }
    if (value === null || value === false) return LAST;
  }
  const hasMore = said(sources, ['has_more', 'hasMore']);
  if (hasMore?.value === false) return LAST;
  const cursor = said(sources, ['next_cursor', 'nextCursor', 'cursor']);
  if (cursor && (typeof cursor.value === 'string' || typeof cursor.value === 'number'))
    return cursor.value === '' ? LAST : ask({ cursor: String(cursor.value) });
  if (cursor?.value === null) return LAST;
  const nextPage = said(sources, ['next_page', 'nextPage']);
  if (nextPage)
    return numberOrNull(nextPage.value) === null ? LAST : ask({ page: Number(nextPage.value) });
  const lastPage = numberOrNull(
    said(sources, ['last_page', 'lastPage', 'total_pages', 'totalPages', 'page_count', 'pageCount'])
      ?.value,
  );
  if (lastPage !== null && page !== null) return page < lastPage ? ask({ page: page + 1 }) : LAST;
  if (hasMore?.value === true) {
    // Page numbers only if the server counts pages; else Stripe's way, after the last id.
    if (statedPage !== null) return ask({ page: statedPage + 1 });
    if (typeof lastId === 'string' || typeof lastId === 'number')
      return ask({ starting_after: String(lastId) });
  }
  return UNSAID;
}

/**
 * A list as a bare array, or under data / items / results, with paging facts wherever they are
 * (the top level, `meta`, `pagination`, `paging`). `requestedPage` is the page number asked for.
 */
export function readList(body: unknown, requestedPage: number | null): ListShape | null {
  if (Array.isArray(body))
    return {
      items: body.map(flattenResource),
      page: requestedPage,
      perPage: null,
      total: null,
      next: UNSAID,
    };
  if (!isRecord(body)) return null;
  const rawItems = first(body, ['data', 'items', 'results']);
  if (!Array.isArray(rawItems)) return null;
  const items = rawItems.map(flattenResource);
  const sources = [body, body.meta, body.pagination, body.paging, body.page_info].filter(isRecord);
  const fact = (keys: readonly string[]) => numberOrNull(said(sources, keys)?.value);
  const statedPage = fact(['page', 'current_page', 'currentPage']);
  const page = statedPage ?? requestedPage;
  const last = items.at(-1);
  return {
    items,
    page,
    perPage: fact(['per_page', 'perPage', 'page_size', 'pageSize', 'limit']),
    total: fact(['total', 'total_count', 'totalCount', 'count']),
    next: nextOf(sources, page, statedPage, isRecord(last) ? last.id : undefined),
  };
}

/** The next page's URL from a `Link` header (RFC 8288); a Link header without one means the last. */
export function nextFromLinkHeader(header: string | null): NextMarker | null {
  if (!header) return null;
  for (const link of header.split(/,(?=\s*<)/)) {
    const [target = '', ...params] = link.split(';');
    const url = /^\s*<([^>]*)>\s*$/.exec(target)?.[1];
    const rel = params
      .map((param) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(param)?.[1])
      .find((value) => value !== undefined);
    if (url && rel?.toLowerCase().split(/\s+/).includes('next')) return ask({ next_url: url });
  }
  return LAST;
}

export interface ErrorFacts {
  code: string | null;
  message: string | null;
  fieldErrors: FieldError[];
  existingId: string | null;
  requestId: string | null;
}

/** The field a JSON:API error's `source` names: its pointer's path, or its query parameter. */
function sourceField(source: unknown): string | undefined {
  if (!isRecord(source)) return undefined;
  if (typeof source.pointer === 'string')
    return source.pointer
      .replace(/^\/data\/(attributes|relationships)\//, '')
      .replace(/^\//, '')
      .replaceAll('/', '.');
  return typeof source.parameter === 'string' ? source.parameter : undefined;
}

function fieldErrorsOf(value: unknown): FieldError[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry): FieldError[] => {
      if (typeof entry === 'string') return [{ field: '', message: entry }];
      if (!isRecord(entry)) return [];
      const field =
        first(entry, ['field', 'path', 'param', 'name', 'provider']) ?? sourceField(entry.source);
      const message = first(entry, ['message', 'error', 'detail', 'msg', 'reason', 'title']);
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

/**
 * The facts of an error answer, whatever its body looks like: the documented `{ error }`, a
 * top-level message, problem+json (`detail`, `title`, `invalid-params`), JSON:API (`errors: [{
 * title, detail, code, source }]`), or text.
 */
export function readErrorBody(body: unknown, text: string): ErrorFacts {
  const outer = isRecord(body) ? body : {};
  const inner = isRecord(outer.error) ? outer.error : outer;
  const listed = Array.isArray(outer.errors) && isRecord(outer.errors[0]) ? outer.errors[0] : {};
  const message =
    first(inner, ['message', 'error_description', 'detail', 'title']) ??
    (typeof outer.error === 'string' ? outer.error : undefined) ??
    first(listed, ['detail', 'title', 'message']);
  const code = first(inner, ['code']) ?? first(listed, ['code']);
  const trimmed = text.trim();
  const existing =
    first(inner, ['existing_id', 'existingId']) ??
    first(outer, ['existing_id', 'existingId']) ??
    first(listed, ['existing_id', 'existingId']);
  const requestId =
    first(inner, ['request_id', 'requestId']) ?? first(outer, ['request_id', 'requestId']);
  return {
    code: typeof code === 'string' ? code : null,
    message:
      typeof message === 'string'
        ? message
        : body === undefined && trimmed
          ? trimmed.slice(0, 300)
          : null,
    fieldErrors: fieldErrorsOf(
      first(inner, ['details', 'errors', 'fields', 'invalid_params', 'invalid-params']) ??
        outer.errors,
    ),
    existingId: existing === undefined ? null : String(existing),
    requestId: requestId === undefined ? null : String(requestId),
  };
}
