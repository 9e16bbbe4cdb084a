// The typed contract between the core and its callers (renderer over IPC or HTTP, and the CLI):
// each operation's input schema, defined once. Pure; runs in every process.
import { z } from 'zod';
import { CAMPAIGN_TONES, MAX_BRIEF_LENGTH, MAX_CAMPAIGN_POSTS } from './campaign';
import { OUTBOX_STATES, POST_STATUSES, PRODUCT_STATUSES, THEMES, WEBHOOK_EVENTS } from './domain';
import { TEXT_ENCODINGS } from './encodings';
import { isTimeZone } from './time';
import { isCurrency } from './money';
import { MEDIA_MAX_BYTES, THUMBNAIL_MAX_BYTES, localMediaName } from './media';
import { isHttpUrl } from './url';
import { apiBaseUrl, httpUrl, text } from './validation';
import { reviewOperations } from './review';
import { LIMITS } from './limits';
import { TEAM_ROLES } from './team';
import { MAX_MEDIA_BASE64, base64Length } from './upload-limits';

/** The name of an uploaded file, as the user's computer called it. */
export const uploadFileName = z.string().min(1).max(255);
export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;

const zone = z
  .string()
  .refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Berlin' });
/**
 * A workspace's settings as they are kept: saveSettings takes any of them, and the settings
 * service reads each stored value through its field here (one that no longer fits gets its default).
 */
export const workspaceSettings = z.strictObject({
  timezone: zone,
  graceMinutes: z.number().int().min(0).max(LIMITS.graceMinutes),
  theme: z.enum(THEMES),
  defaultCurrency: z.string().refine(isCurrency, { error: 'must be an ISO 4217 code such as EUR' }),
  defaultBotId: z.string().min(1).nullable(),
  duplicateWindowDays: z.number().int().min(0).max(LIMITS.duplicateWindowDays),
  askBeforePublishingProducts: z.boolean(),
});
const pageWindow = {
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
};
const search = z.string().max(200).optional();
/** Columns an import's mapping may name: far more than any shop's export has. */
const MAX_MAPPED_COLUMNS = 1000;
const importOptions = {
  kind: z.enum(['posts', 'products']),
  dryRun: z.boolean().default(false),
  onError: z.enum(['abort', 'skip']).default('abort'),
  queue: z.boolean().default(false),
  past: z.enum(['error', 'publish-now']).default('error'),
  timezone: zone.optional(),
  dateFormat: z.enum(['DD/MM/YYYY', 'MM/DD/YYYY']).optional(),
  /** Field → the file's header it is read from (null: not imported); other fields match by name. */
  mapping: z
    .record(z.string().max(1000), z.string().max(1000).nullable())
    .refine((mapping) => Object.keys(mapping).length <= MAX_MAPPED_COLUMNS, {
      error: `must name at most ${MAX_MAPPED_COLUMNS} columns`,
    })
    .optional(),
  /**
   * Posts: rows without a time are scheduled in the next free slots of their bot (the row's, else
   * the default bot); implies `queue`. ImportResult.slots (the preview's too) lists the times given.
   */
  fillSlots: z.boolean().default(false),
  /** Posts: import rows that repeat a post of their bot, instead of leaving them out with a warning. */
  allowDuplicates: z.boolean().default(false),
  /** The file's encoding, over the detection. */
  encoding: z.enum(TEXT_ENCODINGS).optional(),
  /** The first row is data, not a header (found from the row when not given). */
  firstRowIsData: z.boolean().optional(),
  /** Posts: the bot (id or name) of rows without one. */
  bot: z.string().trim().min(1).max(200).optional(),
};
/** A file uploaded for an import: the id the upload was answered with. */
const upload = { upload: z.string().min(1).max(64) };
export const PRODUCT_SORTS = ['sku', 'name', 'price', 'stock', 'status', 'updated'] as const;
export const AI_TASKS = ['draft', 'shorten', 'rephrase', 'hashtags'] as const;

const itemId = z
  .number({ error: 'must be a number' })
  .int()
  .positive({ error: 'must be a positive id' });
/**
 * The most products one call may name: the catalog's whole grid selected. Every list in the
 * contract has a maximum, so no input makes the core hold or loop over an unbounded one.
 */
export const MAX_SELECTION = 100_000;
const productIds = z
  .array(itemId)
  .min(1, { error: 'choose at least one product' })
  .max(MAX_SELECTION, { error: `choose at most ${MAX_SELECTION.toLocaleString('en')} products` });

export const POST_MODES = ['draft', 'schedule', 'publish_now', 'hand_off'] as const;

/**
 * Every operation that sends a post out (schedules, publishes now or hands off) refuses a text that
 * repeats a counted post of the same bot within settings.duplicateWindowDays, with the error kind
 * `duplicate` (CallError.duplicate names the other post); the same input with this flag set to
 * true goes ahead.
 */
const allowDuplicate = z.boolean().default(false);
/** Where uploaded pictures are published from: a folder the user's web space serves at the URL. */
export const mediaHost = z.strictObject({ folder: z.string().min(1), publicBaseUrl: httpUrl });
export type MediaHost = z.infer<typeof mediaHost>;

/** A post's picture: on the web, or uploaded into Pressroom (shared/media.ts) until it is published. */
const mediaUrl = z
  .string()
  .max(2048, { error: 'must be at most 2048 characters' })
  .refine((url) => isHttpUrl(url) || localMediaName(url) !== null, {
    error: 'must be an absolute http or https URL, or a picture uploaded into Pressroom',
  });
const mediaUrls = z
  .array(mediaUrl)
  .max(LIMITS.postMediaUrls, { error: `must have at most ${LIMITS.postMediaUrls} URLs` });
const botId = z.string().min(1);

/** A post to put in its bot's queue: an existing one (id), or a new one (text, and its bot). */
const queueTarget = z
  .strictObject({
    id: itemId.optional(),
    text: text(1, LIMITS.postText).optional(),
    /** A new post's bot; by default settings.defaultBotId. */
    botId: botId.optional(),
    mediaUrls: mediaUrls.optional(),
    allowDuplicate,
  })
  .superRefine((target, context) => {
    if ((target.id === undefined) === (target.text === undefined))
      context.addIssue({
        code: 'custom',
        path: ['text'],
        message: 'give either id (a post to move) or text (a new post)',
      });
    else if (
      target.id !== undefined &&
      (target.botId !== undefined || target.mediaUrls !== undefined)
    )
      context.addIssue({
        code: 'custom',
        path: [target.botId === undefined ? 'mediaUrls' : 'botId'],
        message: 'is for a new post; change an existing one with updatePost',
      });
  });

/** Milliseconds since the epoch, UTC. */
const instant = z.number().int();

export const operations = {
  ...reviewOperations,
  addPost: z.strictObject({
    text: text(1, LIMITS.postText),
    /** ISO 8601; without an offset it is a wall time in `zone`. */
    at: z.string().min(1).optional(),
    zone: zone.optional(),
    botId: botId.optional(),
    mediaUrls: mediaUrls.default([]),
    /** draft: keep here; schedule: publish at `at`; publish_now; hand_off: give the platform the time now. */
    mode: z.enum(POST_MODES).default('schedule'),
    allowDuplicate,
  }),
  /** Edits a post; a queued one is checked by the duplicate guard when its text, bot or time changes. */
  updatePost: z.strictObject({
    id: itemId,
    text: text(1, LIMITS.postText).optional(),
    at: z.string().min(1).nullable().optional(),
    zone: zone.optional(),
    botId: botId.nullable().optional(),
    mediaUrls: mediaUrls.optional(),
    allowDuplicate,
  }),
  /** Moves a draft (or a failed or missed post) into the queue. */
  queuePost: z.strictObject({
    id: itemId,
    mode: z.enum(['schedule', 'publish_now', 'hand_off']),
    allowDuplicate,
  }),
  /** A bot's weekly posting schedule, in settings.timezone. */
  getSchedule: z.strictObject({ botId }),
  /**
   * Replaces a bot's schedule, written as "mon-fri 09:00,12:30,17:00; sat 10:00" (shared/schedule.ts
   * formatSchedule writes it from a grid); "" clears it. Unreadable text: invalid_input on
   * `schedule`, naming the part and why.
   */
  setSchedule: z.strictObject({ botId, schedule: z.string().max(2000) }),
  /**
   * Every bot's schedule as text (as getSchedule's `text`), by bot id, in one answer for the Bots
   * table; bots without a schedule are left out.
   */
  listSchedules: z.strictObject({}),
  /**
   * The slots no post holds in [from, to) (at most 366 days; slots before now are left out), for
   * every bot with a schedule or only `botId`, by time.
   */
  listFreeSlots: z
    .strictObject({ from: instant, to: instant, botId: botId.optional() })
    .refine((range) => range.to > range.from && range.to - range.from <= 366 * 86_400_000, {
      path: ['to'],
      error: 'must be after from, and at most 366 days after it',
    }),
  /**
   * "Add to queue": schedules the post in its bot's next free slot. A new post (text) is created
   * there; an existing draft, failed, missed or scheduled post (id) moves there (a scheduled one
   * may move earlier, into a gap). No bot, a bot without a schedule or without a free slot within
   * a year: invalid_input on `botId`.
   */
  addToQueue: queueTarget,
  /**
   * "Share next": the post goes to the front of its bot's queue, into the bot's next slot. Queued
   * posts sitting in the following slots one after another each move one slot later, up to the
   * first free slot, so the schedule's spacing is kept; posts that cannot move (being sent, handed
   * off, made on the platform) keep their slot and are stepped over. Errors as addToQueue.
   */
  shareNext: queueTarget,
  /** One post, as a notification or an address (`#/calendar/post/<id>`) opens it. */
  getPost: z.strictObject({ id: itemId }),
  /** Who in the team did what to a post (edits, publishing), oldest first; [] outside a team. */
  getPostTeamHistory: z.strictObject({ postId: itemId }),
  listPosts: z.strictObject({
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    status: z.enum(POST_STATUSES).optional(),
    /** Only posts without a time (the calendar's list of unscheduled drafts). */
    unscheduled: z.boolean().optional(),
  }),
  /**
   * What the calendar draws for the range [from, to), in one answer. Posts: with `perDay`, only the
   * earliest that many of each day on `zone`'s wall clock, and how many more each such day holds,
   * so a busy month sends what it shows, not thousands of posts; `botId` and `status` filter them
   * (`botId` null: the posts without a bot). Also the drafts without a time, the range's free
   * posting slots and the bots.
   */
  getCalendar: z.strictObject({
    from: instant,
    to: instant,
    zone,
    perDay: z.number().int().min(1).max(1000).optional(),
    botId: botId.nullable().optional(),
    status: z.enum(POST_STATUSES).optional(),
  }),
  /** Removes a post that never went out (draft, failed or missed), with its queue item. */
  deletePost: z.strictObject({ id: itemId }),
  /**
   * A picture the page read (chosen or dropped), with the small thumbnail it drew for lists and
   * the calendar; answered with the reference a post's mediaUrls keeps.
   */
  addMedia: z.strictObject({
    fileName: uploadFileName,
    // The core says which file is over MEDIA_MAX_BYTES, and by how much.
    contentBase64: z.string().max(MAX_MEDIA_BASE64, {
      error: `is over ${(2 * MEDIA_MAX_BYTES) / 1024 / 1024} MiB`,
    }),
    thumbnailBase64: z
      .string()
      .max(base64Length(THUMBNAIL_MAX_BYTES), {
        error: `is over ${THUMBNAIL_MAX_BYTES / 1024} KiB`,
      })
      .optional(),
  }),
  /** The file names and thumbnails of a post's pictures, for its editor. */
  describeMedia: z.strictObject({ urls: mediaUrls }),
  /**
   * An uploaded picture's bytes, so the page can draw the thumbnail of one added without (by the
   * command line, which has no way to draw one) and keep it with addMedia.
   */
  readMedia: z.strictObject({ url: mediaUrl }),
  /** Where uploaded pictures are published from, for the settings screen; null when nowhere yet. */
  getMediaHost: z.strictObject({}),
  /**
   * The desktop app's way to set the media host: its native dialog picks the folder (the page
   * names no path), served at `publicBaseUrl`. Where there is no such dialog (the browser), refused
   * with the command that does it.
   */
  chooseMediaFolder: z.strictObject({ publicBaseUrl: httpUrl }),
  /** Where uploaded pictures are published from: a folder the user's web space serves; null for none. */
  setMediaHost: z.strictObject({ host: mediaHost.nullable() }),
  /** Takes a scheduled post out of the queue; it stays, as a draft, at its time. */
  moveToDrafts: z.strictObject({ id: itemId }),
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
    sku: text(1, LIMITS.productSku),
    name: text(1, LIMITS.productName),
    price: z.string().trim().min(1, { error: 'is required' }),
    currency: z.string().trim().toUpperCase().optional(),
    description: text(0, LIMITS.productDescription).nullable().default(null),
    stock: z.number().int().min(0, { error: 'must be 0 or more' }).nullable().default(null),
    imageUrl: httpUrl.nullable().default(null),
  }),
  duplicateProduct: z.strictObject({ id: itemId }),
  deleteProducts: z.strictObject({ ids: productIds }),
  listQueue: z.strictObject({
    states: z
      .array(z.enum(OUTBOX_STATES))
      .max(OUTBOX_STATES.length, { error: `must name at most ${OUTBOX_STATES.length} states` })
      .optional(),
    limit: z.number().int().min(1).max(2000).default(500),
  }),
  listBots: z.strictObject({}),
  listSubscribers: z.strictObject({ ...pageWindow, search, tag: z.string().max(50).optional() }),
  getSubscriber: z.strictObject({ id: z.string().min(1) }),
  listOrders: z.strictObject({ ...pageWindow, search, status: z.string().max(40).optional() }),
  sendMessage: z.strictObject({
    subscriberId: z.string().min(1),
    text: text(1, LIMITS.messageText),
  }),
  addTag: z.strictObject({
    subscriberId: z.string().min(1),
    tag: text(1, LIMITS.tag).refine((tag) => !tag.includes(','), {
      error: 'must not contain commas',
    }),
  }),
  /** The tags subscribers carry, each with its active subscribers (from the last sync). */
  listTagAudiences: z.strictObject({}),
  /**
   * `recipients`: how many the user agreed to send to. When the platform now lists another number
   * of them, nothing is sent and the answer says so, for the user to confirm the new count.
   */
  broadcast: z.strictObject({
    tag: text(1, LIMITS.tag),
    text: text(1, LIMITS.messageText),
    recipients: z.number().int().min(1).optional(),
  }),
  broadcastProgress: z.strictObject({ group: z.string().min(1) }),
  createBot: z.strictObject({
    name: text(1, LIMITS.botName),
    description: text(0, LIMITS.botDescription).nullable().optional(),
    channel: z.enum(['telegram', 'whatsapp', 'messenger', 'instagram', 'web']).default('web'),
  }),
  renameBot: z.strictObject({ botId: z.string().min(1), name: text(1, LIMITS.botName) }),
  /** What a bot's deletion would leave behind here: its scheduled posts and its drafts. */
  botPosts: z.strictObject({ botId }),
  /**
   * Deletes a bot on the platform, and first does to its posts here what the user chose: move
   * them to another bot (`moveTo`), make them drafts without a bot, or delete them. Without a
   * choice a bot that still has posts is refused, so none of them fails later for want of it.
   */
  deleteBot: z
    .strictObject({
      botId,
      posts: z.enum(['move', 'draft', 'delete']).optional(),
      moveTo: botId.optional(),
    })
    .refine((input) => input.posts !== 'move' || (input.moveTo && input.moveTo !== input.botId), {
      error: 'name another bot to move the posts to',
      path: ['moveTo'],
    }),
  queueProducts: z.strictObject({ ids: productIds }),
  importFile: z.strictObject({
    ...importOptions,
    path: z.string().min(1, { error: 'name a file' }),
  }),
  /** The same import from a file the page uploaded (a picked or dropped file). */
  importUpload: z.strictObject({ ...importOptions, ...upload }),
  /** What the wizard shows before importing: detection, the column mapping, sample rows, and a dry run. */
  previewUpload: z.strictObject({
    ...importOptions,
    ...upload,
    sampleRows: z.number().int().min(1).max(200).default(20),
  }),
  /** The bad rows of an import or preview (ImportResult.badRowsFile) as CSV text, to download. */
  getBadRows: z.strictObject({ id: z.string().min(1).max(64) }),
  undoImport: z.strictObject({ batch: z.string().min(1) }),
  /** The latest import batches, newest first, with whether each can still be undone. */
  listImports: z.strictObject({ limit: z.number().int().min(1).max(500).default(50) }),
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
  /**
   * "I checked: it is not there, send it": the user's word, after a lookup could not be sure,
   * that an item whose outcome is unknown never reached the platform.
   */
  resendItem: z.strictObject({ id: itemId }),
  /** "It is there: mark published": the user's word that it did, with its id when they have it. */
  markItemPublished: z.strictObject({
    id: itemId,
    remoteId: z.string().trim().min(1).max(200).optional(),
  }),
  cancelItem: z.strictObject({ id: itemId }),
  status: z.strictObject({}),
  /** Settings → Team: this desktop's state in its team and the members (docs/team.md). */
  getTeam: z.strictObject({}),
  /** Owner only; the answer carries the new member's token, shown once and never again. */
  inviteTeamMember: z.strictObject({
    name: z.string().trim().min(1).max(100),
    role: z.enum(TEAM_ROLES),
  }),
  /** The token is the member's secret: sealed beside the workspace file, never answered again. */
  joinTeam: z.strictObject({
    link: z.string().trim().min(1).max(500),
    token: z.string().trim().min(1).max(200),
  }),
  /**
   * Creates a team on a team server (with a server key its machine made) from this workspace, and
   * joins it as the owner; the owner's token is sealed beside the file, never answered.
   */
  createTeam: z.strictObject({
    url: z.string().trim().min(1).max(500),
    serverKey: z.string().trim().min(1).max(200),
    name: z.string().trim().min(1).max(100),
    owner: z.string().trim().min(1).max(100),
  }),
  revokeTeamMember: z.strictObject({ member: z.string().min(1).max(40) }),
  /** The editor opened (a post's id) or closed (null) a post: the others see who edits it. */
  setEditingPost: z.strictObject({ postId: itemId.nullable() }),
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
  /**
   * Asks the platform's AI for `count` posts from a brief; saves nothing. The tokens it will likely
   * use can be shown beforehand with shared/campaign.ts estimateCampaign (the answer repeats that
   * estimate beside the platform's count). A provider failure is a `platform` error with the
   * server's message.
   */
  draftCampaign: z.strictObject({
    brief: text(1, MAX_BRIEF_LENGTH),
    count: z.number().int().min(1).max(MAX_CAMPAIGN_POSTS),
    /** The bot the posts are for (its name and channel go into the request); default bot else. */
    botId: botId.optional(),
    tone: z.enum(CAMPAIGN_TONES).default('friendly'),
    hashtags: z.boolean().default(false),
    provider: z.string().min(1).max(40).optional(),
  }),
  /**
   * Saves the drafts the user kept (and edited), in order, as drafts or each in the bot's next
   * free slot. All or nothing: a duplicate (or no free slot) saves none of them.
   */
  saveCampaignDrafts: z.strictObject({
    drafts: z
      .array(text(1, LIMITS.postText))
      .min(1, { error: 'keep at least one draft' })
      .max(MAX_CAMPAIGN_POSTS),
    botId: botId.optional(),
    placement: z.enum(['drafts', 'slots']).default('drafts'),
    allowDuplicate,
  }),
  listWebhooks: z.strictObject({}),
  createWebhook: z.strictObject({
    url: httpUrl,
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1, { error: 'choose at least one event' })
      .max(WEBHOOK_EVENTS.length, { error: 'names an event twice' })
      .refine((events) => new Set(events).size === events.length, {
        error: 'names an event twice',
      }),
  }),
  listReceivedEvents: z.strictObject({ limit: z.number().int().min(1).max(500).default(100) }),
  getSettings: z.strictObject({}),
  saveSettings: workspaceSettings.partial(),
  /** Tests the token against the platform, then keeps it (encrypted) and switches to the account. */
  connectAccount: z.strictObject({
    apiBase: apiBaseUrl,
    token: z.string().trim().min(8, { error: 'is too short to be an API token' }).max(512),
    plan: z.enum(PLAN_NAMES).default('free'),
  }),
  /** Forgets the account's token and goes back to the demo workspace. */
  useDemo: z.strictObject({}),
  /** How the connected platform speaks (token, rate-limit headers, clock, lists), in a few reads. */
  checkConnection: z.strictObject({}),
} as const;

/**
 * Who may call each operation. `renderer`: the window's page (over IPC) and the web host's page
 * may, and so may main. `main`: only Pressroom's own main-process code (the command line, the
 * desktop menu and a file dropped on the window). An operation that takes a path on this computer
 * is main-only, so a renderer bug (say, script smuggled in through imported text) cannot read or
 * write any file; the page uploads and downloads instead (importUpload, previewUpload,
 * exportText). connectAccount carries a token but stays the renderer's: the user types it there,
 * and no operation ever hands a token back. `satisfies` makes the compiler ask for every new
 * operation's side.
 */
export const OPERATION_SIDES = {
  addPost: 'renderer',
  updatePost: 'renderer',
  queuePost: 'renderer',
  getSchedule: 'renderer',
  setSchedule: 'renderer',
  listSchedules: 'renderer',
  listFreeSlots: 'renderer',
  addToQueue: 'renderer',
  shareNext: 'renderer',
  getPost: 'renderer',
  getPostTeamHistory: 'renderer',
  listPosts: 'renderer',
  getCalendar: 'renderer',
  deletePost: 'renderer',
  addMedia: 'renderer',
  describeMedia: 'renderer',
  readMedia: 'renderer',
  getMediaHost: 'renderer',
  chooseMediaFolder: 'renderer',
  setMediaHost: 'main',
  moveToDrafts: 'renderer',
  listProducts: 'renderer',
  saveProduct: 'renderer',
  duplicateProduct: 'renderer',
  deleteProducts: 'renderer',
  listQueue: 'renderer',
  listBots: 'renderer',
  listSubscribers: 'renderer',
  getSubscriber: 'renderer',
  listOrders: 'renderer',
  sendMessage: 'renderer',
  addTag: 'renderer',
  listTagAudiences: 'renderer',
  broadcast: 'renderer',
  broadcastProgress: 'renderer',
  createBot: 'renderer',
  renameBot: 'renderer',
  botPosts: 'renderer',
  deleteBot: 'renderer',
  queueProducts: 'renderer',
  importFile: 'main',
  importUpload: 'renderer',
  previewUpload: 'renderer',
  getBadRows: 'renderer',
  undoImport: 'renderer',
  listImports: 'renderer',
  exportFile: 'main',
  exportText: 'renderer',
  retryItem: 'renderer',
  resendItem: 'renderer',
  markItemPublished: 'renderer',
  cancelItem: 'renderer',
  status: 'renderer',
  getTeam: 'renderer',
  inviteTeamMember: 'renderer',
  joinTeam: 'renderer',
  createTeam: 'renderer',
  revokeTeamMember: 'renderer',
  setEditingPost: 'renderer',
  sync: 'renderer',
  publishDue: 'renderer',
  pauseQueue: 'renderer',
  resumeQueue: 'renderer',
  aiAssist: 'renderer',
  aiUsage: 'renderer',
  draftCampaign: 'renderer',
  saveCampaignDrafts: 'renderer',
  listWebhooks: 'renderer',
  createWebhook: 'renderer',
  listReceivedEvents: 'renderer',
  getSettings: 'renderer',
  saveSettings: 'renderer',
  connectAccount: 'renderer',
  useDemo: 'renderer',
  checkConnection: 'renderer',
  submitPost: 'renderer',
  approvePost: 'renderer',
  requestChanges: 'renderer',
  commentOnPost: 'renderer',
  listReview: 'renderer',
  getPostApproval: 'renderer',
  dismissReviewStep: 'renderer',
  teamLog: 'renderer',
} as const satisfies Record<keyof typeof operations, CallerSide>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<K extends keyof Operations> = z.input<Operations[K]>;
/** An operation's input once the contract checked it (defaults filled): what a service takes. */
export type CheckedInput<K extends keyof Operations> = z.output<Operations[K]>;
export type CallerSide = 'renderer' | 'main';
/** The operations a renderer may call (OPERATION_SIDES). */
export type RendererOperationName = {
  [K in OperationName]: (typeof OPERATION_SIDES)[K] extends 'renderer' ? K : never;
}[OperationName];
