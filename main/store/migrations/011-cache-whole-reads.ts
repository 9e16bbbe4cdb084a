// Workspace database, migration 11 (Node, main process; released, so never edited): cache: rows
// seen by which whole read, and how many whole reads in a row missed them.
import type { Migration } from './migration';

export const migration011: Migration = {
  version: 11,
  name: 'cache: rows seen by which whole read, and how many whole reads in a row missed them',
  // A row missing from one whole read may still exist (an offset shifted by a delete hid it);
  // it goes after two reads in a row missed it (docs/platform-api.md, "Reading a whole list").
  sql: `
    ALTER TABLE bots ADD COLUMN seen_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE bots ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE subscribers ADD COLUMN seen_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE subscribers ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE orders ADD COLUMN seen_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE orders ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_cursors ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
  `,
};
