// Workspace database, migration 16 (Node, main process): an import's products counted by the
// statement that inserts them, not one trigger run per row.
import type { Migration } from './migration';

export const migration016: Migration = {
  version: 16,
  name: "an import's products counted per statement, not per row",
  // Migration 13's insert trigger ran once per row: for an import of 100,000 products it doubled
  // SQLite's own work (sqlite3 alone copying them into the table: 1.3 s with it, 0.6 s without)
  // and alone kept the import above twice sqlite3's `.import` (#32). A product with a batch comes
  // only from ProductsStore's inserts (an import's), which add the rows they inserted to its count
  // in the same transaction; every other insert is still counted here, and the delete and move
  // triggers are untouched.
  sql: `
    DROP TRIGGER products_counted_in;
    CREATE TRIGGER products_counted_in AFTER INSERT ON products WHEN NEW.batch_id IS NULL BEGIN
      INSERT INTO status_counts (family, status, n) VALUES ('products', NEW.status, 1)
        ON CONFLICT (family, status) DO UPDATE SET n = n + 1;
    END;
  `,
};
