// The platform's records mirrored in the workspace (Node, main process): bots, subscribers,
// orders, and posts and products that exist only on the platform. Sync writes here one page per
// transaction as pages arrive; what the platform no longer lists is dropped only after two whole
// reads in a row missed it (`finishRead`): a row missing from a cut-short list, or hidden from one
// read by an offset that shifted, may still exist.
import type {
  BotSummary,
  OrderSummary,
  Page,
  SubscriberDetail,
  SubscriberSummary,
  TagAudience,
} from '../../shared/domain';
import { SliceSizer } from '../../shared/slices';
import { durableLater } from './db';
import type { WorkspaceDb } from './db';
import type { CatalogFields } from './products';
import { Conditions, windowed } from './paging';
import type { PageQuery } from './paging';
import { statement } from './statements';

export interface RemoteBot {
  id: string;
  name: string;
  raw: unknown;
}

export interface RemoteSubscriber {
  id: string;
  botId: string | null;
  name: string;
  tags: string[];
  status: string;
  raw: unknown;
}

export interface RemoteOrder {
  id: string;
  status: string;
  currency: string;
  totalMinor: number;
  createdAt: number | null;
  raw: unknown;
}

export interface RemotePost {
  id: string;
  botId: string | null;
  text: string;
  mediaUrls: string[];
  status: 'scheduled' | 'published';
  scheduledAt: number | null;
  publishedAt: number | null;
  clientReference: string | null;
}

export type RemoteProduct = CatalogFields & { id: string };

/** The lists whose rows the cache deletes once the platform provably no longer has them. */
export type PrunedList = 'bots' | 'subscribers' | 'orders';

/** A field of the platform's raw record, if it is the expected type. */
function field<T extends 'string' | 'number'>(
  raw: Record<string, unknown>,
  key: string,
  type: T,
): (T extends 'string' ? string : number) | null {
  const value = raw[key];
  return typeof value === type ? (value as T extends 'string' ? string : number) : null;
}

function parseRaw(text: string): Record<string, unknown> {
  const value = JSON.parse(text) as unknown;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** Rows judged per transaction of finishRead: as many as a slice's budget fits, within these. */
export const JUDGE_ROWS = { first: 1_000, min: 1_000, max: 10_000 };

/** The page cache a sync runs with, in KiB: SQLite's own default (2 MB). */
export const SYNC_PAGE_CACHE_KIB = 2_000;

export class CacheStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
    /** A turn of the event loop between transactions, and room in the log (WorkspaceStore). */
    private readonly room: () => Promise<void>,
  ) {}

  /**
   * Runs `sync` with the connection's page cache at most `SYNC_PAGE_CACHE_KIB`, then gives it its
   * size back. better-sqlite3 builds SQLite with a 16 MB cache, which a sync filled with the pages
   * it wrote and judged: 17 MB of the main thread's malloc arena by the end of 100,000 orders,
   * the part of its peak memory that grew with the list (#32). Each of a sync's transactions
   * touches a few hundred KB; the app's other reads meanwhile find their pages in the file
   * system's cache instead.
   */
  async withSyncPageCache<T>(sync: () => Promise<T>): Promise<T> {
    const size = this.db.pragma('cache_size', { simple: true }) as number;
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    // A negative size is KiB, a positive one pages.
    const kib = size < 0 ? -size : (size * pageSize) / 1024;
    if (kib <= SYNC_PAGE_CACHE_KIB) return sync();
    this.db.pragma(`cache_size = -${SYNC_PAGE_CACHE_KIB}`);
    try {
      return await sync();
    } finally {
      if (this.db.open) this.db.pragma(`cache_size = ${size}`);
    }
  }

  /**
   * Starts a whole read of a pruned list: its generation, which each page's rows are marked
   * with (`putBots`, `putSubscribers`, `putOrders`) and `finishRead` judges by.
   */
  beginRead(list: PrunedList): number {
    return (
      statement(
        this.db,
        `INSERT INTO sync_cursors (resource, generation) VALUES (?, 1)
         ON CONFLICT (resource) DO UPDATE SET generation = generation + 1 RETURNING generation`,
      ).get(list) as { generation: number }
    ).generation;
  }

  /**
   * Of a page's `ids`, those read `generation` has already written: its repeats, told by the
   * rows' marks, so a long read holds no id of its own in memory (walkList's `ReadIds`).
   */
  readBefore(list: PrunedList, generation: number, ids: readonly string[]): Set<string> {
    const rows = statement(
      this.db,
      `SELECT id FROM ${list} WHERE id IN (SELECT value FROM json_each(?)) AND seen_in = ?`,
    ).all(JSON.stringify(ids), generation) as { id: string }[];
    return new Set(rows.map((row) => row.id));
  }

  /** One page of bots, in its own transaction, marked as seen by read `generation`. */
  putBots(bots: readonly RemoteBot[], generation: number): void {
    this.putPage(
      `INSERT INTO bots (id, name, raw, synced_at, seen_in, missed) VALUES (?, ?, ?, ?, ?, 0)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, raw = excluded.raw,
         synced_at = excluded.synced_at, seen_in = excluded.seen_in, missed = 0`,
      bots.map((bot) => [bot.id, bot.name, JSON.stringify(bot.raw)]),
      generation,
    );
  }

  putSubscribers(subscribers: readonly RemoteSubscriber[], generation: number): void {
    this.putPage(
      `INSERT INTO subscribers (id, bot_id, name, tags, status, raw, synced_at, seen_in, missed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT (id) DO UPDATE SET bot_id = excluded.bot_id, name = excluded.name, tags = excluded.tags,
         status = excluded.status, raw = excluded.raw, synced_at = excluded.synced_at,
         seen_in = excluded.seen_in, missed = 0`,
      subscribers.map((s) => [
        s.id,
        s.botId,
        s.name,
        JSON.stringify(s.tags),
        s.status,
        JSON.stringify(s.raw),
      ]),
      generation,
    );
  }

  putOrders(orders: readonly RemoteOrder[], generation: number): void {
    this.putPage(
      `INSERT INTO orders (id, status, currency, total_minor, created_at, raw, synced_at, seen_in, missed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, currency = excluded.currency,
         total_minor = excluded.total_minor, created_at = excluded.created_at, raw = excluded.raw,
         synced_at = excluded.synced_at, seen_in = excluded.seen_in, missed = 0`,
      orders.map((o) => [
        o.id,
        o.status,
        o.currency,
        o.totalMinor,
        o.createdAt,
        JSON.stringify(o.raw),
      ]),
      generation,
    );
  }

  /**
   * Each row's fields, then when it was synced and by which read. The cache is a copy of the
   * platform's lists, so a page's commit need not wait for the disk (durableLater).
   */
  private putPage(sql: string, rows: readonly unknown[][], generation: number): void {
    const syncedAt = this.now();
    durableLater(this.db, () =>
      this.db
        .transaction(() => {
          const upsert = statement(this.db, sql);
          for (const row of rows) upsert.run(...row, syncedAt, generation);
        })
        .immediate(),
    );
  }

  /**
   * Ends read `generation`. Only a read that was provably whole judges what it did not see: each
   * such row counts one more miss, and a row missed by two whole reads in a row is deleted (one
   * miss can be an offset shifted by a delete during the read). `missedOnce`: rows this read
   * missed for the first time, which a second read can settle at once. A long list (100,000
   * orders) is judged in short transactions by rowid, each a slice (shared/slices.ts), the
   * app's other calls running between them: each row is judged once, and a row a newer read
   * writes meanwhile carries that read's generation, which this one does not judge.
   */
  async finishRead(
    list: PrunedList,
    generation: number,
    whole: boolean,
  ): Promise<{ missedOnce: number; pruned: number }> {
    const judged = { missedOnce: 0, pruned: 0 };
    if (!whole) return judged;
    let after = 0;
    const sizer = new SliceSizer(JUDGE_ROWS);
    for (;;) {
      const rows = sizer.size;
      const started = performance.now();
      const through = durableLater(this.db, () =>
        this.db.transaction(() => this.judge(list, generation, after, rows, judged)).immediate(),
      );
      if (through === null) return judged;
      after = through;
      sizer.took(rows, performance.now() - started);
      await this.room();
    }
  }

  /** Judges the next `rows` rows after rowid `after`; the last rowid judged, or null at the end. */
  private judge(
    list: PrunedList,
    generation: number,
    after: number,
    rows: number,
    judged: { missedOnce: number; pruned: number },
  ): number | null {
    const { through } = statement(
      this.db,
      `SELECT MAX(rowid) AS through FROM (SELECT rowid FROM ${list} WHERE rowid > ? ORDER BY rowid LIMIT ?)`,
    ).get(after, rows) as { through: number | null };
    if (through === null) return null;
    const range = 'rowid > ? AND rowid <= ?';
    statement(this.db, `UPDATE ${list} SET missed = missed + 1 WHERE ${range} AND seen_in < ?`).run(
      after,
      through,
      generation,
    );
    judged.pruned += statement(this.db, `DELETE FROM ${list} WHERE ${range} AND missed >= 2`).run(
      after,
      through,
    ).changes;
    const { n } = statement(
      this.db,
      `SELECT COUNT(*) AS n FROM ${list} WHERE ${range} AND missed = 1`,
    ).get(after, through) as { n: number };
    judged.missedOnce += n;
    return through;
  }

  /**
   * Merges the platform's posts: ours (by remote id, by the client reference we sent, or as
   * `claimed`, remote id to local post, for posts sent without their id) take the platform's
   * status; the rest are kept as read-only remote posts.
   */
  mergePosts(
    posts: readonly RemotePost[],
    claimed: ReadonlyMap<string, number> = new Map(),
  ): { linked: number; remote: number } {
    const now = this.now();
    let linked = 0;
    this.db
      .transaction(() => {
        const byReference = statement(
          this.db,
          "SELECT post_id FROM outbox WHERE idempotency_key = ? AND kind = 'create_post' AND post_id IS NOT NULL",
        );
        const published = statement(
          this.db,
          `UPDATE posts SET status = 'published', remote_id = ?, published_at = COALESCE(?, published_at), updated_at = ?
         WHERE id = ? AND origin = 'local'
           AND status IN ('scheduled', 'sending', 'handed_off', 'published', 'failed', 'missed')`,
        );
        // The platform has the post: its item is done, so nothing ever sends it again.
        const settleItem = statement(
          this.db,
          `UPDATE outbox SET state = 'done', remote_id = ?, outcome_unknown = 0, last_error = NULL, updated_at = ?
         WHERE post_id = ? AND kind = 'create_post' AND state IN ('queued', 'retrying', 'failed')`,
        );
        const linkOnly = statement(
          this.db,
          "UPDATE posts SET remote_id = ?, updated_at = ? WHERE id = ? AND origin = 'local' AND remote_id IS NULL",
        );
        const upsertRemote = statement(
          this.db,
          `INSERT INTO posts (remote_id, bot_id, text, media_urls, scheduled_at, zone, status, origin, published_at,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'UTC', ?, 'remote', ?, ?, ?)
         ON CONFLICT (remote_id) DO UPDATE SET status = excluded.status, published_at = excluded.published_at,
           updated_at = excluded.updated_at WHERE posts.origin = 'remote'`,
        );
        const localByRemote = statement(
          this.db,
          "SELECT id FROM posts WHERE remote_id = ? AND origin = 'local'",
        );
        for (const post of posts) {
          const claimedBy = claimed.get(post.id);
          if (claimedBy !== undefined) this.adoptSent(post.id, claimedBy, now);
          const local =
            claimedBy ??
            (localByRemote.get(post.id) as { id: number } | undefined)?.id ??
            (post.clientReference
              ? (byReference.get(post.clientReference) as { post_id: number } | undefined)?.post_id
              : undefined);
          if (local !== undefined) {
            linked++;
            settleItem.run(post.id, now, local);
            if (post.status === 'published') published.run(post.id, post.publishedAt, now, local);
            else linkOnly.run(post.id, now, local);
            continue;
          }
          upsertRemote.run(
            post.id,
            post.botId,
            post.text,
            JSON.stringify(post.mediaUrls),
            post.scheduledAt ?? post.publishedAt,
            post.status,
            post.publishedAt,
            now,
            now,
          );
        }
      })
      .immediate();
    return { linked, remote: posts.length - linked };
  }

  /**
   * The platform's post `remoteId` is local post `postId`, sent without learning its id: its
   * item learns the id, and a copy an earlier sync kept as someone else's goes.
   */
  private adoptSent(remoteId: string, postId: number, now: number): void {
    statement(this.db, "DELETE FROM posts WHERE remote_id = ? AND origin = 'remote'").run(remoteId);
    statement(
      this.db,
      `UPDATE outbox SET remote_id = ?, updated_at = ?
       WHERE post_id = ? AND kind = 'create_post' AND state = 'done' AND remote_id IS NULL`,
    ).run(remoteId, now, postId);
  }

  /** Products the platform has: ours are linked and marked published, the rest kept read-only. */
  mergeProducts(products: readonly RemoteProduct[]): void {
    const now = this.now();
    this.db
      .transaction(() => {
        const ours = statement(
          this.db,
          `UPDATE products SET remote_id = ?, status = 'published', error = NULL, updated_at = ?
         WHERE (remote_id = ? OR sku = ?) AND origin = 'local' AND status IN ('sending', 'published', 'failed', 'queued')`,
        );
        const remote = statement(
          this.db,
          `INSERT INTO products (remote_id, sku, name, description, price_minor, currency, stock, image_url, status, origin,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'published', 'remote', ?, ?)
         ON CONFLICT (sku) DO UPDATE SET name = excluded.name, description = excluded.description,
           price_minor = excluded.price_minor, currency = excluded.currency, stock = excluded.stock,
           image_url = excluded.image_url, remote_id = excluded.remote_id, updated_at = excluded.updated_at
         WHERE products.origin = 'remote'`,
        );
        for (const p of products) {
          if (ours.run(p.id, now, p.id, p.sku).changes > 0) continue;
          remote.run(
            p.id,
            p.sku,
            p.name,
            p.description,
            p.priceMinor,
            p.currency,
            p.stock,
            p.imageUrl,
            now,
            now,
          );
        }
      })
      .immediate();
  }

  /** A bot by its id or, ignoring letter case, its name. */
  findBot(idOrName: string): string | undefined {
    const row = statement(
      this.db,
      'SELECT id FROM bots WHERE id = ? OR lower(name) = lower(?) ORDER BY id = ? DESC LIMIT 1',
    ).get(idOrName, idOrName, idOrName) as { id: string } | undefined;
    return row?.id;
  }

  /** The last sync of each resource: when it last succeeded, and what was wrong with the last one. */
  syncStates(): Record<string, { syncedAt: number | null; problem: string | null }> {
    const rows = statement(
      this.db,
      'SELECT resource, synced_at, error FROM sync_cursors',
    ).all() as {
      resource: string;
      synced_at: number | null;
      error: string | null;
    }[];
    return Object.fromEntries(
      rows.map((row) => [row.resource, { syncedAt: row.synced_at, problem: row.error }]),
    );
  }

  /** `problem`: the error of a failed sync, or why a list that was read did not prune the cache. */
  recordSync(resource: string, succeeded: boolean, problem: string | null): void {
    statement(
      this.db,
      `INSERT INTO sync_cursors (resource, synced_at, error) VALUES (?, ?, ?)
         ON CONFLICT (resource) DO UPDATE SET synced_at = COALESCE(excluded.synced_at, synced_at), error = excluded.error`,
    ).run(resource, succeeded ? this.now() : null, problem);
  }

  /** Bots as last synced, with how many of the user's changes to each still wait in the outbox. */
  bots(): BotSummary[] {
    const rows = statement(
      this.db,
      `SELECT b.id, b.name, b.raw, (SELECT COUNT(*) FROM outbox o
          WHERE o.kind IN ('update_bot', 'delete_bot') AND o.state IN ('queued', 'sending', 'retrying')
            AND json_extract(o.payload, '$.id') = b.id) AS pending
       FROM bots b ORDER BY b.name COLLATE NOCASE, b.id`,
    ).all() as { id: string; name: string; raw: string; pending: number }[];
    return rows.map((row) => {
      const raw = parseRaw(row.raw);
      return {
        id: row.id,
        name: row.name,
        channel: field(raw, 'channel', 'string'),
        status: field(raw, 'status', 'string'),
        description: field(raw, 'description', 'string'),
        pending: row.pending,
      };
    });
  }

  /**
   * Every tag the cached subscribers carry (as first spelled; tags match without case), with how
   * many active subscribers have it: a broadcast's suggestions and its count before sending.
   */
  tagAudiences(): TagAudience[] {
    return statement(
      this.db,
      `SELECT MIN(t.value) AS tag, COUNT(DISTINCT CASE WHEN s.status = 'active' THEN s.id END) AS recipients
         FROM subscribers s, json_each(s.tags) t
        GROUP BY lower(t.value) ORDER BY recipients DESC, tag COLLATE NOCASE`,
    ).all() as TagAudience[];
  }

  subscribers(query: PageQuery & { tag?: string | undefined }): Page<SubscriberSummary> {
    const where = new Conditions().search(['name', 'id'], query.search);
    if (query.tag?.trim())
      where.add(
        'EXISTS (SELECT 1 FROM json_each(tags) WHERE lower(value) = lower(?))',
        query.tag.trim(),
      );
    const page = windowed<{
      id: string;
      bot_id: string | null;
      name: string;
      tags: string;
      status: string;
    }>(
      this.db,
      {
        columns: 'id, bot_id, name, tags, status',
        table: 'subscribers',
        where,
        order: 'name COLLATE NOCASE, id',
      },
      query,
    );
    return {
      total: page.total,
      rows: page.rows.map((row) => ({
        id: row.id,
        botId: row.bot_id,
        name: row.name,
        tags: JSON.parse(row.tags) as string[],
        status: row.status,
      })),
    };
  }

  subscriber(id: string): SubscriberDetail | undefined {
    const row = statement(
      this.db,
      'SELECT id, bot_id, name, tags, status, raw FROM subscribers WHERE id = ?',
    ).get(id) as
      | {
          id: string;
          bot_id: string | null;
          name: string;
          tags: string;
          status: string;
          raw: string;
        }
      | undefined;
    return (
      row && {
        id: row.id,
        botId: row.bot_id,
        name: row.name,
        tags: JSON.parse(row.tags) as string[],
        status: row.status,
        raw: parseRaw(row.raw),
      }
    );
  }

  /** A page of orders, each customer named by the cached subscriber (and found by that name). */
  orders(query: PageQuery & { status?: string | undefined }): Page<OrderSummary> {
    const where = new Conditions().search(['o.id', 'o.raw', 's.name'], query.search);
    if (query.status) where.add('o.status = ?', query.status);
    const page = windowed<{
      id: string;
      status: string;
      currency: string;
      total_minor: number;
      created_at: number | null;
      raw: string;
      subscriber_name: string | null;
    }>(
      this.db,
      {
        columns:
          'o.id, o.status, o.currency, o.total_minor, o.created_at, o.raw, s.name AS subscriber_name',
        table: `orders o LEFT JOIN subscribers s ON s.id = json_extract(o.raw, '$.subscriber_id')`,
        where,
        order: 'o.created_at DESC, o.id DESC',
      },
      query,
    );
    return {
      total: page.total,
      rows: page.rows.map((row) => {
        const raw = parseRaw(row.raw);
        const items = Array.isArray(raw.items) ? (raw.items as Record<string, unknown>[]) : [];
        return {
          id: row.id,
          status: row.status,
          currency: row.currency,
          totalMinor: row.total_minor,
          createdAt: row.created_at,
          customer:
            field(raw, 'customer_name', 'string') ??
            row.subscriber_name ??
            field(raw, 'subscriber_id', 'string') ??
            null,
          items: items.map((item) => ({
            name: field(item, 'name', 'string') ?? field(item, 'sku', 'string') ?? '?',
            quantity: field(item, 'quantity', 'number') ?? 1,
          })),
        };
      }),
    };
  }

  /** How many cached subscribers a bot has: what its deletion takes with it. */
  subscriberCount(botId: string): number {
    const row = statement(this.db, 'SELECT COUNT(*) AS n FROM subscribers WHERE bot_id = ?').get(
      botId,
    ) as { n: number };
    return row.n;
  }

  counts(): Record<'bots' | 'subscribers' | 'orders', number> {
    const count = (table: string) =>
      (statement(this.db, `SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { bots: count('bots'), subscribers: count('subscribers'), orders: count('orders') };
  }
}
