// Products in the workspace database (Node, main process).
import { PRODUCT_STATUSES } from '../../shared/domain';
import type { LocalProduct, Origin, ProductStatus } from '../../shared/domain';
import { countBy } from './count-by';
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

  /** Adds a draft and returns its id only: imports add many and read none back. */
  insert(draft: ProductDraft): number {
    const now = this.now();
    const id = statement(
      this.db,
      `INSERT INTO products (sku, name, description, price_minor, currency, stock, image_url, status, batch_id,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?)`,
    ).run(
      draft.sku,
      draft.name,
      draft.description,
      draft.priceMinor,
      draft.currency,
      draft.stock,
      draft.imageUrl,
      draft.batchId ?? null,
      now,
      now,
    ).lastInsertRowid;
    return Number(id);
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

  list(): LocalProduct[] {
    return (statement(this.db, 'SELECT * FROM products ORDER BY id').all() as ProductRow[]).map(
      toProduct,
    );
  }

  counts(): Record<ProductStatus, number> {
    return countBy(this.db, 'products', 'status', PRODUCT_STATUSES);
  }
}
