// The layout of a team's Yjs documents (pure; yjs has no Node built-in): the data document every
// member edits (posts, products, schedules, keyed by UUID) and the control document only the team
// server writes (approval, lease and result per post; the audit log). One place names the fields,
// so the server's reading and the desktops' writing cannot drift apart.
import * as Y from 'yjs';
import type { LocalProduct } from './domain';
import type { ApprovalState } from './team';

export const DATA_POSTS = 'posts';
export const DATA_PRODUCTS = 'products';
export const DATA_SCHEDULES = 'schedules';
export const CONTROL_POSTS = 'posts';
export const CONTROL_AUDIT = 'audit';
/** The team's settings the server enforces; key `approval`: an ApprovalSetting. */
export const CONTROL_SETTINGS = 'settings';
export const APPROVAL_SETTING = 'approval';
/** Member id → name, so a desktop can say who did what without asking the server. */
export const CONTROL_MEMBERS = 'members';

/** A shared post: `text` is a Y.Text (two people typing merge), the rest plain values. */
export interface SharedPostFields {
  botId: string | null;
  mediaUrls: string[];
  scheduledAt: number | null;
  zone: string | null;
  labels: string[];
  status: 'draft' | 'scheduled';
  /** Set instead of deleting the record: a hard delete would drop a concurrent edit. */
  deletedAt: number | null;
  /** Raised when a published post is scheduled again; part of the idempotency key. */
  revision: number;
}

/** A shared product: the fields a person edits, and the deletion mark. */
export type SharedProductFields = Pick<
  LocalProduct,
  'sku' | 'name' | 'description' | 'priceMinor' | 'currency' | 'stock' | 'imageUrl'
> & { deletedAt: number | null };

export interface ControlPostEntry {
  approval: ApprovalState;
  /** Who submitted the post first (null: never submitted), who moved it last, and when. */
  author: string | null;
  approvalBy: string | null;
  approvalAt: number | null;
  lease: { holder: string; device: string; epoch: number; expiresAt: number } | null;
  result: { remoteId: string; at: number; by: string } | null;
}

export interface ControlAuditEntry {
  seq: number;
  at: number;
  member: string;
  action: string;
  post: string | null;
  detail: string;
}

export function postsMap(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap(DATA_POSTS);
}

export function productsMap(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap(DATA_PRODUCTS);
}

/** Bot id → its weekly schedule (plain, as `shared/schedule.ts` writes it); cleared: no slots. */
export function schedulesMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(DATA_SCHEDULES);
}

/** A post's plain fields as stored, with defaults for any a malformed record lacks. */
export function readPostFields(record: Y.Map<unknown>): SharedPostFields {
  const num = (key: string) => {
    const value = record.get(key);
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  };
  const str = (key: string) => {
    const value = record.get(key);
    return typeof value === 'string' ? value : null;
  };
  const strings = (key: string) => {
    const value = record.get(key);
    return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
  };
  return {
    botId: str('botId'),
    mediaUrls: strings('mediaUrls'),
    scheduledAt: num('scheduledAt'),
    zone: str('zone'),
    labels: strings('labels'),
    status: record.get('status') === 'scheduled' ? 'scheduled' : 'draft',
    deletedAt: num('deletedAt'),
    revision: num('revision') ?? 1,
  };
}

export function readPostText(record: Y.Map<unknown>): string {
  const text = record.get('text');
  return text instanceof Y.Text ? text.toString() : '';
}
