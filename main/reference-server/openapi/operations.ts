// The 17 operations of the OpenAPI document of the reference server (Node, main process), in words:
// path, method, tag, the spec's summary, Pressroom's reading, query, body, answers, extra errors.
import type { z } from 'zod';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../platform/wire';
import * as requests from '../schemas';
import type { ErrorCode } from './errors';

export type Tag = 'Bots' | 'Subscribers' | 'Posts' | 'Products' | 'Orders' | 'AI' | 'Webhooks';

export const TAGS: Record<Tag, string> = {
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

export interface OperationSpec {
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

export const QUERY_NOTES: Record<string, string> = {
  page: 'Page number, from 1 (the default).',
  per_page: `Items per page, 1–${MAX_PER_PAGE}; default ${DEFAULT_PER_PAGE}.`,
  bot_id: 'Only items of this bot; an id that is not a bot id matches nothing.',
  client_reference: 'Only items created with this `client_reference`.',
};

const LIST_NOTE =
  'Items come in creation order (oldest first), so walking the pages sees items created meanwhile at the end. The list ends where `meta.next_page` is null.';

export const OPERATIONS: readonly OperationSpec[] = [
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

export const isWrite = (operation: OperationSpec) => operation.method !== 'get';
