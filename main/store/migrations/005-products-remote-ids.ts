// Workspace database, migration 5 (Node, main process; released, so never edited): products: remote
// ids unique where present; a cheaper status check.
import type { Migration } from './migration';

export const migration005: Migration = {
  version: 5,
  name: 'products: remote ids unique where present; a cheaper status check',
  // SQLite's table-rebuild procedure (the runner turns foreign keys off around it, so the
  // outbox rows pointing at products survive the DROP). The same rules, cheaper to insert
  // under: the column's UNIQUE kept an index entry for every NULL remote id (every draft), and
  // "status IN (...)" of five values cost more per inserted row than comparing in turn.
  sql: `
    CREATE TABLE products_rebuilt (
      id INTEGER PRIMARY KEY,
      remote_id TEXT,
      sku TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      description TEXT,
      price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
      currency TEXT NOT NULL,
      stock INTEGER CHECK (stock IS NULL OR stock >= 0),
      image_url TEXT,
      status TEXT NOT NULL CHECK (status = 'draft' OR status = 'queued' OR status = 'sending'
        OR status = 'published' OR status = 'failed'),
      origin TEXT NOT NULL DEFAULT 'local' CHECK (origin IN ('local', 'remote')),
      error TEXT,
      batch_id TEXT REFERENCES import_batches(id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    INSERT INTO products_rebuilt (id, remote_id, sku, name, description, price_minor, currency,
        stock, image_url, status, origin, error, batch_id, created_at, updated_at)
      SELECT id, remote_id, sku, name, description, price_minor, currency, stock, image_url,
        status, origin, error, batch_id, created_at, updated_at FROM products;
    DROP TABLE products;
    ALTER TABLE products_rebuilt RENAME TO products;
    CREATE UNIQUE INDEX products_remote_id ON products (remote_id) WHERE remote_id IS NOT NULL;
  `,
};
