// The components of the OpenAPI document of the reference server (Node, main process): JSON
// Schemas generated from the zod schemas the server reads requests with (schemas.ts) and writes
// answers with (responses.ts), the response headers, the Idempotency-Key parameter and the token.
import { z } from 'zod';
import type { EventType } from '../../platform/wire';
import { IDEMPOTENCY_KEY } from '../http';
import * as responses from '../responses';
import * as requests from '../schemas';

export type Json = Record<string, unknown>;

export const JSON_TYPE = 'application/json';

const listOf = (item: z.ZodType) => z.object({ data: z.array(item), meta: responses.pageMeta });

export const EVENT_COMPONENTS: Record<EventType, string> = {
  'message.received': 'MessageReceivedEvent',
  'order.created': 'OrderCreatedEvent',
  'comment.posted': 'CommentPostedEvent',
};

const REQUEST_COMPONENTS: Record<string, z.ZodType> = {
  BotCreate: requests.botCreate,
  BotPatch: requests.botPatch,
  MessageCreate: requests.messageCreate,
  TagAdd: requests.tagAdd,
  PostCreate: requests.postCreate,
  ProductCreate: requests.productCreate,
  ChatRequest: requests.chatRequest,
  WebhookCreate: requests.webhookCreate,
};

const RESPONSE_COMPONENTS: Record<string, z.ZodType> = {
  Instant: responses.instant,
  Day: responses.day,
  Money: responses.money,
  Bot: responses.bot,
  BotList: listOf(responses.bot),
  Subscriber: responses.subscriber,
  SubscriberList: listOf(responses.subscriber),
  Message: responses.message,
  Post: responses.post,
  PostList: listOf(responses.post),
  Product: responses.product,
  ProductList: listOf(responses.product),
  Order: responses.order,
  OrderItem: responses.orderItem,
  OrderList: listOf(responses.order),
  AiAttempt: responses.aiAttempt,
  AiChatResponse: responses.aiChatResponse,
  AiUsage: responses.aiUsage,
  WebhookSubscription: responses.webhookSubscription,
  Comment: responses.comment,
  PageMeta: responses.pageMeta,
  FieldError: responses.fieldError,
  Error: responses.errorBody,
  ...Object.fromEntries(
    Object.entries(EVENT_COMPONENTS).map(([type, name]) => [
      name,
      responses.webhookEvents[type as EventType],
    ]),
  ),
};

/** JSON Schemas of one registry, as components: requests as the server reads them, answers as it writes them. */
function componentSchemas(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Json {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    // Refinements (a real date, an ISO currency) are checked by the server; the type stays.
    unrepresentable: 'any',
  }).schemas;
  return Object.fromEntries(
    Object.entries(generated).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [
      id,
      schema,
    ]),
  );
}

/** One JSON Schema of a zod schema that is not a component (parameters and headers). */
export function inlineSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return json;
}

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const HEADERS: Record<string, { description: string; schema: z.ZodType; required?: false }> = {
  'X-RateLimit-Limit': {
    description: "The plan's requests per window.",
    schema: z.int().min(1),
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in this window after this one.',
    schema: z.int().min(0),
  },
  'X-RateLimit-Reset': {
    description:
      'Unix epoch seconds at which the window resets (the spec leaves unit and format open; Pressroom reads epoch seconds). Windows are fixed and aligned to multiples of their length since the epoch; a fraction with up to three decimals appears only on test servers whose window is not a whole number of seconds.',
    schema: z.string().regex(/^\d+(\.\d{1,3})?$/),
  },
  'Retry-After': {
    description: 'Whole seconds to wait before the next request, at least 1.',
    schema: z.int().min(1),
  },
  'WWW-Authenticate': {
    description: 'Always `Bearer realm="api"`.',
    schema: z.string(),
  },
  'Idempotent-Replayed': {
    description:
      'Present as `true` when this answer is the replay of an earlier request with the same `Idempotency-Key`.',
    schema: z.literal('true'),
    required: false,
  },
};

export const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

export function headersOf(names: string[]): Json {
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

/** The `components` section: what the paths and webhooks refer to by `ref`. */
export function componentsObject(): Json {
  return {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          "`Authorization: Bearer <API_TOKEN>`, a token from the account's API Keys settings. Tokens do not expire on their own.",
      },
    },
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Scoped to the account and kept 24 hours. The same key with the same method, path and body replays the first answer (with `Idempotent-Replayed: true`) and creates nothing again; with another request it is a 422; while the first is still running, a 409. Answers with status 429 or 5xx are not kept.',
        schema: inlineSchema(z.string().regex(IDEMPOTENCY_KEY)),
      },
    },
    headers: Object.fromEntries(
      Object.entries(HEADERS).map(([name, { description, schema, required }]) => [
        name,
        { description, required: required ?? true, schema: inlineSchema(schema) },
      ]),
    ),
    schemas: {
      ...componentSchemas(REQUEST_COMPONENTS, 'input'),
      ...componentSchemas(RESPONSE_COMPONENTS, 'output'),
    },
  };
}
