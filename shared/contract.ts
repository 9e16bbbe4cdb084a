// The typed contract between the core and its callers (renderer over IPC or HTTP, and the CLI):
// each operation's input schema, defined once. Pure; runs in every process.
import { z } from 'zod';
import { OUTBOX_STATES, POST_STATUSES, PRODUCT_STATUSES, THEMES } from './domain';
import type {
  AccountSettings,
  AiAssistReply,
  AiUsageDay,
  BotSummary,
  DrainReport,
  ImportPreview,
  ImportProgress,
  ImportResult,
  LocalPost,
  LocalProduct,
  OrderSummary,
  OutboxItem,
  Page,
  QueueRow,
  ReceivedEvent,
  Status,
  SubscriberDetail,
  SubscriberSummary,
  SyncReport,
  WebhookInfo,
  WorkspaceSettings,
} from './domain';
import { isTimeZone } from './time';
import { isCurrency } from './money';
import { httpUrl, text } from './validation';

/** A base64 string of 64 MiB of file; the web host sizes its request limit from it. */
export const MAX_UPLOAD_BASE64 = Math.ceil((64 * 1024 * 1024) / 3) * 4;
export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;

const zone = z
  .string()
  .refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Berlin' });
const pageWindow = {
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
};
const search = z.string().max(200).optional();
const importOptions = {
  kind: z.enum(['posts', 'products']),
  dryRun: z.boolean().default(false),
  onError: z.enum(['abort', 'skip']).default('abort'),
  queue: z.boolean().default(false),
  past: z.enum(['error', 'publish-now']).default('error'),
  timezone: zone.optional(),
  dateFormat: z.enum(['DD/MM/YYYY', 'MM/DD/YYYY']).optional(),
  /** Field → the file's header it is read from (null: not imported); other fields match by name. */
  mapping: z.record(z.string(), z.string().nullable()).optional(),
};
const upload = {
  fileName: z.string().min(1).max(255),
  contentBase64: z.string().max(MAX_UPLOAD_BASE64, { error: 'is over 64 MiB' }),
};
export const PRODUCT_SORTS = ['sku', 'name', 'price', 'stock', 'status', 'updated'] as const;
export const AI_TASKS = ['draft', 'shorten', 'rephrase', 'hashtags'] as const;
export const WEBHOOK_EVENTS = ['message.received', 'order.created', 'comment.posted'] as const;

const itemId = z
  .number({ error: 'must be a number' })
  .int()
  .positive({ error: 'must be a positive id' });

export const POST_MODES = ['draft', 'schedule', 'publish_now', 'hand_off'] as const;

export const operations = {
  addPost: z.strictObject({
    text: text(1, 4096),
    /** ISO 8601; without an offset it is a wall time in `zone`. */
    at: z.string().min(1).optional(),
    zone: zone.optional(),
    botId: z.string().min(1).optional(),
    mediaUrls: z.array(httpUrl).max(10, { error: 'must have at most 10 URLs' }).default([]),
    /** draft: keep here; schedule: publish at `at`; publish_now; hand_off: give the platform the time now. */
    mode: z.enum(POST_MODES).default('schedule'),
  }),
  updatePost: z.strictObject({
    id: itemId,
    text: text(1, 4096).optional(),
    at: z.string().min(1).nullable().optional(),
    zone: zone.optional(),
    botId: z.string().min(1).nullable().optional(),
    mediaUrls: z.array(httpUrl).max(10, { error: 'must have at most 10 URLs' }).optional(),
  }),
  /** Moves a draft (or a failed or missed post) into the queue. */
  queuePost: z.strictObject({ id: itemId, mode: z.enum(['schedule', 'publish_now', 'hand_off']) }),
  listPosts: z.strictObject({
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    status: z.enum(POST_STATUSES).optional(),
  }),
  /** Removes a post that never went out (draft, failed or missed), with its queue item. */
  deletePost: z.strictObject({ id: itemId }),
  listProducts: z.strictObject({
    ...pageWindow,
    sort: z.enum(PRODUCT_SORTS).default('sku'),
    descending: z.boolean().default(false),
    search,
    status: z.enum(PRODUCT_STATUSES).optional(),
  }),
  /** Creates a draft product (no id) or edits a draft or failed one; price is decimal text. */
  saveProduct: z.strictObject({
    id: itemId.optional(),
    sku: text(1, 64),
    name: text(1, 200),
    price: z.string().trim().min(1, { error: 'is required' }),
    currency: z.string().trim().toUpperCase().optional(),
    description: text(0, 5000).nullable().default(null),
    stock: z.number().int().min(0, { error: 'must be 0 or more' }).nullable().default(null),
    imageUrl: httpUrl.nullable().default(null),
  }),
  duplicateProduct: z.strictObject({ id: itemId }),
  deleteProducts: z.strictObject({
    ids: z.array(itemId).min(1, { error: 'choose at least one product' }),
  }),
  listQueue: z.strictObject({
    states: z.array(z.enum(OUTBOX_STATES)).optional(),
    limit: z.number().int().min(1).max(2000).default(500),
  }),
  listBots: z.strictObject({}),
  listSubscribers: z.strictObject({ ...pageWindow, search, tag: z.string().max(50).optional() }),
  getSubscriber: z.strictObject({ id: z.string().min(1) }),
  listOrders: z.strictObject({ ...pageWindow, search, status: z.string().max(40).optional() }),
  sendMessage: z.strictObject({ subscriberId: z.string().min(1), text: text(1, 4096) }),
  addTag: z.strictObject({
    subscriberId: z.string().min(1),
    tag: text(1, 50).refine((tag) => !tag.includes(','), { error: 'must not contain commas' }),
  }),
  broadcast: z.strictObject({ tag: text(1, 50), text: text(1, 4096) }),
  broadcastProgress: z.strictObject({ group: z.string().min(1) }),
  createBot: z.strictObject({
    name: text(1, 64),
    description: text(0, 500).nullable().optional(),
    channel: z.enum(['telegram', 'whatsapp', 'messenger', 'instagram', 'web']).default('web'),
  }),
  renameBot: z.strictObject({ botId: z.string().min(1), name: text(1, 64) }),
  deleteBot: z.strictObject({ botId: z.string().min(1) }),
  queueProducts: z.strictObject({
    ids: z.array(itemId).min(1, { error: 'choose at least one product' }),
  }),
  importFile: z.strictObject({
    ...importOptions,
    path: z.string().min(1, { error: 'name a file' }),
  }),
  /** The same import from a file the renderer read (a picked or dropped file), base64-encoded. */
  importUpload: z.strictObject({ ...importOptions, ...upload }),
  /** What the wizard shows before importing: detection, the column mapping, sample rows, and a dry run. */
  previewUpload: z.strictObject({
    ...importOptions,
    ...upload,
    sampleRows: z.number().int().min(1).max(200).default(20),
  }),
  undoImport: z.strictObject({ batch: z.string().min(1) }),
  exportFile: z.strictObject({
    kind: z.enum(['posts', 'products']),
    path: z.string().min(1, { error: 'name a file' }),
    bom: z.boolean().default(false),
  }),
  /** The CSV text of posts or products, for the renderer to offer as a download. */
  exportText: z.strictObject({
    kind: z.enum(['posts', 'products']),
    bom: z.boolean().default(false),
  }),
  retryItem: z.strictObject({ id: itemId }),
  cancelItem: z.strictObject({ id: itemId }),
  status: z.strictObject({}),
  sync: z.strictObject({}),
  publishDue: z.strictObject({}),
  pauseQueue: z.strictObject({}),
  resumeQueue: z.strictObject({}),
  aiAssist: z.strictObject({
    task: z.enum(AI_TASKS),
    text: text(1, 20_000),
    provider: z.string().min(1).max(40).optional(),
  }),
  aiUsage: z.strictObject({ days: z.number().int().min(1).max(366).default(30) }),
  listWebhooks: z.strictObject({}),
  createWebhook: z.strictObject({
    url: httpUrl,
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1, { error: 'choose at least one event' })
      .refine((events) => new Set(events).size === events.length, {
        error: 'names an event twice',
      }),
  }),
  listReceivedEvents: z.strictObject({ limit: z.number().int().min(1).max(500).default(100) }),
  getSettings: z.strictObject({}),
  saveSettings: z.strictObject({
    timezone: zone.optional(),
    graceMinutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .optional(),
    theme: z.enum(THEMES).optional(),
    defaultCurrency: z
      .string()
      .refine(isCurrency, { error: 'must be an ISO 4217 code such as EUR' })
      .optional(),
    defaultBotId: z.string().min(1).nullable().optional(),
  }),
  /** Tests the token against the platform, then keeps it (encrypted) and switches to the account. */
  connectAccount: z.strictObject({
    apiBase: httpUrl,
    token: z.string().trim().min(8, { error: 'is too short to be an API token' }).max(512),
    plan: z.enum(PLAN_NAMES).default('free'),
  }),
  /** Forgets the account's token and goes back to the demo workspace. */
  useDemo: z.strictObject({}),
} as const;

/** What each operation answers with (the value of a successful CallResult). */
export interface OperationResults {
  addPost: LocalPost;
  updatePost: LocalPost;
  queuePost: LocalPost;
  listPosts: LocalPost[];
  deletePost: { removed: number };
  listProducts: Page<LocalProduct>;
  saveProduct: LocalProduct;
  duplicateProduct: LocalProduct;
  deleteProducts: { removed: number };
  listQueue: QueueRow[];
  listBots: BotSummary[];
  listSubscribers: Page<SubscriberSummary>;
  getSubscriber: SubscriberDetail;
  listOrders: Page<OrderSummary>;
  sendMessage: OutboxItem;
  addTag: OutboxItem;
  broadcast: { group: string; recipients: number };
  broadcastProgress: Record<OutboxItem['state'], number>;
  createBot: OutboxItem;
  renameBot: OutboxItem;
  deleteBot: OutboxItem;
  queueProducts: OutboxItem[];
  importFile: ImportResult;
  importUpload: ImportResult;
  previewUpload: ImportPreview;
  undoImport: { removed: number };
  exportFile: number;
  exportText: { fileName: string; csv: string; rows: number };
  retryItem: OutboxItem;
  cancelItem: OutboxItem;
  status: Status;
  sync: SyncReport;
  publishDue: DrainReport;
  pauseQueue: null;
  resumeQueue: null;
  aiAssist: AiAssistReply;
  aiUsage: AiUsageDay[];
  listWebhooks: { subscriptions: WebhookInfo[]; receiverUrl: string | null };
  createWebhook: WebhookInfo;
  listReceivedEvents: ReceivedEvent[];
  getSettings: WorkspaceSettings & { account: AccountSettings };
  saveSettings: WorkspaceSettings;
  connectAccount: AccountSettings;
  useDemo: AccountSettings;
}

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<K extends keyof Operations> = z.input<Operations[K]>;

/** What the queue tells its watchers (the UI's queue screen, notifications, the CLI's stderr). */
export type QueueEvent =
  | { type: 'done'; item: OutboxItem; remoteId: string | null }
  | { type: 'retrying'; item: OutboxItem; reason: string; readyAt: number }
  | { type: 'failed'; item: OutboxItem; reason: string }
  | { type: 'missed'; item: OutboxItem }
  | { type: 'paused'; reason: string };

/** Everything the core pushes to the renderer's event stream. */
export type CoreEvent =
  | QueueEvent
  | { type: 'import'; progress: ImportProgress }
  | { type: 'changed'; what: 'posts' | 'products' | 'cache' | 'queue' | 'settings' | 'account' }
  | { type: 'received'; event: ReceivedEvent };

/** A field-by-field problem with an input, as every boundary reports it. */
export interface Issue {
  field: string;
  message: string;
}

export type CallErrorKind =
  | 'invalid_input'
  | 'not_allowed'
  | 'not_connected'
  | 'platform'
  | 'unusable_file'
  | 'unknown_operation'
  | 'internal';

/** What crosses IPC or HTTP for every call: a value, or an error the UI can show as it is. */
export type CallResult<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; error: { kind: CallErrorKind; message: string; issues?: Issue[] } };
