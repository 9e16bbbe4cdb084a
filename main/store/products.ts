// Products in the workspace database (Node, main process).
import { PRODUCT_STATUSES } from '../../shared/domain';
import type { LocalProduct, Origin, ProductStatus } from '../../shared/domain';
import { keptCounts } from './count-by';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

interface ProductRow {
  id: number;
  remote_id: string | null;
  sku: string;
  name: string;
  description: string | null;
  price_minor: number;
  currency: string;
  stock: number | null;
  image_url: string | null;
  status: ProductStatus;
  origin: Origin;
  error: string | null;
  batch_id: string | null;
  created_at: number;
  updated_at: number;
}

/** What a product is in the catalog, wherever it was made. */
export type CatalogFields = Pick<
  LocalProduct,
  'sku' | 'name' | 'description' | 'priceMinor' | 'currency' | 'stock' | 'imageUrl'
>;

export type ProductDraft = CatalogFields & {
  batchId?: string | null;
};

/** Rows per multi-row INSERT: 100 rows of 7 values stay far below SQLite's variable limit. */
const ROWS_PER_INSERT = 100;
/** How many of the newest products say which currency the catalog is priced in. */
const CURRENCY_SAMPLE = 1000;
/** The values of one draft that insertSql takes as positional parameters. */
const DRAFT_VALUES = 7;

function insertSql(rows: number, skipTakenSkus = false): string {
  // The batch and time are the same on every row: named, they are bound once per statement.
  const values = Array<string>(rows)
    .fill("(?, ?, ?, ?, ?, ?, ?, 'draft', @batchId, @now, @now)")
    .join(', ');
  return `INSERT INTO products (sku, name, description, price_minor, currency, stock, image_url, status, batch_id,
           created_at, updated_at) VALUES ${values}${skipTakenSkus ? ' ON CONFLICT (sku) DO NOTHING' : ''}`;
}

/** Puts a draft's values in `params` from `at` on, in the columns' order of insertSql. */
function bindDraft(params: unknown[], at: number, draft: CatalogFields): void {
  params[at] = draft.sku;
  params[at + 1] = draft.name;
  params[at + 2] = draft.description;
  params[at + 3] = draft.priceMinor;
  params[at + 4] = draft.currency;
  params[at + 5] = draft.stock;
  params[at + 6] = draft.imageUrl;
}

function toProduct(row: ProductRow): LocalProduct {
  return {
    id: row.id,
    remoteId: row.remote_id,
    sku: row.sku,
    name: row.name,
    description: row.description,
    priceMinor: row.price_minor,
    currency: row.currency,
    stock: row.stock,
    imageUrl: row.image_url,
    status: row.status,
    origin: row.origin,
    error: row.error,
    batchId: row.batch_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class ProductsStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  create(draft: ProductDraft): LocalProduct {
    return this.require(this.insert(draft));
  }

  /** Adds a draft and returns its id only. */
  insert(draft: ProductDraft): number {
    const params = Array<unknown>(DRAFT_VALUES);
    bindDraft(params, 0, draft);
    const shared = { batchId: draft.batchId ?? null, now: this.now() };
    return this.db.transaction(() => {
      const { lastInsertRowid } = statement(this.db, insertSql(1)).run(params, shared);
      this.countInserted(shared.batchId, 1);
      return Number(lastInsertRowid);
    })();
  }

  /**
   * Adds `rows` drafts inserted by insertSql to the kept counts when they have a batch: the
   * insert trigger counts only rows without one (migration 16), so an import pays one count per
   * statement instead of one trigger run per row. Inside the inserting transaction.
   */
  private countInserted(batchId: string | null, rows: number): void {
    if (batchId === null || rows === 0) return;
    statement(
      this.db,
      `INSERT INTO status_counts (family, status, n) VALUES ('products', 'draft', ?)
       ON CONFLICT (family, status) DO UPDATE SET n = n + excluded.n`,
    ).run(rows);
  }

  /**
   * Adds the drafts whose SKU is free, in order, many rows per statement, and returns the others
   * untouched; their SKUs must differ from each other (an import refuses a repeated one before it
   * gets here). An import adds thousands and reads none back: binding them a statement at a time
   * cost more than SQLite's own work, and looking every SKU up first cost more than letting the
   * SKU index refuse the few that are taken.
   */
  insertNew<Draft extends CatalogFields>(
    drafts: readonly Draft[],
    batchId: string | null,
  ): Draft[] {
    return this.db.transaction(() => this.insertNewRows(drafts, batchId))();
  }

  private insertNewRows<Draft extends CatalogFields>(
    drafts: readonly Draft[],
    batchId: string | null,
  ): Draft[] {
    const shared = { batchId, now: this.now() };
    const many = statement(this.db, insertSql(ROWS_PER_INSERT, true));
    const one = statement(this.db, insertSql(1, true));
    // Rows added here get ids above every existing one (SQLite's rowid is the largest plus one).
    const lastIdBefore =
      (
        statement(this.db, 'SELECT max(id) AS id FROM products').get() as {
          id: number | null;
        }
      ).id ?? 0;
    /** Drafts of statements that added fewer rows than they had: some of their SKUs are taken. */
    const suspects: Draft[] = [];
    let inserted = 0;
    // Whole statements of ROWS_PER_INSERT rows, then the rest one row at a time: two prepared
    // statements instead of one per remainder size. The parameter arrays are filled in place,
    // never grown.
    const inMany = drafts.length - (drafts.length % ROWS_PER_INSERT);
    const manyParams = Array<unknown>(ROWS_PER_INSERT * DRAFT_VALUES);
    for (let index = 0; index < inMany; index++) {
      const slot = index % ROWS_PER_INSERT;
      bindDraft(manyParams, slot * DRAFT_VALUES, drafts[index] as Draft);
      if (slot < ROWS_PER_INSERT - 1) continue;
      const { changes } = many.run(manyParams, shared);
      inserted += changes;
      if (changes < ROWS_PER_INSERT)
        suspects.push(...drafts.slice(index + 1 - ROWS_PER_INSERT, index + 1));
    }
    const oneParams = Array<unknown>(DRAFT_VALUES);
    for (let index = inMany; index < drafts.length; index++) {
      const draft = drafts[index] as Draft;
      bindDraft(oneParams, 0, draft);
      const { changes } = one.run(oneParams, shared);
      inserted += changes;
      if (changes === 0) suspects.push(draft);
    }
    this.countInserted(batchId, inserted);
    if (suspects.length === 0) return [];
    const taken = new Set(
      (
        statement(
          this.db,
          'SELECT p.sku FROM json_each(?) AS wanted JOIN products AS p ON p.sku = wanted.value WHERE p.id <= ?',
        ).all(JSON.stringify(suspects.map((draft) => draft.sku)), lastIdBefore) as { sku: string }[]
      ).map((row) => row.sku),
    );
    return suspects.filter((draft) => taken.has(draft.sku));
  }

  get(id: number): LocalProduct | undefined {
    const row = statement(this.db, 'SELECT * FROM products WHERE id = ?').get(id) as
      ProductRow | undefined;
    return row && toProduct(row);
  }

  require(id: number): LocalProduct {
    const product = this.get(id);
    if (!product) throw new Error(`No product ${id}`);
    return product;
  }

  /** Up to `limit` products after id `afterId`, in id order: a long read a page at a time. */
  listAfter(afterId: number, limit: number): LocalProduct[] {
    return (
      statement(this.db, 'SELECT * FROM products WHERE id > ? ORDER BY id LIMIT ?').all(
        afterId,
        limit,
      ) as ProductRow[]
    ).map(toProduct);
  }

  list(): LocalProduct[] {
    return (statement(this.db, 'SELECT * FROM products ORDER BY id').all() as ProductRow[]).map(
      toProduct,
    );
  }

  /**
   * The currency most of the newest products are priced in (ties: the first seen); null when
   * empty. The newest CURRENCY_SAMPLE only: the settings ask for it on every start, and counting a
   * million products' currencies took a second before the first screen could answer.
   */
  mostUsedCurrency(): string | null {
    const row = statement(
      this.db,
      `SELECT currency FROM (SELECT id, currency FROM products ORDER BY id DESC LIMIT ${CURRENCY_SAMPLE})
       GROUP BY currency ORDER BY COUNT(*) DESC, MIN(id) LIMIT 1`,
    ).get() as { currency: string } | undefined;
    return row?.currency ?? null;
  }

  counts(): Record<ProductStatus, number> {
    return keptCounts(this.db, 'products', PRODUCT_STATUSES);
  }
}
