// The bots' people as the platform answers them (Node, main process): subscribers with their tags,
// the messages sent to them, and their orders with exact money per item and in total.
import { z } from 'zod';
import { aliases, id, nullableId, nullableInstant, nullableText, withMoney } from './fields';

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

export type Subscriber = z.output<typeof subscriberSchema>;
export type Message = z.output<typeof messageSchema>;
export type Order = z.output<typeof orderSchema>;
