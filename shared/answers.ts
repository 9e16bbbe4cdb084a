// What the core answers (pure; runs in every process): each operation's result, the envelope
// every call's answer crosses IPC or HTTP in, and the events the core pushes to its watchers.
// The operations themselves, with their input schemas, are in contract.ts.
import type { ConnectionReport } from './connection';
import type { ApprovalState, TeamHistoryEntry, TeamMember, TeamOverview, TeamStatus } from './team';
import type {
  AccountSettings,
  AiAssistReply,
  AiUsageDay,
  BotPostCounts,
  BotSchedule,
  BotSummary,
  CampaignDrafts,
  DrainReport,
  DuplicateConflict,
  FreeSlot,
  TagAudience,
  ImportPreview,
  ImportProgress,
  ImportResult,
  ImportBatch,
  ImportUndone,
  LocalPost,
  LocalProduct,
  OrderSummary,
  OutboxItem,
  Page,
  QueueRow,
  ReceivedEvent,
  SharedNext,
  Status,
  SubscriberDetail,
  SubscriberSummary,
  SyncReport,
  WebhookInfo,
  WorkspaceSettings,
} from './domain';
import type { ReviewResults } from './review';
import type { ReviewNoticeEvent } from './team-status';
import type { MediaHost } from './contract';
import type { MediaType } from './media';

/** A post's picture as a page shows it. */
export interface MediaPicture {
  /** What the post's mediaUrls keeps: a web address, or pressroom-media:<hash>.<ext>. */
  url: string;
  /** The uploaded file's name; null for a web address. */
  fileName: string | null;
  type: MediaType | null;
  /** What an <img> may show (a data: thumbnail of an uploaded picture); null when nothing can be. */
  thumbnailUrl: string | null;
}

/** getCalendar's answer. */
export interface CalendarRange {
  /** The range's posts to draw, by time. */
  posts: LocalPost[];
  /** Wall day ("2026-11-23") → how many of its posts were left out; days with none are absent. */
  hidden: Record<string, number>;
  drafts: LocalPost[];
  freeSlots: FreeSlot[];
  bots: BotSummary[];
  /** A picture of the range's posts and drafts → what a chip may show for it (MediaPicture). */
  thumbnails: Record<string, string>;
  /** Post id → its approval state when out of draft (a team workspace; empty otherwise). */
  approvals?: Record<number, ApprovalState>;
}

/** What each operation answers with (the value of a successful CallResult). */
export interface OperationResults extends ReviewResults {
  addPost: LocalPost;
  updatePost: LocalPost;
  queuePost: LocalPost;
  getSchedule: BotSchedule;
  setSchedule: BotSchedule;
  listSchedules: Pick<BotSchedule, 'botId' | 'text'>[];
  listFreeSlots: FreeSlot[];
  addToQueue: LocalPost;
  shareNext: SharedNext;
  getPost: LocalPost;
  getPostTeamHistory: TeamHistoryEntry[];
  listPosts: LocalPost[];
  getCalendar: CalendarRange;
  deletePost: { removed: number };
  addMedia: MediaPicture;
  describeMedia: MediaPicture[];
  readMedia: { fileName: string | null; contentBase64: string };
  getMediaHost: MediaHost | null;
  /** The host set, or null when the user closed the dialog without a folder. */
  chooseMediaFolder: MediaHost | null;
  setMediaHost: null;
  moveToDrafts: LocalPost;
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
  listTagAudiences: TagAudience[];
  broadcast: { group: string; recipients: number };
  broadcastProgress: Record<OutboxItem['state'], number>;
  createBot: OutboxItem;
  renameBot: OutboxItem;
  botPosts: BotPostCounts;
  deleteBot: OutboxItem;
  queueProducts: OutboxItem[];
  importFile: ImportResult;
  importUpload: ImportResult;
  previewUpload: ImportPreview;
  getBadRows: { csv: string };
  undoImport: ImportUndone;
  listImports: ImportBatch[];
  exportFile: number;
  exportText: { fileName: string; csv: string; rows: number };
  retryItem: OutboxItem;
  resendItem: OutboxItem;
  markItemPublished: OutboxItem;
  cancelItem: OutboxItem;
  status: Status;
  getTeam: TeamOverview;
  inviteTeamMember: { member: TeamMember; token: string };
  joinTeam: TeamStatus | null;
  createTeam: TeamStatus | null;
  revokeTeamMember: TeamMember;
  setEditingPost: null;
  sync: SyncReport;
  publishDue: DrainReport;
  pauseQueue: null;
  resumeQueue: null;
  aiAssist: AiAssistReply;
  aiUsage: AiUsageDay[];
  draftCampaign: CampaignDrafts;
  saveCampaignDrafts: LocalPost[];
  listWebhooks: { subscriptions: WebhookInfo[]; receiverUrl: string | null };
  createWebhook: WebhookInfo;
  listReceivedEvents: ReceivedEvent[];
  getSettings: WorkspaceSettings & { account: AccountSettings };
  saveSettings: WorkspaceSettings;
  connectAccount: AccountSettings;
  useDemo: AccountSettings;
  checkConnection: ConnectionReport;
}

/** What the queue tells its watchers (the UI's queue screen, notifications, the CLI's stderr). */
export type QueueEvent =
  | { type: 'done'; item: OutboxItem; remoteId: string | null }
  | { type: 'retrying'; item: OutboxItem; reason: string; readyAt: number }
  | {
      type: 'failed';
      item: OutboxItem;
      reason: string;
      fieldErrors: { field: string; message: string }[];
    }
  | { type: 'missed'; item: OutboxItem }
  | { type: 'paused'; reason: string };

/** Everything the core pushes to the renderer's event stream. */
export type CoreEvent =
  | QueueEvent
  | { type: 'import'; progress: ImportProgress }
  | {
      type: 'changed';
      what: 'posts' | 'products' | 'cache' | 'queue' | 'settings' | 'account' | 'schedules';
    }
  | { type: 'received'; event: ReceivedEvent }
  | ReviewNoticeEvent;

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
  /** The text repeats another post of the bot; `duplicate` says which. Retry with allowDuplicate. */
  | 'duplicate'
  | 'internal';

export interface CallError {
  kind: CallErrorKind;
  message: string;
  issues?: Issue[];
  /** With kind `duplicate`: the post the text repeats. */
  duplicate?: DuplicateConflict;
}

/** What crosses IPC or HTTP for every call: a value, or an error the UI can show as it is. */
export type CallResult<T = unknown> = { ok: true; value: T } | { ok: false; error: CallError };
