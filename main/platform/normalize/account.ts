// The account's bots and webhook subscriptions as the platform answers them (Node, main process),
// read tolerantly into one canonical object each; unknown fields are kept.
import { z } from 'zod';
import { id, nullableInstant, nullableText } from './fields';

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

export const webhookSchema = z.looseObject({
  id,
  url: z.string(),
  events: z.array(z.string()).default([]),
  secret: nullableText,
  active: z.boolean().default(true),
  created_at: nullableInstant,
});

export type Bot = z.output<typeof botSchema>;
export type WebhookSubscriptionInfo = z.output<typeof webhookSchema>;
