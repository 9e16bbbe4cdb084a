// Workspace database, migration 13 (Node, main process; released, so never edited): posts, products
// and queue items counted by status, kept by triggers.
import type { Migration } from './migration';

/**
 * Migration 13's counts of `table`'s rows by `column`: those already there, then a trigger for
 * each way a row comes, moves or goes. Released SQL: never edited.
 */
function countedByStatus(table: string, column: string): string {
  const add = (status: string) =>
    `INSERT INTO status_counts (family, status, n) VALUES ('${table}', ${status}, 1) ON CONFLICT (family, status) DO UPDATE SET n = n + 1;`;
  const remove = (status: string) =>
    `UPDATE status_counts SET n = n - 1 WHERE family = '${table}' AND status = ${status};`;
  return `
      INSERT INTO status_counts (family, status, n)
        SELECT '${table}', ${column}, COUNT(*) FROM ${table} GROUP BY ${column};
      CREATE TRIGGER ${table}_counted_in AFTER INSERT ON ${table} BEGIN
        ${add(`NEW.${column}`)}
      END;
      CREATE TRIGGER ${table}_counted_out AFTER DELETE ON ${table} BEGIN
        ${remove(`OLD.${column}`)}
      END;
      CREATE TRIGGER ${table}_counted_moved AFTER UPDATE OF ${column} ON ${table}
        WHEN OLD.${column} IS NOT NEW.${column} BEGIN
        ${remove(`OLD.${column}`)}
        ${add(`NEW.${column}`)}
      END;`;
}

export const migration013: Migration = {
  version: 13,
  name: 'posts, products and queue items counted by status, kept by triggers',
  // `status` counts them on every call, while a page polls it: a GROUP BY read the whole table
  // (840 ms at 260,000 products on a loaded machine, holding every other call meanwhile). Kept
  // here by triggers, a count is one row's read; each written row pays about a microsecond and a
  // half (an index on status cost twice that and still had counting read all of it; figures in
  // docs/architecture.md, "The core while an import runs"). Triggers,
  // not the store's modules, so no write can forget it: a cascade from a deleted product or
  // post fires them too. (No statement replaces rows of these tables: REPLACE would not fire the
  // delete trigger.) A broadcast's progress, polled while it sends, counts its group's items;
  // the Queue reads the open items soonest first and the finished newest first, a page of each,
  // from an index holding only those (the publisher's outbox_ready orders by state first).
  sql: `
    CREATE INDEX outbox_group ON outbox (group_id) WHERE group_id IS NOT NULL;
    CREATE INDEX outbox_open ON outbox (ready_at) WHERE state IN ('queued', 'sending', 'retrying');
    CREATE INDEX outbox_finished ON outbox (updated_at) WHERE state IN ('done', 'cancelled');
    CREATE TABLE status_counts (
      family TEXT NOT NULL CHECK (family IN ('posts', 'products', 'outbox')),
      status TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (family, status)
    ) WITHOUT ROWID;
    ${countedByStatus('posts', 'status')}
    ${countedByStatus('products', 'status')}
    ${countedByStatus('outbox', 'state')}
  `,
};
