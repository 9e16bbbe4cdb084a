// A workspace holding a catalog too large to import for every test run (Node): the store's own
// migrations make the file, then one INSERT … SELECT writes `count` draft products straight into
// it (a million in a few seconds, where a CSV import takes a minute). For the 1,000,000-product
// catalog of the e2e test and bench:ui.
import Database from 'better-sqlite3';
import { WorkspaceStore } from '../../main/store';

/** The SKU of product `index` (0-based), in the order the catalog sorts them. */
export function manySku(index: number): string {
  return `SKU-${String(index).padStart(7, '0')}`;
}

/** Writes `count` draft products (parameters: count, created, updated) into an empty catalog. */
export const MANY_PRODUCTS_SQL = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
  INSERT INTO products (sku, name, price_minor, currency, stock, status, origin, created_at, updated_at)
  SELECT printf('SKU-%07d', i), 'Product ' || i, (i % 500) * 100 + 50, 'EUR', i % 90, 'draft', 'local',
    ?, ? FROM n`;

export function seedManyProducts(dbFile: string, count: number): void {
  WorkspaceStore.open(dbFile, Date.now).close();
  const db = new Database(dbFile);
  try {
    const now = Date.now();
    db.prepare(MANY_PRODUCTS_SQL).run(count, now, now);
  } finally {
    db.close();
  }
}
