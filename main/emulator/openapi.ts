// The OpenAPI 3.1 document of Platform API v1 as this reference server answers it (Node, main
// process). Every schema in it comes from the zod schemas the server validates requests with
// (schemas.ts) and builds its answers to (responses.ts); this file only adds what zod cannot say:
// paths, parameters, statuses, headers and words. Served at {base_url}/openapi.json; `npm run
// openapi` writes it to docs/openapi.json, and test/emulator/openapi.test.ts keeps the two equal.
import { z } from 'zod';
import {
  API_PREFIX,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  PLANS,
  WEBHOOK_HEADERS,
} from '../platform/wire';
import type { EventType } from '../platform/wire';
import { IDEMPOTENCY_KEY, MAX_BODY_BYTES } from './http';
import * as responses from './responses';
import * as requests from './schemas';

type Json = Record<string, unknown>;

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
const EXAMPLE_BASE_URL = `http://127.0.0.1:4010${API_PREFIX}`;
const JSON_TYPE = 'application/json';

/** Every error code the server answers, with its status and what it means. */
const ERROR_CODES = {
  invalid_json: [400, 'The body is not valid JSON.'],
  invalid_query: [400, 'A query parameter is malformed; `details` names it.'],
  invalid_request: [
    400,
    'The `Idempotency-Key` is not 1–255 visible ASCII characters, or the body was cut off.',
  ],
  unauthorized: [401, 'No valid token: missing, malformed, unknown or revoked.'],
  forbidden: [403, 'The token is valid, but the account may not do this (it is suspended).'],
  not_found: [404, 'No item with this id in the account.'],
  duplicate_sku: [
    409,
    'The account has a product with this SKU already; `existing_id` names it. A client retrying a create treats this as done.',
  ],
  subscriber_unsubscribed: [409, 'The subscriber has unsubscribed.'],
  idempotency_in_progress: [
    409,
    'A request with this `Idempotency-Key` is still running; retry shortly.',
  ],
  payload_too_large: [413, `The body is over ${MAX_BODY_BYTES} bytes.`],
  unsupported_media_type: [415, 'A body was sent without a JSON `Content-Type`.'],
  validation_failed: [422, 'The body is JSON, but fields are wrong; `details` lists each.'],
  idempotency_key_reused: [422, 'This `Idempotency-Key` was used before with a different request.'],
  rate_limited: [
    429,
    "Over the plan's limit for this window; wait `Retry-After` seconds (also `retry_after` in the body). A 429 does not count against the limit.",
  ],
  internal_error: [500, 'A server fault; retry with backoff.'],
  service_unavailable: [503, 'Briefly unavailable; retry with backoff.'],
  ai_unavailable: [503, 'Every AI provider tried failed; `details` lists each attempt.'],
} as const satisfies Record<string, readonly [number, string]>;

type ErrorCode = keyof typeof ERROR_CODES;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Unavailable',
};

type Tag = 'Bots' | 'Subscribers' | 'Posts' | 'Products' | 'Orders' | 'AI' | 'Webhooks';

const TAGS: Record<Tag, string> = {
  Bots: 'The bots of the account.',
  Subscribers: 'The people subscribed to a bot: read them, message them, tag them.',
  Posts: 'Posts published at once or scheduled; there is no update or delete of posts in v1.',
  Products: 'The catalog; there is no update or delete of products in v1.',
  Orders: 'Orders placed through the bots (read only).',
  AI: 'Text generation with automatic provider selection and failover, and its daily usage.',
  Webhooks:
    'Subscriptions to live events; listing, changing and deleting them are not in v1 (the spec names no such endpoint).',
};

interface Success {
  status: number;
  description: string;
  /** Component name of the body; none for 204. */
  schema?: string;
}

interface OperationSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  operationId: string;
  tag: Tag;
  /** The spec's own words for the endpoint. */
  summary: string;
  /** Pressroom's reading of what the spec leaves open. */
  description: string;
  /** Whose id `{id}` in the path is. */
  pathId?: 'bot' | 'subscriber';
  query?: z.ZodObject;
  queryNotes?: Record<string, string>;
  /** Component name of the request body. */
  body?: string;
  success: Success[];
  /** Codes this operation adds to the ones every operation of its kind has. */
  extraErrors?: ErrorCode[];
}

const QUERY_NOTES: Record<string, string> = {
  page: 'Page number, from 1 (the default).',
  per_page: `Items per page, 1–${MAX_PER_PAGE}; default ${DEFAULT_PER_PAGE}.`,
  bot_id: 'Only items of this bot; an id that is not a bot id matches nothing.',
  client_reference: 'Only items created with this `client_reference`.',
};

const LIST_NOTE =
  'Items come in creation order (oldest first), so walking the pages sees items created meanwhile at the end. The list ends where `meta.next_page` is null.';

const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: '/bots',
    operationId: 'listBots',
    tag: 'Bots',
    summary: 'List all bots of the caller.',
    description: LIST_NOTE,
    query: requests.botsQuery,
    queryNotes: { status: 'Only bots with this status (`active` or `paused`).' },
    success: [{ status: 200, description: 'A page of bots.', schema: 'BotList' }],
  },
  {
    method: 'get',
    path: '/bots/{id}',
    operationId: 'getBot',
    tag: 'Bots',
    summary: 'Details of one bot.',
    description: 'The bot with this id.',
    pathId: 'bot',
    success: [{ status: 200, description: 'The bot.', schema: 'Bot' }],
  },
  {
    method: 'post',
    path: '/bots',
    operationId: 'createBot',
    tag: 'Bots',
    summary: 'Create a bot.',
    description:
      '`channel` defaults to `web` and is fixed after create; `status` defaults to `active`.',
    body: 'BotCreate',
    success: [{ status: 201, description: 'The bot made.', schema: 'Bot' }],
  },
  {
    method: 'patch',
    path: '/bots/{id}',
    operationId: 'updateBot',
    tag: 'Bots',
    summary: "Update a bot's data.",
    description: 'Give at least one of `name`, `description`, `status`; the channel cannot change.',
    pathId: 'bot',
    body: 'BotPatch',
    success: [{ status: 200, description: 'The bot as changed.', schema: 'Bot' }],
  },
  {
    method: 'delete',
    path: '/bots/{id}',
    operationId: 'deleteBot',
    tag: 'Bots',
    summary: 'Delete a bot.',
    description: "The bot's subscribers and posts go with it; its orders stay.",
    pathId: 'bot',
    success: [{ status: 204, description: 'Deleted; no body.' }],
  },
  {
    method: 'get',
    path: '/subscribers',
    operationId: 'listSubscribers',
    tag: 'Subscribers',
    summary: 'List subscribers, paginated.',
    description: LIST_NOTE,
    query: requests.subscribersQuery,
    queryNotes: {
      tag: 'Only subscribers with this tag.',
      status: 'Only subscribers with this status (`active` or `unsubscribed`).',
      q: 'A case-insensitive part of the name or handle.',
    },
    success: [{ status: 200, description: 'A page of subscribers.', schema: 'SubscriberList' }],
  },
  {
    method: 'get',
    path: '/subscribers/{id}',
    operationId: 'getSubscriber',
    tag: 'Subscribers',
    summary: 'Data of one subscriber.',
    description: 'The subscriber with this id.',
    pathId: 'subscriber',
    success: [{ status: 200, description: 'The subscriber.', schema: 'Subscriber' }],
  },
  {
    method: 'post',
    path: '/subscribers/{id}/messages',
    operationId: 'sendMessage',
    tag: 'Subscribers',
    summary: 'Send a message to that subscriber.',
    description: 'A subscriber who has unsubscribed cannot be messaged (409).',
    pathId: 'subscriber',
    body: 'MessageCreate',
    success: [{ status: 201, description: 'The message sent.', schema: 'Message' }],
    extraErrors: ['subscriber_unsubscribed'],
  },
  {
    method: 'post',
    path: '/subscribers/{id}/tags',
    operationId: 'addSubscriberTag',
    tag: 'Subscribers',
    summary: 'Add a tag to that subscriber.',
    description:
      'The answer is the subscriber with its tags. Tags compare case-insensitively; a tag is 1–50 characters after trimming, without commas.',
    pathId: 'subscriber',
    body: 'TagAdd',
    success: [
      { status: 201, description: 'The tag was added.', schema: 'Subscriber' },
      { status: 200, description: 'The subscriber had the tag already.', schema: 'Subscriber' },
    ],
  },
  {
    method: 'get',
    path: '/posts',
    operationId: 'listPosts',
    tag: 'Posts',
    summary: 'List scheduled and published posts.',
    description: LIST_NOTE,
    query: requests.postsQuery,
    queryNotes: {
      status: 'Only posts with this status (`scheduled` or `published`).',
      from: 'Only posts at or after this instant: `scheduled_at`, or `published_at` for posts published on creation. Needs an offset.',
      to: 'Only posts at or before this instant (as `from`).',
    },
    success: [{ status: 200, description: 'A page of posts.', schema: 'PostList' }],
  },
  {
    method: 'post',
    path: '/posts',
    operationId: 'createPost',
    tag: 'Posts',
    summary: 'Create or schedule a post.',
    description:
      'Without `scheduled_at`, or with one not in the future, the post is published at once. With a future one (at most 365 days ahead) it is `scheduled`, and the platform publishes it when due. An instant without an offset is refused, because it is ambiguous. A `bot_id` the account does not have is a 422 on `bot_id`.',
    body: 'PostCreate',
    success: [{ status: 201, description: 'The post made.', schema: 'Post' }],
  },
  {
    method: 'get',
    path: '/products',
    operationId: 'listProducts',
    tag: 'Products',
    summary: 'List products.',
    description: LIST_NOTE,
    query: requests.productsQuery,
    queryNotes: { sku: 'Only the product with this SKU.', q: 'A part of the name or SKU.' },
    success: [{ status: 200, description: 'A page of products.', schema: 'ProductList' }],
  },
  {
    method: 'post',
    path: '/products',
    operationId: 'createProduct',
    tag: 'Products',
    summary: 'Add a product.',
    description:
      'Money is a decimal string in major units plus an ISO 4217 currency; a JSON number is read through its decimal text. The price may have no more fraction digits than the currency has in ISO 4217 (JPY 0, USD 2, KWD 3). A SKU is unique per account.',
    body: 'ProductCreate',
    success: [{ status: 201, description: 'The product made.', schema: 'Product' }],
    extraErrors: ['duplicate_sku'],
  },
  {
    method: 'get',
    path: '/orders',
    operationId: 'listOrders',
    tag: 'Orders',
    summary: 'List orders.',
    description: LIST_NOTE,
    query: requests.ordersQuery,
    queryNotes: {
      status: 'Only orders with this status.',
      since: 'Only orders created at or after this instant (with an offset).',
      until: 'Only orders created at or before this instant (with an offset).',
    },
    success: [{ status: 200, description: 'A page of orders.', schema: 'OrderList' }],
  },
  {
    method: 'post',
    path: '/ai/chat',
    operationId: 'aiChat',
    tag: 'AI',
    summary: 'Multi-provider AI call with automatic provider selection.',
    description:
      'With `provider: "auto"` the server picks the cheapest healthy provider whose own limit allows `max_tokens`, and fails over to the next one when a provider fails; naming one provider disables failover. A `max_tokens` no provider allows, or an unknown provider, is a 422.',
    body: 'ChatRequest',
    success: [{ status: 200, description: 'The answer.', schema: 'AiChatResponse' }],
    extraErrors: ['ai_unavailable'],
  },
  {
    method: 'get',
    path: '/ai/usage',
    operationId: 'getAiUsage',
    tag: 'AI',
    summary: 'Daily token-consumption statistics.',
    description:
      'UTC days, both ends inclusive; the last 30 days by default, at most 366. Failed provider attempts consume no tokens.',
    query: requests.usageQuery,
    queryNotes: {
      from: 'First UTC day (YYYY-MM-DD); default 29 days before `to`.',
      to: 'Last UTC day (YYYY-MM-DD); default today.',
    },
    success: [{ status: 200, description: 'One entry per day.', schema: 'AiUsage' }],
  },
  {
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Subscribe to platform events.',
    description:
      'Loopback URLs are allowed (the reference server runs on the user’s own machine). Without `secret` the server makes one (`whsec_…`); the secret is shown only in this answer. Deliveries are described under `webhooks`.',
    body: 'WebhookCreate',
    success: [{ status: 201, description: 'The subscription.', schema: 'WebhookSubscription' }],
  },
];

const listOf = (item: z.ZodType) => z.object({ data: z.array(item), meta: responses.pageMeta });

const EVENT_COMPONENTS: Record<EventType, string> = {
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
function inlineSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return json;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

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

/** Refusals that come from running the request, so an Idempotency-Key replays them. */
const REPLAYED_STATUSES = new Set([400, 404, 409, 422]);

const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

function headersOf(names: string[]): Json {
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

const isWrite = (operation: OperationSpec) => operation.method !== 'get';

/** Every error code an operation can answer, from what it is. */
function errorCodesOf(operation: OperationSpec): ErrorCode[] {
  return [
    ...(operation.query ? (['invalid_query'] as const) : []),
    ...(isWrite(operation) ? (['invalid_json', 'invalid_request'] as const) : []),
    'unauthorized',
    'forbidden',
    ...(operation.pathId ? (['not_found'] as const) : []),
    ...(operation.extraErrors ?? []),
    ...(isWrite(operation)
      ? ([
          'idempotency_in_progress',
          'payload_too_large',
          'unsupported_media_type',
          ...(operation.body ? (['validation_failed'] as const) : []),
          'idempotency_key_reused',
        ] as const)
      : []),
    'rate_limited',
    'internal_error',
    'service_unavailable',
  ];
}

function errorResponses(operation: OperationSpec): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) {
    const [status] = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const replayable = isWrite(operation) ? ['Idempotent-Replayed'] : [];
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const headers =
        status === 401
          ? headersOf(['WWW-Authenticate'])
          : status === 429
            ? headersOf([...RATE_HEADERS, 'Retry-After'])
            : headersOf([...RATE_HEADERS, ...(REPLAYED_STATUSES.has(status) ? replayable : [])]);
      return [
        String(status),
        {
          description: [
            `${STATUS_TEXT[status]}.`,
            ...codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code][1]}`),
          ].join('\n'),
          headers,
          content: { [JSON_TYPE]: { schema: ref('schemas', 'Error') } },
        },
      ];
    }),
  );
}

function parametersOf(operation: OperationSpec): Json[] {
  const parameters: Json[] = [];
  if (operation.pathId) {
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      description: `The ${operation.pathId}'s id.`,
      schema: { type: 'string' },
    });
  }
  if (operation.query) {
    const properties = inlineSchema(operation.query).properties as Record<string, Json>;
    for (const [name, property] of Object.entries(properties)) {
      // A query integer's digits are what `type: integer` already says on the wire.
      const { pattern: _digits, ...schema } = property;
      parameters.push({
        name,
        in: 'query',
        required: false,
        description: operation.queryNotes?.[name] ?? QUERY_NOTES[name] ?? `Filter by ${name}.`,
        schema: property.type === 'integer' ? schema : property,
      });
    }
  }
  if (isWrite(operation)) parameters.push(ref('parameters', 'IdempotencyKey'));
  return parameters;
}

function operationObject(operation: OperationSpec): Json {
  const replayable = isWrite(operation) ? ['Idempotent-Replayed'] : [];
  const success = Object.fromEntries(
    operation.success.map(({ status, description, schema }) => [
      String(status),
      {
        description,
        headers: headersOf([...RATE_HEADERS, ...replayable]),
        ...(schema ? { content: { [JSON_TYPE]: { schema: ref('schemas', schema) } } } : {}),
      },
    ]),
  );
  const parameters = parametersOf(operation);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { [JSON_TYPE]: { schema: ref('schemas', operation.body) } },
          },
        }
      : {}),
    responses: { ...success, ...errorResponses(operation) },
  };
}

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

const INFO_DESCRIPTION = `Platform API v1 as Pressroom's reference server answers it. The platform's own specification names the 17 endpoints and leaves most shapes open; where it does, this document gives Pressroom's reading (docs/platform-api.md in the Pressroom repository), which the reference server implements strictly. Each operation's summary is the spec's own words; its description is Pressroom's reading of what the spec leaves open.

- JSON in and out, UTF-8. Request bodies over ${MAX_BODY_BYTES} bytes get 413. Unknown body fields are refused with 422, so a typo cannot change what a request does; unknown query parameters are ignored.
- Ids are opaque strings with a type prefix (\`bot_12\`). Instants are RFC 3339 in UTC with milliseconds; requests may use any offset, but an instant without one is refused. Money is a decimal string in major units plus an ISO 4217 currency.
- Every list takes \`page\` (from 1) and \`per_page\` (1–${MAX_PER_PAGE}, default ${DEFAULT_PER_PAGE}) and answers \`{ data, meta }\`; the list ends where \`meta.next_page\` is null.
- Rate limits are per token, in fixed windows aligned to the epoch (one minute): ${Object.entries(
  PLANS,
)
  .map(([plan, limit]) => `${plan} ${limit}`)
  .join(', ')} requests per window. Every served request counts, errors included; a 429 does not.
- \`POST\`, \`PATCH\` and \`DELETE\` take an \`Idempotency-Key\`; every create also takes a \`client_reference\`, so a client whose write had an unknown outcome can look the item up before sending it again.
- A known path with another method answers 405 \`method_not_allowed\` with an \`Allow\` header; an unknown path, 404.
- This document is served at \`{base_url}/openapi.json\` without a token.`;

/** The document; `baseUrl` names the server it is served from, else a variable stands for it. */
export function openApiDocument(baseUrl?: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform API v1 (Pressroom reference server)',
      version: '1.0.0',
      description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      baseUrl
        ? { url: baseUrl, description: 'This server.' }
        : {
            url: '{base_url}',
            description: "The platform's base address, ending in /api/v1.",
            variables: {
              base_url: {
                default: EXAMPLE_BASE_URL,
                description: 'e.g. the reference server of `pressroom platform`',
              },
            },
          },
    ],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: pathsObject(),
    webhooks: Object.fromEntries(
      Object.keys(EVENT_COMPONENTS).map((type) => [type, webhookObject(type as EventType)]),
    ),
    components: {
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
    },
  };
}

function pathsObject(): Json {
  const paths: Record<string, Json> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: operationObject(operation),
    };
  }
  return paths;
}

/** The document as docs/openapi.json holds it. */
export function openApiDocumentText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
