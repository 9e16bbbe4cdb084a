// Pressroom's own records, as the core hands them to the renderer and the CLI. Pure types and
// constants; runs in every process.

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

export const PRODUCT_STATUSES = ['draft', 'queued', 'sending', 'published', 'failed'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Where a record was made: here (editable until published) or on the platform (read-only). */
export type Origin = 'local' | 'remote';

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
  groupId: string | null;
  createdAt: number;
  updatedAt: number;
}
