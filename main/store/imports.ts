// Import batches (Node, main process): each CSV import is a batch whose items can be undone
// together while none of them has gone out.
import { randomUUID } from 'node:crypto';
import type { LocalPost, LocalProduct } from '../../shared/domain';
import { GONE_OUT } from '../../shared/domain';
import type { WorkspaceDb } from './db';
import { inSet, statement } from './statements';

export interface BatchSummary {
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  invalid: number;
  /** Rows neither written nor invalid: repeated posts, archived products and the like. */
  leftOut: number;
}

/** A batch as the import history lists it (see listBatches). */
export interface StoredBatch {
  id: string;
  kind: 'posts' | 'products';
  source: string | null;
  summary: Partial<BatchSummary>;
  createdAt: number;
  undoneAt: number | null;
  /** The import is still running (it beats). */
  running: boolean;
  /** Its items being sent or on the platform. */
  goneOut: number;
  /** The earliest time among its posts, or null (products, or only drafts without a time). */
  firstAt: number | null;
}

/** What an import needs to know of a product whose SKU it meets again. */
export type ExistingProduct = Pick<
  LocalProduct,
  | 'id'
  | 'status'
  | 'origin'
  | 'name'
  | 'description'
  | 'priceMinor'
  | 'currency'
  | 'stock'
  | 'imageUrl'
>;

/** An import in progress beats at least this often (see abandonStale)... */
export const IMPORT_BEAT_MS = 5_000;
/** ...so one silent this long died with its process. */
const IMPORT_STALE_MS = 60_000;
/** Items of a batch that are being sent or are on the platform: no undo can call them back. */
const GONE_OUT_SQL = inSet('status', GONE_OUT);

export class ImportsStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  /** A batch in progress: its import writes as it reads, and beats until it finishes. */
  createBatch(kind: 'posts' | 'products', source: string): string {
    const id = `batch-${randomUUID().slice(0, 8)}`;
    const now = this.now();
    statement(
      this.db,
      'INSERT INTO import_batches (id, kind, source, created_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)',
    ).run(id, kind, source, now, now);
    return id;
  }

  /** Says the batch's import is still running (see abandonStale). */
  beat(id: string): void {
    statement(this.db, 'UPDATE import_batches SET heartbeat_at = ? WHERE id = ?').run(
      this.now(),
      id,
    );
  }

  finishBatch(id: string, summary: BatchSummary): void {
    statement(
      this.db,
      'UPDATE import_batches SET summary = ?, heartbeat_at = NULL WHERE id = ?',
    ).run(JSON.stringify(summary), id);
  }

  /**
   * Takes back an import that will not finish: one that met a bad row under on-error abort, or
   * failed. What it wrote goes, the drafts it changed get their fields back, and the batch itself
   * goes too, as if the import had never run. Items of it that have gone out meanwhile (a user
   * queued one of its drafts) cannot be taken back: they alone stay, in the batch, which is kept,
   * finished, with them as its summary. Returns how many stayed.
   */
  abandonBatch(id: string): number {
    return this.db
      .transaction(() => {
        const batch = this.batch(id);
        if (!batch) return 0;
        const gone = this.goneOut(id, batch.kind);
        this.takeBack(id, batch.kind);
        if (gone === 0) statement(this.db, 'DELETE FROM import_batches WHERE id = ?').run(id);
        else
          this.finishBatch(id, {
            rows: gone,
            inserted: gone,
            updated: 0,
            unchanged: 0,
            invalid: 0,
            leftOut: 0,
          });
        return gone;
      })
      .immediate();
  }

  /**
   * Abandons the batches whose import stopped beating a while ago: its process died mid-import.
   * Another process's import in progress keeps beating, so it is left alone. Returns how many.
   */
  abandonStale(staleMs = IMPORT_STALE_MS): number {
    const stale = statement(
      this.db,
      'SELECT id FROM import_batches WHERE heartbeat_at IS NOT NULL AND heartbeat_at < ?',
    ).all(this.now() - staleMs) as { id: string }[];
    for (const { id } of stale) this.abandonBatch(id);
    return stale.length;
  }

  /**
   * The latest `limit` batches, newest first, with how many of their items have gone out and
   * their posts' first time: one pass over each table, which has no index on its batch.
   */
  listBatches(limit: number): StoredBatch[] {
    const rows = statement(
      this.db,
      `WITH listed AS (SELECT *, rowid AS seq FROM import_batches ORDER BY created_at DESC, rowid DESC LIMIT ?),
         items AS (
           SELECT batch_id, ${GONE_OUT_SQL} AS gone, scheduled_at FROM posts
             WHERE batch_id IN (SELECT id FROM listed)
           UNION ALL
           SELECT batch_id, ${GONE_OUT_SQL} AS gone, NULL FROM products
             WHERE batch_id IN (SELECT id FROM listed)),
         -- Counted per batch first: joined before, each batch would scan every item.
         counted AS (
           SELECT batch_id, SUM(gone) AS gone_out, MIN(scheduled_at) AS first_at FROM items
             GROUP BY batch_id)
       SELECT l.id, l.kind, l.source, l.summary, l.created_at, l.undone_at, l.heartbeat_at,
           COALESCE(c.gone_out, 0) AS gone_out, c.first_at
         FROM listed AS l LEFT JOIN counted AS c ON c.batch_id = l.id
         ORDER BY l.created_at DESC, l.seq DESC`,
    ).all(limit) as {
      id: string;
      kind: 'posts' | 'products';
      source: string | null;
      summary: string;
      created_at: number;
      undone_at: number | null;
      heartbeat_at: number | null;
      gone_out: number;
      first_at: number | null;
    }[];
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      source: row.source,
      summary: JSON.parse(row.summary) as Partial<BatchSummary>,
      createdAt: row.created_at,
      undoneAt: row.undone_at,
      running: row.heartbeat_at !== null,
      goneOut: row.gone_out,
      firstAt: row.first_at,
    }));
  }

  /** The products an import inserted (not those it updated), oldest first. */
  insertedProducts(id: string): number[] {
    return (
      statement(
        this.db,
        `SELECT id FROM products WHERE batch_id = ?
           AND id NOT IN (SELECT product_id FROM import_replaced WHERE batch_id = ?) ORDER BY id`,
      ).all(id, id) as { id: number }[]
    ).map((row) => row.id);
  }

  batch(
    id: string,
  ): { id: string; kind: 'posts' | 'products'; undoneAt: number | null } | undefined {
    const row = statement(
      this.db,
      'SELECT id, kind, undone_at FROM import_batches WHERE id = ?',
    ).get(id) as { id: string; kind: 'posts' | 'products'; undone_at: number | null } | undefined;
    return row && { id: row.id, kind: row.kind, undoneAt: row.undone_at };
  }

  /** The same post already here: same text, bot and time. */
  identicalPost(post: Pick<LocalPost, 'text' | 'botId' | 'scheduledAt'>): number | undefined {
    const row = statement(
      this.db,
      // substr(...) as written in the posts_text_start index, so the index is used.
      `SELECT id FROM posts WHERE substr(text, 1, 64) = substr(@text, 1, 64) AND text = @text
         AND bot_id IS @botId AND scheduled_at IS @scheduledAt LIMIT 1`,
    ).get({ text: post.text, botId: post.botId, scheduledAt: post.scheduledAt }) as
      { id: number } | undefined;
    return row?.id;
  }

  /**
   * The products among `skus` that exist already, by SKU: one query for a whole write batch of
   * an import, where a query per row cost more than the inserts.
   */
  productsBySku(skus: readonly string[]): Map<string, ExistingProduct> {
    const rows = statement(
      this.db,
      // A join probes the SKU index once per SKU; "sku IN (...)" sorted the whole list first.
      `SELECT p.id, p.sku, p.status, p.origin, p.name, p.description, p.price_minor AS priceMinor, p.currency,
           p.stock, p.image_url AS imageUrl
         FROM json_each(?) AS wanted JOIN products AS p ON p.sku = wanted.value`,
    ).all(JSON.stringify(skus)) as (ExistingProduct & { sku: string })[];
    return new Map(rows.map(({ sku, ...product }) => [sku, product]));
  }

  /** Changes a draft for an import, keeping its earlier fields for the import's undo. */
  updateProductDraft(
    id: number,
    fields: Pick<
      LocalProduct,
      'name' | 'description' | 'priceMinor' | 'currency' | 'stock' | 'imageUrl'
    >,
    batchId: string,
  ): void {
    statement(
      this.db,
      `INSERT OR IGNORE INTO import_replaced (batch_id, product_id, name, description, price_minor, currency,
           stock, image_url, previous_batch_id, updated_at)
         SELECT ?, id, name, description, price_minor, currency, stock, image_url, batch_id, updated_at
           FROM products WHERE id = ? AND status = 'draft'`,
    ).run(batchId, id);
    statement(
      this.db,
      `UPDATE products SET name = ?, description = ?, price_minor = ?, currency = ?, stock = ?, image_url = ?,
           batch_id = ?, updated_at = ? WHERE id = ? AND status = 'draft'`,
    ).run(
      fields.name,
      fields.description,
      fields.priceMinor,
      fields.currency,
      fields.stock,
      fields.imageUrl,
      batchId,
      this.now(),
      id,
    );
  }

  /**
   * Takes a finished batch back while none of it has gone out: what it added is removed, the
   * drafts it changed get their earlier fields back, and its queue items are cancelled. Returns
   * how many items were removed and restored, or the reason it cannot be undone.
   */
  undoBatch(
    id: string,
  ):
    | { ok: true; kind: 'posts' | 'products'; removed: number; restored: number }
    | { ok: false; reason: string } {
    return this.db
      .transaction(() => {
        const batch = this.batch(id);
        if (!batch) return { ok: false as const, reason: `no import batch ${id}` };
        if (batch.undoneAt !== null)
          return { ok: false as const, reason: `import batch ${id} was undone already` };
        const gone = this.goneOut(id, batch.kind);
        if (gone > 0)
          return {
            ok: false as const,
            reason: `${gone} item(s) of batch ${id} have gone to the platform already; undo refused`,
          };
        const undone = this.takeBack(id, batch.kind);
        statement(this.db, 'UPDATE import_batches SET undone_at = ? WHERE id = ?').run(
          this.now(),
          id,
        );
        return { ok: true as const, kind: batch.kind, ...undone };
      })
      .immediate();
  }

  /** How many of the batch's items are being sent or have gone to the platform. */
  private goneOut(id: string, table: 'posts' | 'products'): number {
    return (
      statement(
        this.db,
        `SELECT COUNT(*) AS n FROM ${table} WHERE batch_id = ? AND ${GONE_OUT_SQL}`,
      ).get(id) as { n: number }
    ).n;
  }

  /**
   * Cancels the batch's queue items, gives the drafts it changed their earlier fields (those a
   * later import changed again are that import's to undo), and deletes what it added; items that
   * have gone out are left as they are (undoBatch refuses a batch with any).
   */
  private takeBack(id: string, table: 'posts' | 'products'): { removed: number; restored: number } {
    const now = this.now();
    const column = table === 'posts' ? 'post_id' : 'product_id';
    statement(
      this.db,
      `UPDATE outbox SET state = 'cancelled', updated_at = ? WHERE ${column} IN (SELECT id FROM ${table} WHERE batch_id = ?)
         AND state IN ('queued', 'retrying', 'failed')`,
    ).run(now, id);
    const restored =
      table === 'products'
        ? statement(
            this.db,
            `UPDATE products SET (name, description, price_minor, currency, stock, image_url, batch_id, updated_at)
               = (SELECT r.name, r.description, r.price_minor, r.currency, r.stock, r.image_url,
                    (SELECT b.id FROM import_batches AS b WHERE b.id = r.previous_batch_id), ?
                  FROM import_replaced AS r WHERE r.batch_id = @batch AND r.product_id = products.id),
                 status = 'draft', error = NULL
               WHERE batch_id = @batch AND NOT ${GONE_OUT_SQL}
                 AND id IN (SELECT product_id FROM import_replaced WHERE batch_id = @batch)`,
          ).run(now, { batch: id }).changes
        : 0;
    const removed = statement(
      this.db,
      `DELETE FROM ${table} WHERE batch_id = ? AND NOT ${GONE_OUT_SQL}`,
    ).run(id).changes;
    statement(this.db, 'DELETE FROM import_replaced WHERE batch_id = ?').run(id);
    return { removed, restored };
  }
}
