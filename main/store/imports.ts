// Import batches (Node, main process): each CSV import is a batch whose items can be undone
// together while none of them has gone out.
import { randomUUID } from 'node:crypto';
import type { LocalPost, LocalProduct } from '../../shared/domain';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

export interface BatchSummary {
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  invalid: number;
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

export class ImportsStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  createBatch(kind: 'posts' | 'products', source: string): string {
    const id = `batch-${randomUUID().slice(0, 8)}`;
    statement(
      this.db,
      'INSERT INTO import_batches (id, kind, source, created_at) VALUES (?, ?, ?, ?)',
    ).run(id, kind, source, this.now());
    return id;
  }

  finishBatch(id: string, summary: BatchSummary): void {
    statement(this.db, 'UPDATE import_batches SET summary = ? WHERE id = ?').run(
      JSON.stringify(summary),
      id,
    );
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
   * Removes what a batch added while none of it has gone out; its queue items are cancelled.
   * Returns how many items were removed, or the reason it cannot be undone.
   */
  undoBatch(id: string): { ok: true; removed: number } | { ok: false; reason: string } {
    return this.db.transaction(() => {
      const batch = this.batch(id);
      if (!batch) return { ok: false as const, reason: `no import batch ${id}` };
      if (batch.undoneAt !== null)
        return { ok: false as const, reason: `import batch ${id} was undone already` };
      const table = batch.kind;
      const gone = (
        statement(
          this.db,
          `SELECT COUNT(*) AS n FROM ${table} WHERE batch_id = ? AND status IN ('sending', 'published', 'handed_off')`,
        ).get(id) as { n: number }
      ).n;
      if (gone > 0)
        return {
          ok: false as const,
          reason: `${gone} item(s) of batch ${id} have gone to the platform already; undo refused`,
        };
      const column = table === 'posts' ? 'post_id' : 'product_id';
      statement(
        this.db,
        `UPDATE outbox SET state = 'cancelled', updated_at = ? WHERE ${column} IN (SELECT id FROM ${table} WHERE batch_id = ?)
           AND state IN ('queued', 'retrying', 'failed')`,
      ).run(this.now(), id);
      const removed = statement(this.db, `DELETE FROM ${table} WHERE batch_id = ?`).run(id).changes;
      statement(this.db, 'UPDATE import_batches SET undone_at = ? WHERE id = ?').run(
        this.now(),
        id,
      );
      return { ok: true as const, removed };
    })();
  }
}
