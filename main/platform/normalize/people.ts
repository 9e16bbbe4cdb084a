// The bots' people as the platform answers them (Node, main process): subscribers with their tags,
// the messages sent to them, and their orders with exact money per item and in total.
import { z } from 'zod';
import { decimalToMinor, isCurrency, minorDigits } from '../../../shared/money';
import {
  aliases,
  id,
  isRecord,
  type Raw,
  nullableId,
  nullableInstant,
  nullableText,
  toIso,
  withMoney,
} from './fields';

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

const orderItemsSchema = (currency: string) =>
  z.array(
    z
      .looseObject({
        product_id: nullableId,
        sku: z.string().default(''),
        name: z.string().default(''),
        quantity: z.number().int().default(1),
      })
      .transform(withMoney('unit_price', () => currency))
      .transform((item) => item as typeof item & { unit_price: string; unit_price_minor: number }),
  );

/**
 * The items' schema for an order's currency (checked already, so one of ISO 4217's few), made
 * once per currency: made again for every order, building it took most of a sync's processor
 * time and held the core up to 160 ms a page of orders (#32).
 */
const itemsByCurrency = new Map<string, ReturnType<typeof orderItemsSchema>>();
function orderItemsIn(currency: string): ReturnType<typeof orderItemsSchema> {
  let schema = itemsByCurrency.get(currency);
  if (!schema) itemsByCurrency.set(currency, (schema = orderItemsSchema(currency)));
  return schema;
}

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
    const items = orderItemsIn(order.currency).safeParse(order.items ?? []);
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

/** Reads one order the platform listed: most in one copy (below), the rest by `orderSchema`. */
export const orderReader = {
  safeParse(raw: unknown): z.ZodSafeParseResult<Order> {
    const order = canonicalOrder(raw);
    return order ? { success: true, data: order } : orderSchema.safeParse(raw);
  },
};

/**
 * An order already in the form the platform's reference answers use (every field the type the
 * schema reads it as, its instant ISO UTC and its money decimal text exact to its currency's
 * digits, items without a currency of their own) read in one copy: `orderSchema`'s output for it,
 * built without zod's copies and bookkeeping per field, which were most of what a sync allocated
 * per order and so of its peak memory (#32). Anything else is null: `orderSchema` reads it.
 */
function canonicalOrder(raw: unknown): Order | null {
  if (!isRecord(raw)) return null;
  const { currency, total, items } = raw;
  if (!isText(raw.id) || !isText(raw.status) || typeof currency !== 'string') return null;
  if (!isNullableText(raw.number) || !isNullableId(raw.bot_id)) return null;
  if (!isNullableId(raw.subscriber_id) || !isNullableInstant(raw.created_at)) return null;
  if (!isCurrency(currency) || !Array.isArray(items)) return null;
  const totalMinor = exactMinor(total, currency);
  if (totalMinor === null) return null;
  const read: Order['items'] = [];
  for (const item of items) {
    const line = canonicalItem(item, currency);
    if (!line) return null;
    read.push(line);
  }
  const order = inSchemaOrder(raw, ORDER_KEYS);
  order.items = read;
  order.total_minor = totalMinor;
  return order as Order;
}

function canonicalItem(raw: unknown, currency: string): Order['items'][number] | null {
  if (!isRecord(raw) || raw.currency !== undefined || !isNullableId(raw.product_id)) return null;
  if (typeof raw.sku !== 'string' || typeof raw.name !== 'string') return null;
  if (!Number.isSafeInteger(raw.quantity)) return null;
  const unitMinor = exactMinor(raw.unit_price, currency);
  if (unitMinor === null) return null;
  const item = inSchemaOrder(raw, ITEM_KEYS);
  item.unit_price_minor = unitMinor;
  item.currency = currency;
  return item as Order['items'][number];
}

// The keys each schema names, in its order: a loose object's output lists them first, then the
// others as they came, and the stored JSON keeps that order.
const ORDER_KEYS = ['id', 'number', 'bot_id', 'subscriber_id', 'status', 'items', 'created_at'];
const ITEM_KEYS = ['product_id', 'sku', 'name', 'quantity'];

/** A copy of `raw` with `keys` first, as a zod loose object with those keys writes it. */
function inSchemaOrder(raw: Raw, keys: readonly string[]): Raw {
  const copy: Raw = {};
  for (const key of keys) copy[key] = raw[key];
  for (const key in raw) if (!Object.hasOwn(copy, key)) copy[key] = raw[key];
  return copy;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isNullableText = (value: unknown) => value === null || typeof value === 'string';
const isNullableId = (value: unknown) => value === null || isText(value);
const isNullableInstant = (value: unknown) =>
  value === null || (typeof value === 'string' && value !== '' && toIso(value) === value);

/**
 * The minor units of a decimal text written exactly as `minorToDecimal` writes them (all the
 * currency's fraction digits, no leading zero); else null. Checked by its shape, not by writing
 * the text again, which cost four strings per price.
 */
function exactMinor(value: unknown, currency: string): number | null {
  if (typeof value !== 'string') return null;
  const read = decimalToMinor(value, currency);
  if (!read.ok) return null;
  const digits = minorDigits(currency);
  const whole = digits === 0 ? value.length : value.length - digits - 1;
  if (digits > 0 && value.charCodeAt(whole) !== 0x2e) return null;
  return whole === 1 || value.charCodeAt(0) !== 0x30 ? read.minor : null;
}

export type Subscriber = z.output<typeof subscriberSchema>;
export type Message = z.output<typeof messageSchema>;
export type Order = z.output<typeof orderSchema>;
