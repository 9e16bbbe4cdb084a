// Workspace database, migration 6 (Node, main process; released, so never edited): imports write as
// they read: batches in progress, and the drafts an import replaced.
import type { Migration } from './migration';

export const migration006: Migration = {
  version: 6,
  name: 'imports write as they read: batches in progress, and the drafts an import replaced',
  // An import in progress beats its heartbeat; one whose process died is found by a stale one
  // and taken back. Finished batches (every one before this version) have none. A draft an
  // import changed keeps its earlier fields here, so undoing the import restores it instead of
  // deleting a product that was there before. (No index on batch_id: every imported row would pay
  // for one, and only an undo looks rows up by batch.)
  sql: `
    ALTER TABLE import_batches ADD COLUMN heartbeat_at INTEGER;
    CREATE TABLE import_replaced (
      batch_id TEXT NOT NULL REFERENCES import_batches(id) ON DELETE CASCADE,
      product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      price_minor INTEGER NOT NULL,
      currency TEXT NOT NULL,
      stock INTEGER,
      image_url TEXT,
      previous_batch_id TEXT,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (batch_id, product_id)
    );
  `,
};
