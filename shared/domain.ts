// Pressroom's own records, as the core hands them to the renderer and the CLI. Pure types and
// constants; runs in every process.
import type { TokenEstimate } from './campaign';
import type { TextEncoding } from './encodings';
import type { TeamStatus } from './team';

export const POST_STATUSES = [
  'draft',
  'scheduled',
  'sending',
  'published',
  'failed',
  'missed',
  'handed_off',
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * "Has this post gone out?": yes once it is being sent, published, or handed off to the platform.
 * Nothing calls such a post back (no undo, no delete); the store's SQL is built from these.
 */
export const GONE_OUT: readonly PostStatus[] = ['sending', 'published', 'handed_off'];
/** A post that never went out: a draft, a failure or a miss, which may be queued or deleted. */
export const NOT_GONE_OUT: readonly PostStatus[] = ['draft', 'failed', 'missed'];

export const PRODUCT_STATUSES = ['draft', 'queued', 'sending', 'published', 'failed'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
/** A product that never went out and is not queued: it may be edited, queued or deleted. */
export const UNSENT_PRODUCT: readonly ProductStatus[] = ['draft', 'failed'];

/** Where a record was made: here (editable until published) or on the platform (read-only). */
export type Origin = 'local' | 'remote';

/** How a bot the platform no longer lists is named: its id means nothing to a user. */
export const GONE_BOT_NAME = 'A bot no longer on the platform';

export interface LocalPost {
  id: number;
  remoteId: string | null;
  botId: string | null;
  text: string;
  mediaUrls: string[];
  /** UTC epoch ms; null for a draft without a time. */
  scheduledAt: number | null;
  /** The IANA zone the user meant the time in. */
  zone: string | null;
  status: PostStatus;
  origin: Origin;
  publishedAt: number | null;
  error: string | null;
  batchId: string | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * Why a post cannot be changed any more, or null while it can: the core's rule, which the
 * calendar and the editor also read to say so before a round trip.
 */
export function postLockReason(post: Pick<LocalPost, 'origin' | 'status'>): string | null {
  if (post.origin === 'remote') return 'It was made on the platform; API v1 cannot change it';
  if (post.status === 'published')
    return 'It is published; API v1 has no way to change a published post';
  if (post.status === 'handed_off')
    return 'It was handed off: the platform publishes it, and API v1 cannot change it';
  if (post.status === 'sending') return 'It is being sent right now';
  return null;
}

export interface LocalProduct {
  id: number;
  remoteId: string | null;
  sku: string;
  name: string;
  description: string | null;
  priceMinor: number;
  currency: string;
  stock: number | null;
  imageUrl: string | null;
  status: ProductStatus;
  origin: Origin;
  error: string | null;
  batchId: string | null;
  createdAt: number;
  updatedAt: number;
}

export const OUTBOX_STATES = [
  'queued',
  'sending',
  'done',
  'retrying',
  'failed',
  'cancelled',
] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export const OUTBOX_KINDS = [
  'create_post',
  'create_product',
  'send_message',
  'add_tag',
  'create_bot',
  'update_bot',
  'delete_bot',
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** Who is waiting for a request: lower goes first. */
export const PRIORITY = { user: 0, due: 1, handOff: 2, sync: 3 } as const;
export type Priority = (typeof PRIORITY)[keyof typeof PRIORITY];

export interface OutboxItem {
  id: number;
  kind: OutboxKind;
  postId: number | null;
  productId: number | null;
  payload: Record<string, unknown>;
  state: OutboxState;
  priority: Priority;
  /** When the item was meant to go (for a post, its scheduled time). */
  dueAt: number;
  /** When it may next be attempted: dueAt at first, later the retry time. */
  readyAt: number;
  attempts: number;
  idempotencyKey: string;
  remoteId: string | null;
  lastError: string | null;
  fieldErrors: { field: string; message: string }[];
  /** The last attempt got no answer: look the item up on the platform before resending. */
  outcomeUnknown: boolean;
  /** When the item was first sent; null before. What it made on the platform is not older. */
  firstAttemptAt: number | null;
  groupId: string | null;
  createdAt: number;
  updatedAt: number;
}

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const WEBHOOK_EVENTS = ['message.received', 'order.created', 'comment.posted'] as const;

/** One window of a long list, and how many there are in all. */
export interface Page<T> {
  total: number;
  rows: T[];
}

/** Where a queue row stands: on its way, stopped until the user acts, or over. */
export type QueueGroup = 'next' | 'attention' | 'past';

/**
 * One line of the Queue, a schedule of posts: a write in the outbox (a post, a product, a message)
 * or a post made on the platform that the platform publishes itself (no item; read-only).
 */
export interface QueueRow {
  /** Unique across both kinds: "item-12", "post-40". */
  id: string;
  group: QueueGroup;
  /** When it goes (a post's time, else the item's next attempt); when it ended for a past one. */
  at: number;
  /** What it is, in words: the post's text, "Product BK-001 — Rye loaf", "Message to Anna". */
  title: string;
  bot: { id: string; name: string; channel: string | null } | null;
  /** A data: thumbnail of the post's first uploaded picture (MediaPicture.thumbnailUrl), or null. */
  thumbnailUrl: string | null;
  /** The post's own status; null for a write that is not a post. */
  postStatus: PostStatus | null;
  postId: number | null;
  /** Made on the platform and scheduled there: the platform publishes it, nothing here can. */
  onPlatform: boolean;
  /** The outbox item behind the row; null for a post scheduled on the platform. */
  item: OutboxItem | null;
}

export interface BotSummary {
  id: string;
  name: string;
  channel: string | null;
  status: string | null;
  description: string | null;
  /** Writes to this bot still waiting in the outbox (create, rename, delete). */
  pending: number;
}

/** What deleting a bot concerns: its posts here, and what the platform deletes with it. */
export interface BotPostCounts {
  /** Ours, scheduled: settled as the user chooses before the bot goes. */
  scheduled: number;
  /** Ours not gone out (drafts, failed, missed): settled the same way. */
  drafts: number;
  /** The platform's own scheduled posts of the bot: they go with it. */
  onPlatform: number;
  /** The bot's subscribers (as last synced): they go with it. */
  subscribers: number;
}

export interface SubscriberSummary {
  id: string;
  botId: string | null;
  name: string;
  tags: string[];
  status: string;
}

/** A tag the subscribers carry, and how many active ones a broadcast to it would reach. */
export interface TagAudience {
  tag: string;
  recipients: number;
}

export interface SubscriberDetail extends SubscriberSummary {
  /** Everything the platform said about the subscriber, as it said it. */
  raw: Record<string, unknown>;
}

export interface OrderSummary {
  id: string;
  status: string;
  currency: string;
  totalMinor: number;
  createdAt: number | null;
  customer: string | null;
  items: { name: string; quantity: number }[];
}

/** Who answered an AI request, and what it cost. */
export interface AiAnswerInfo {
  provider: string;
  model: string;
  /** As the platform counted them. */
  tokens: { prompt: number; completion: number; total: number };
  /** Providers tried before the one that answered, and why they did not. */
  attempts: { provider: string; error: string | null }[];
}

export interface AiAssistReply extends AiAnswerInfo {
  text: string;
}

export interface AiUsageDay {
  date: string;
  totalTokens: number;
  providers: { provider: string; totalTokens: number; requests: number }[];
}

export interface WebhookInfo {
  id: string;
  url: string;
  events: string[];
  createdAt: number;
}

export interface ReceivedEvent {
  id: string;
  type: string;
  payload: unknown;
  receivedAt: number;
}

export interface WorkspaceSettings {
  timezone: string;
  graceMinutes: number;
  theme: Theme;
  defaultCurrency: string;
  defaultBotId: string | null;
  /** The duplicate-content guard's window: the same text within this many days (0: guard off). */
  duplicateWindowDays: number;
  /** Publishing products asks first, with a summary (false: the user said "don't ask again"). */
  askBeforePublishingProducts: boolean;
}

/** Which platform the workspace talks to; the token itself never leaves the main side. */
export interface AccountSettings {
  mode: 'demo' | 'account' | 'offline';
  apiBase: string | null;
  /** The token's last four characters after a mask, e.g. "••••••••3f9a". */
  tokenHint: string | null;
  plan: 'free' | 'pro' | 'enterprise';
}

/** The rate-limit governor as the queue screen's gauge shows it. */
export interface RateGauge {
  limit: number;
  remaining: number;
  resetAtMs: number;
  inFlight: number;
  waiting: number;
  paused: string | null;
}

export interface Status {
  outbox: Record<OutboxState, number>;
  posts: Record<PostStatus, number>;
  products: Record<ProductStatus, number>;
  rateLimit: RateGauge;
  paused: string | null;
  /** True after a successful answer, false after a network failure, null before any request. */
  online: boolean | null;
  requests: number;
  rateLimited: number;
  /** By resource; a problem says when the last sync failed or kept rows it could not prove gone. */
  sync: Record<string, SyncState>;
  /** This desktop in its team; null for a workspace of one (docs/team.md). */
  team: TeamStatus | null;
}

export interface DrainReport {
  published: number;
  failed: number;
  missed: number;
  retrying: number;
}

/**
 * Per resource: the number of items read when the list was read provably whole (the cache now
 * mirrors it); else how many were read and why no cached row was deleted; or the error.
 */
export type SyncOutcome = number | { fetched: number; notPruned: string } | { error: string };
export type SyncReport = Record<string, SyncOutcome>;

/** The last sync of a resource: when it last read the list, and what was wrong with the last one. */
export interface SyncState {
  syncedAt: number | null;
  problem: string | null;
}

export interface RowError {
  row: number;
  column: string;
  value: string;
  message: string;
}

export interface ImportProgress {
  rowsRead: number;
  rowsValid: number;
  rowsWritten: number;
  bytesRead: number;
  bytes: number;
}

/**
 * The most errors (and warnings) an import's answer lists: enough to show and fix a file's
 * mistakes, while a file of a million bad rows still answers in a few kilobytes.
 */
export const IMPORT_LIST_LIMIT = 200;

export interface ImportResult {
  kind: 'posts' | 'products';
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  invalid: number;
  /** Rows left out because they repeat a post of their bot (each has a warning). */
  duplicates: number;
  /** The first IMPORT_LIST_LIMIT errors, by row; `errorCount` counts them all. */
  errors: RowError[];
  errorCount: number;
  /**
   * Rows left out but not invalid (repeated posts, products the platform has already): the first
   * IMPORT_LIST_LIMIT; `warningCount` counts them all.
   */
  warnings: RowError[];
  warningCount: number;
  /** The posting slot each undated row got with fillSlots, in row order: the first IMPORT_LIST_LIMIT. */
  slots: { row: number; botId: string; at: number }[];
  /** How many rows got a slot, and the earliest and latest slot given (null when none). */
  slotCount: number;
  slotSpan: { first: number; last: number } | null;
  /**
   * The bad rows as a file to fix and import again (null when none), kept by the core for a while
   * and read with getBadRows: the header (none when the file had none) and every invalid row as
   * read, filled out to the header's width, plus an `error` column. Never in the answer itself: a
   * big file's bad rows are as big as the file.
   */
  badRowsFile: string | null;
  unknownColumns: string[];
  /** The tool that wrote the file ("Shopify product export", ...), or null: matched by name. */
  source: string | null;
  /** The file has no header row: its columns are "Column 1", "Column 2", ... */
  firstRowIsData: boolean;
  /** Rows neither imported nor invalid (archived products, shops' container rows), by why. */
  leftOut: { reason: string; rows: number }[];
  encoding: string;
  /** The detector was unsure of the encoding: what else it may be, each with a sample line. */
  encodingGuess: EncodingAlternative[] | null;
  delimiter: string;
  /**
   * The import's batch. A refused or failed import has none, unless items a user sent out while
   * it ran had to stay (`inserted` of them; see describeKept).
   */
  batch: string | null;
  written: boolean;
}

/** What undoing an import did: the items it added removed, the drafts it changed restored. */
export interface ImportUndone {
  kind: 'posts' | 'products';
  removed: number;
  restored: number;
}

/** One past import, as the Import screen's history and `import list` show it (listImports). */
export interface ImportBatch {
  id: string;
  kind: 'posts' | 'products';
  /** The file's name as the user picked it (null: not recorded). */
  fileName: string | null;
  /** When it ran. */
  at: number;
  inserted: number;
  updated: number;
  unchanged: number;
  invalid: number;
  /** Rows neither written nor invalid: repeated posts, archived products and the like. */
  leftOut: number;
  undoneAt: number | null;
  /** Why it can no longer be undone, or null while it can. */
  cannotUndo: string | null;
  /** Its posts' earliest time (null: products, or drafts without one): where the calendar opens. */
  firstAt: number | null;
}

/** "2 new, 1 updated, 1 invalid": a past import's counts as the CLI and the history say them. */
export function describeBatch(
  batch: Pick<ImportBatch, 'inserted' | 'updated' | 'unchanged' | 'invalid' | 'leftOut'>,
): string {
  const counts: [number, string][] = [
    [batch.inserted, 'new'],
    [batch.updated, 'updated'],
    [batch.unchanged, 'unchanged'],
    [batch.invalid, 'invalid'],
    [batch.leftOut, 'left out'],
  ];
  const said = counts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  return said.length > 0 ? said.join(', ') : 'nothing written';
}

/** "3 products removed, 1 restored as it was": what the CLI and the wizard say after an undo. */
export function describeUndone(undone: ImportUndone): string {
  const restored =
    undone.restored > 0
      ? `, ${undone.restored} restored as ${undone.restored === 1 ? 'it was' : 'they were'}`
      : '';
  return `${undone.removed} ${undone.kind} removed${restored}`;
}

/**
 * What stayed of an import that was refused or failed, or null when nothing did: only items a
 * user sent to the platform while it ran, which no take-back can call back.
 */
export function describeKept(
  result: Pick<ImportResult, 'written' | 'batch' | 'inserted'>,
): string | null {
  if (result.written || result.batch === null || result.inserted === 0) return null;
  const one = result.inserted === 1;
  return `${result.inserted} ${one ? 'item' : 'items'} sent to the platform while the import ran ${one ? 'stays' : 'stay'}, in batch ${result.batch}; the rest was taken back`;
}

/** One field an import can fill, as the wizard's mapping offers it. */
export interface ImportField {
  name: string;
  required: boolean;
  /** Other header names matched to it automatically ("title", "Variant Price", ...). */
  aliases: string[];
}

/** An encoding an imported file may be in, with its first non-ASCII line as it would read. */
export interface EncodingAlternative {
  encoding: TextEncoding;
  sample: string;
}

export interface ImportPreview {
  /** The tool that wrote the file ("Hootsuite bulk file", ...), or null: matched by name. */
  source: string | null;
  /** The first row is data, as found or as the user said. */
  firstRowIsData: boolean;
  encoding: string;
  /** As ImportResult's: the encoding was a guess, and what else the file may be in. */
  encodingGuess: EncodingAlternative[] | null;
  delimiter: string;
  headers: string[];
  fields: ImportField[];
  /** Header → field (null: ignored), as matched or as the user set it. */
  mapping: Record<string, string | null>;
  /** The first rows as read, each with its row number as a spreadsheet shows it. */
  sample: { row: number; cells: string[] }[];
  /** A dry run of the whole file with this mapping: counts, and every error by row and column. */
  result: ImportResult | null;
  /** Why the file cannot be imported as mapped (a required field has no column), else null. */
  problem: string | null;
}

/** A bot's weekly posting schedule, as the schedule editor and `schedule show` present it. */
export interface BotSchedule {
  botId: string;
  /** The workspace's zone (settings.timezone): the slots are wall times there, through DST. */
  zone: string;
  /** Seven lists of "HH:MM", Monday first (shared/schedule.ts WeeklySchedule). */
  days: string[][];
  /** The same schedule as text, e.g. "mon-fri 09:00,12:30,17:00; sat 10:00" ("" when empty). */
  text: string;
  /** The next three free slots (UTC epoch ms), for a hint beside the editor. */
  nextFree: number[];
}

/** A slot of a bot's schedule that no post holds: the calendar shows it faintly. */
export interface FreeSlot {
  botId: string;
  /** UTC epoch ms. */
  at: number;
}

/** What "share next" did: where the post went, and the queued posts it pushed one slot later. */
export interface SharedNext {
  post: LocalPost;
  moved: { id: number; from: number; to: number }[];
}

/** The post a refused text repeats (CallError `duplicate`), so the UI can ask and retry. */
export interface DuplicateConflict {
  postId: number;
  botId: string | null;
  status: PostStatus;
  text: string;
  /** When that post goes or went out (UTC epoch ms). */
  at: number;
  /** When the refused post would have gone out. */
  requestedAt: number;
  windowDays: number;
}

export interface CampaignDrafts extends AiAnswerInfo {
  /** The posts read from the answer: `requested` of them, or fewer when the model gave fewer. */
  drafts: string[];
  requested: number;
  /** Counted before the call (shared/campaign.ts estimateCampaign, which the UI can run too). */
  estimate: TokenEstimate;
  /** The answer was cut at the token limit (its last, incomplete post is left out). */
  truncated: boolean;
}
