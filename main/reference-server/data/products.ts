// Products of the reference server (Node, main process), prices kept in minor units.
import { minorToDecimal } from '../../../shared/money';
import type { ListEnvelope, Product } from '../../platform/wire';
import { formatId, iso } from '../ids';
import { likePattern } from './sql';
import type { PageQuery, Sql } from './sql';

interface ProductRow {
  id: number;
  sku: string;
  name: string;
  description: string | null;
  price_minor: number;
  currency: string;
  stock: number | null;
  image_url: string | null;
  client_reference: string | null;
  created_at: number;
  updated_at: number;
}

export interface ProductInput {
  sku: string;
  name: string;
  description: string | null;
  priceMinor: number;
  currency: string;
  stock: number | null;
  imageUrl: string | null;
  clientReference: string | null;
}

function toProduct(row: ProductRow): Product {
  return {
    id: formatId('product', row.id),
    sku: row.sku,
    name: row.name,
    description: row.description,
    price: minorToDecimal(row.price_minor, row.currency),
    currency: row.currency,
    stock: row.stock,
    image_url: row.image_url,
    status: 'active',
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export class ProductStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  listProducts(
    accountId: number,
    filter: {
      sku?: string | undefined;
      clientReference?: string | undefined;
      q?: string | undefined;
    },
    page: PageQuery,
  ): ListEnvelope<Product> {
    return this.sql.list<ProductRow, Product>(
      'products',
      '*',
      accountId,
      [
        filter.sku ? ['sku = ?', filter.sku] : null,
        filter.clientReference ? ['client_reference = ?', filter.clientReference] : null,
        filter.q
          ? [
              "(name LIKE ? ESCAPE '\\' OR sku LIKE ? ESCAPE '\\')",
              likePattern(filter.q),
              likePattern(filter.q),
            ]
          : null,
      ],
      page,
      toProduct,
    );
  }

  productIdBySku(accountId: number, sku: string): number | undefined {
    const row = this.sql
      .stmt('SELECT id FROM products WHERE account_id = ? AND sku = ?')
      .get(accountId, sku) as { id: number } | undefined;
    return row?.id;
  }

  createProduct(accountId: number, input: ProductInput): Product {
    const now = this.now();
    const row: Omit<ProductRow, 'id'> = {
      sku: input.sku,
      name: input.name,
      description: input.description,
      price_minor: input.priceMinor,
      currency: input.currency,
      stock: input.stock,
      image_url: input.imageUrl,
      client_reference: input.clientReference,
      created_at: now,
      updated_at: now,
    };
    const id = Number(
      this.sql
        .stmt(
          `INSERT INTO products (account_id, sku, name, description, price_minor, currency, stock, image_url,
           client_reference, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          accountId,
          row.sku,
          row.name,
          row.description,
          row.price_minor,
          row.currency,
          row.stock,
          row.image_url,
          row.client_reference,
          row.created_at,
          row.updated_at,
        ).lastInsertRowid,
    );
    return toProduct({ id, ...row });
  }

  productsForOrders(
    accountId: number,
  ): { id: number; sku: string; name: string; price_minor: number; currency: string }[] {
    return this.sql
      .stmt(
        'SELECT id, sku, name, price_minor, currency FROM products WHERE account_id = ? ORDER BY id LIMIT 200',
      )
      .all(accountId) as {
      id: number;
      sku: string;
      name: string;
      price_minor: number;
      currency: string;
    }[];
  }
}
