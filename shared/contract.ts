// The typed contract between the core and its callers (renderer over IPC or HTTP, and the CLI):
// each operation's input schema, defined once. Pure; runs in every process.
import { z } from 'zod';
import { POST_STATUSES } from './domain';
import type { OutboxItem } from './domain';
import { isTimeZone } from './time';
import { httpUrl, text } from './validation';

const zone = z
  .string()
  .refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Berlin' });
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
  sendMessage: z.strictObject({ subscriberId: z.string().min(1), text: text(1, 4096) }),
  addTag: z.strictObject({
    subscriberId: z.string().min(1),
    tag: text(1, 50).refine((tag) => !tag.includes(','), { error: 'must not contain commas' }),
  }),
  broadcast: z.strictObject({ tag: text(1, 50), text: text(1, 4096) }),
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
    kind: z.enum(['posts', 'products']),
    path: z.string().min(1, { error: 'name a file' }),
    dryRun: z.boolean().default(false),
    onError: z.enum(['abort', 'skip']).default('abort'),
    queue: z.boolean().default(false),
    past: z.enum(['error', 'publish-now']).default('error'),
    timezone: zone.optional(),
    dateFormat: z.enum(['DD/MM/YYYY', 'MM/DD/YYYY']).optional(),
  }),
  undoImport: z.strictObject({ batch: z.string().min(1) }),
  exportFile: z.strictObject({
    kind: z.enum(['posts', 'products']),
    path: z.string().min(1, { error: 'name a file' }),
    bom: z.boolean().default(false),
  }),
  retryItem: z.strictObject({ id: itemId }),
  cancelItem: z.strictObject({ id: itemId }),
  status: z.strictObject({}),
  sync: z.strictObject({}),
  publishDue: z.strictObject({}),
  pauseQueue: z.strictObject({}),
  resumeQueue: z.strictObject({}),
} as const;

export type Operations = typeof operations;
export type OperationInput<K extends keyof Operations> = z.input<Operations[K]>;

/** What the queue tells its watchers (the UI's queue screen, notifications, the CLI's stderr). */
export type QueueEvent =
  | { type: 'done'; item: OutboxItem; remoteId: string | null }
  | { type: 'retrying'; item: OutboxItem; reason: string; readyAt: number }
  | { type: 'failed'; item: OutboxItem; reason: string }
  | { type: 'missed'; item: OutboxItem }
  | { type: 'paused'; reason: string };

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
