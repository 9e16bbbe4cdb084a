// The catalog as the editor sees it (Node, main process): windows of a sorted, filtered product
// list for a virtual grid of 100,000 rows, and the user's edits to drafts.
import { PRODUCT_STATUSES } from '../../shared/domain';
import type { LocalProduct, Page, ProductStatus } from '../../shared/domain';
import { keptCounts } from './count-by';
import { UNSENT_PRODUCT } from '../../shared/domain';
import type { WorkspaceDb } from './db';
import type { CatalogFields } from './products';
import { Conditions, windowed } from './paging';
import type { PageQuery } from './paging';
import { inSet, statement } from './statements';

/** A products row under LocalProduct's names, so rows need no mapping. */
const PRODUCT_COLUMNS = `id, remote_id AS remoteId, sku, name, description, price_minor AS priceMinor, currency,
  stock, image_url AS imageUrl, status, origin, error, batch_id AS batchId, created_at AS createdAt,
  updated_at AS updatedAt`;

const SORT_SQL = {
  sku: 'sku',
  name: 'name COLLATE NOCASE',
  price: 'price_minor',
  stock: 'stock',
  status: 'status',
  updated: 'updated_at',
} as const;

export interface CatalogQuery extends PageQuery {
  sort: keyof typeof SORT_SQL;
  descending: boolean;
  status?: ProductStatus | undefined;
}

/** Only drafts made here, or those that failed to publish, can still be changed. */
const EDITABLE = `origin = 'local' AND ${inSet('status', UNSENT_PRODUCT)}`;

export class CatalogStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  page(query: CatalogQuery): Page<LocalProduct> {
    const where = new Conditions().search(['sku', 'name'], query.search);
    if (query.status) where.add('status = ?', query.status);
    const direction = query.descending ? 'DESC' : 'ASC';
    return windowed<LocalProduct>(
      this.db,
      {
        columns: PRODUCT_COLUMNS,
        table: 'products',
        where,
        order: `${SORT_SQL[query.sort]} ${direction}, id ${direction}`,
        // Without a search, the total is a kept count, not a count of a million rows.
        total: query.search?.trim() ? undefined : this.counted(query.status),
      },
      query,
    );
  }

  /** The products in `status`, or all, from the counts the triggers keep: no row is read. */
  private counted(status: ProductStatus | undefined): number {
    const counts = keptCounts(this.db, 'products', PRODUCT_STATUSES);
    return status ? counts[status] : PRODUCT_STATUSES.reduce((n, key) => n + counts[key], 0);
  }

  get(id: number): LocalProduct | undefined {
    return statement(this.db, `SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ?`).get(id) as
      LocalProduct | undefined;
  }

  skuOwner(sku: string): number | undefined {
    const row = statement(this.db, 'SELECT id FROM products WHERE sku = ?').get(sku) as
      { id: number } | undefined;
    return row?.id;
  }

  /** Changes an editable product; a failed one becomes a draft again. False when not editable. */
  update(id: number, fields: CatalogFields): boolean {
    return (
      statement(
        this.db,
        `UPDATE products SET sku = ?, name = ?, description = ?, price_minor = ?, currency = ?, stock = ?,
           image_url = ?, status = 'draft', error = NULL, updated_at = ? WHERE id = ? AND ${EDITABLE}`,
      ).run(
        fields.sku,
        fields.name,
        fields.description,
        fields.priceMinor,
        fields.currency,
        fields.stock,
        fields.imageUrl,
        this.now(),
        id,
      ).changes > 0
    );
  }

  /** Deletes the editable ones among `ids` (their queue items go with them); returns how many. */
  remove(ids: readonly number[]): number {
    const remove = statement(this.db, `DELETE FROM products WHERE id = ? AND ${EDITABLE}`);
    return this.db
      .transaction(() => ids.reduce((n, id) => n + remove.run(id).changes, 0))
      .immediate();
  }

  /** A SKU not yet taken, made from `sku`: BK-001-copy, BK-001-copy-2, ... */
  freeSku(sku: string): string {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? `${sku}-copy` : `${sku}-copy-${n}`;
      if (this.skuOwner(candidate) === undefined) return candidate;
    }
  }
}
