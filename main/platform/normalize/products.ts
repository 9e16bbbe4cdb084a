// Catalog products as the platform answers them (Node, main process): the price in any accepted form
// becomes exact minor units with its currency (./fields.ts, withMoney).
import { z } from 'zod';
import { aliases, id, nullableInstant, nullableText, withMoney } from './fields';

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

export type Product = z.output<typeof productSchema>;
