// The webhooks of the OpenAPI document of the reference server (Node, main process): the POST a
// subscription URL receives for each event type, its signed headers and the answers it may give.
import { z } from 'zod';
import { WEBHOOK_HEADERS } from '../../platform/wire';
import type { EventType } from '../../platform/wire';
import { EVENT_COMPONENTS, inlineSchema, JSON_TYPE, ref } from './components';
import type { Json } from './components';

/** The headers of a delivery of one event type. */
const deliveryHeaders = (
  type: EventType,
): { name: string; description: string; schema: z.ZodType }[] => [
  {
    name: WEBHOOK_HEADERS.subscription,
    description: 'The subscription this delivery is for.',
    schema: z.string(),
  },
  {
    name: WEBHOOK_HEADERS.eventId,
    description: 'The event; deliveries are at least once, so receivers deduplicate by it.',
    schema: z.string(),
  },
  { name: WEBHOOK_HEADERS.eventType, description: 'The event name.', schema: z.literal(type) },
  {
    name: WEBHOOK_HEADERS.attempt,
    description: 'The delivery attempt, from 1.',
    schema: z.int().min(1).max(8),
  },
  {
    name: WEBHOOK_HEADERS.signature,
    description:
      '`sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed with the subscription secret. Receivers compare it in constant time, and may refuse events whose `created_at` is older than five minutes.',
    schema: z.string().regex(/^sha256=[0-9a-f]{64}$/),
  },
];

const EVENT_SUMMARIES: Record<EventType, string> = {
  'message.received': 'A new message arrived.',
  'order.created': 'A new order was created.',
  'comment.posted': 'A new comment was posted.',
};

function webhookObject(type: EventType): Json {
  return {
    post: {
      operationId: `on${EVENT_COMPONENTS[type].replace(/Event$/, '')}`,
      tags: ['Webhooks'],
      summary: EVENT_SUMMARIES[type],
      description:
        'A POST to the subscription URL. Delivery is at least once: any answer other than 2xx, a connection error or no answer within 10 seconds is retried after 1, 2, 4, 8, 16, 32 and 64 seconds (8 attempts in all, ±20 % jitter). Order is not guaranteed.',
      security: [],
      parameters: deliveryHeaders(type).map(({ name, description, schema }) => ({
        name,
        in: 'header',
        required: true,
        description,
        schema: inlineSchema(schema),
      })),
      requestBody: {
        required: true,
        content: { [JSON_TYPE]: { schema: ref('schemas', EVENT_COMPONENTS[type]) } },
      },
      responses: {
        '2XX': { description: 'Received; not sent again.' },
        '410': { description: 'Gone: the subscription is deactivated, and nothing more is sent.' },
      },
    },
  };
}
/** One entry per event type, keyed by the event name. */
export function webhooksObject(): Json {
  return Object.fromEntries(
    Object.keys(EVENT_COMPONENTS).map((type) => [type, webhookObject(type as EventType)]),
  );
}
