// Mirrors a team's data document and this workspace's posts and products rows, both ways (Node):
// a change another desktop made is written into the rows (so every screen and the CLI work
// unchanged); a change made here (by any screen, the CLI or a CSV import) is written into the
// document field by field, text as a character diff so two people typing merge. Deletions are a
// deletedAt field, never a hard delete, which would drop a concurrent edit.
import * as Y from 'yjs';
import { emptySchedule, hasSlots } from '../../shared/schedule';
import {
  postsMap,
  productsMap,
  readPostFields,
  readPostText,
  schedulesMap,
} from '../../shared/team-doc';
import type { SharedPostFields, SharedProductFields } from '../../shared/team-doc';
import { scheduleOf } from '../store/schedules';
import type { SchedulesStore } from '../store/schedules';
import type { TeamPostRow, TeamProductRow, TeamStore } from '../store/team';

/** Marks this desktop's own writes into the document, so the observer does not write them back. */
export const LOCAL_ORIGIN = Symbol('local rows');

/** Which rows another desktop's change was written into, so screens showing them reload. */
export type PulledKind = 'posts' | 'products' | 'schedules';

export class TeamMirror {
  constructor(
    private readonly doc: Y.Doc,
    private readonly team: TeamStore,
    private readonly schedules: SchedulesStore,
    private readonly transaction: <T>(work: () => T) => T,
    private readonly now: () => number = Date.now,
    /** Told which shared posts another desktop changed, once their rows are written. */
    private readonly pulledPosts: (uuids: readonly string[]) => void = () => undefined,
  ) {}

  /** Writes every record of the document into the rows (joining, or opening offline). */
  pullAll(): void {
    this.pull([...postsMap(this.doc).keys()], [...productsMap(this.doc).keys()]);
    this.pullSchedules([...schedulesMap(this.doc).keys()]);
  }

  /** Follows the document from now on: what others change reaches the rows at once. */
  follow(onPulled: (what: PulledKind) => void = () => undefined): () => void {
    const onPosts = (events: Y.YEvent<Y.AbstractType<unknown>>[], transaction: Y.Transaction) => {
      if (transaction.origin === LOCAL_ORIGIN) return;
      this.pull(changedKeys(events), []);
      onPulled('posts');
    };
    const onProducts = (
      events: Y.YEvent<Y.AbstractType<unknown>>[],
      transaction: Y.Transaction,
    ) => {
      if (transaction.origin === LOCAL_ORIGIN) return;
      this.pull([], changedKeys(events));
      onPulled('products');
    };
    const onSchedules = (event: Y.YMapEvent<unknown>, transaction: Y.Transaction) => {
      if (transaction.origin === LOCAL_ORIGIN) return;
      this.pullSchedules([...event.keysChanged]);
      onPulled('schedules');
    };
    postsMap(this.doc).observeDeep(onPosts);
    productsMap(this.doc).observeDeep(onProducts);
    schedulesMap(this.doc).observe(onSchedules);
    return () => {
      postsMap(this.doc).unobserveDeep(onPosts);
      productsMap(this.doc).unobserveDeep(onProducts);
      schedulesMap(this.doc).unobserve(onSchedules);
    };
  }

  private pull(posts: readonly string[], products: readonly string[]): void {
    this.transaction(() => {
      for (const uuid of posts) {
        const record = postsMap(this.doc).get(uuid);
        if (!record) continue;
        const fields = readPostFields(record);
        if (fields.deletedAt !== null) this.team.removeDeleted('posts', uuid);
        else this.team.upsertPost({ uuid, ...fields, text: readPostText(record) });
      }
      for (const uuid of products) {
        const fields = readProduct(productsMap(this.doc).get(uuid));
        if (!fields) continue;
        if (fields.deletedAt !== null) this.team.removeDeleted('products', uuid);
        else this.team.upsertProduct({ uuid, ...fields });
      }
    });
    if (posts.length > 0) this.pulledPosts(posts);
  }

  private pullSchedules(bots: readonly string[]): void {
    this.transaction(() => {
      for (const bot of bots) this.schedules.set(bot, scheduleOf(schedulesMap(this.doc).get(bot)));
    });
  }

  /** Bots' schedules are few: each push compares them whole, and a cleared one is shared as such. */
  private pushSchedules(): void {
    const shared = schedulesMap(this.doc);
    const local = new Map(this.schedules.list().map((row) => [row.botId, row.schedule]));
    for (const [bot, schedule] of local) setIfChanged(shared, bot, schedule);
    for (const [bot, schedule] of shared.entries())
      if (!local.has(bot) && hasSlots(scheduleOf(schedule))) shared.set(bot, emptySchedule());
  }

  /**
   * Writes the rows changed here since `since` into the document, and marks deleted the records
   * whose rows are gone. Answers the latest change written, for the next call.
   */
  push(since: number): number {
    // A post or product made here since the last push (any screen, the CLI, an import) joins now.
    this.transaction(() => this.team.assignUuids());
    const posts = this.team.postsChangedSince(since);
    const products = this.team.productsChangedSince(since);
    let upto = since;
    this.doc.transact(() => {
      for (const post of posts) upto = Math.max(upto, writePost(this.doc, post));
      for (const product of products) upto = Math.max(upto, writeProduct(this.doc, product));
      this.markDeleted(postsMap(this.doc), 'posts');
      this.markDeleted(productsMap(this.doc), 'products');
      this.pushSchedules();
    }, LOCAL_ORIGIN);
    return upto;
  }

  private markDeleted(records: Y.Map<Y.Map<unknown>>, table: 'posts' | 'products'): void {
    const live = [...records.entries()]
      .filter(([, record]) => record.get('deletedAt') === null)
      .map(([uuid]) => uuid);
    for (const uuid of this.team.missing(table, live))
      records.get(uuid)?.set('deletedAt', this.now());
  }
}

function changedKeys(events: Y.YEvent<Y.AbstractType<unknown>>[]): string[] {
  const keys = new Set<string>();
  for (const event of events) {
    if (event.path.length > 0) keys.add(String(event.path[0]));
    else for (const key of event.changes.keys.keys()) keys.add(key);
  }
  return [...keys];
}

/** Sets a field only when its value differs: an unchanged field makes no update, so no echo. */
function setIfChanged(record: Y.Map<unknown>, key: string, value: unknown): void {
  if (JSON.stringify(record.get(key)) !== JSON.stringify(value)) record.set(key, value);
}

function writePost(doc: Y.Doc, post: TeamPostRow): number {
  let record = postsMap(doc).get(post.uuid);
  if (!record) {
    record = new Y.Map<unknown>();
    record.set('text', new Y.Text());
    record.set('revision', 1);
    record.set('labels', []);
    postsMap(doc).set(post.uuid, record);
  }
  const text = record.get('text');
  if (text instanceof Y.Text) applyTextDiff(text, post.text);
  else {
    const fresh = new Y.Text();
    fresh.insert(0, post.text);
    record.set('text', fresh);
  }
  const fields: Omit<SharedPostFields, 'labels' | 'revision'> = {
    botId: post.botId,
    mediaUrls: post.mediaUrls,
    scheduledAt: post.scheduledAt,
    zone: post.zone,
    // A local outcome (sending, published, failed) is not a shared edit.
    status:
      post.status === 'scheduled'
        ? 'scheduled'
        : post.status === 'draft'
          ? 'draft'
          : readPostFields(record).status,
    deletedAt: null,
  };
  for (const [key, value] of Object.entries(fields)) setIfChanged(record, key, value);
  return post.updatedAt;
}

function writeProduct(doc: Y.Doc, product: TeamProductRow): number {
  let record = productsMap(doc).get(product.uuid);
  if (!record) {
    record = new Y.Map<unknown>();
    productsMap(doc).set(product.uuid, record);
  }
  const { uuid: _uuid, updatedAt, ...fields } = product;
  for (const [key, value] of Object.entries({ ...fields, deletedAt: null }))
    setIfChanged(record, key, value);
  return updatedAt;
}

function readProduct(record: Y.Map<unknown> | undefined): SharedProductFields | undefined {
  if (!record) return undefined;
  const sku = record.get('sku');
  const name = record.get('name');
  const priceMinor = record.get('priceMinor');
  const currency = record.get('currency');
  if (typeof sku !== 'string' || typeof name !== 'string' || typeof currency !== 'string')
    return undefined;
  if (typeof priceMinor !== 'number' || !Number.isSafeInteger(priceMinor) || priceMinor < 0)
    return undefined;
  const optional = <T>(key: string, type: 'string' | 'number') => {
    const value = record.get(key);
    return (typeof value === type ? value : null) as T | null;
  };
  return {
    sku,
    name,
    priceMinor,
    currency,
    description: optional<string>('description', 'string'),
    stock: optional<number>('stock', 'number'),
    imageUrl: optional<string>('imageUrl', 'string'),
    deletedAt: optional<number>('deletedAt', 'number'),
  };
}

/** Turns `text` into `next` by one delete and one insert between the common prefix and suffix. */
export function applyTextDiff(text: Y.Text, next: string): void {
  const current = text.toString();
  if (current === next) return;
  let start = 0;
  while (start < current.length && start < next.length && current[start] === next[start]) start++;
  let end = 0;
  while (
    end < current.length - start &&
    end < next.length - start &&
    current[current.length - 1 - end] === next[next.length - 1 - end]
  )
    end++;
  text.delete(start, current.length - start - end);
  text.insert(start, next.slice(start, next.length - end));
}
