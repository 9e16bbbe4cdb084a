// Workspace database, migration 10 (Node, main process; released, so never edited): media: pictures
// uploaded into the workspace.
import type { Migration } from './migration';

export const migration010: Migration = {
  version: 10,
  name: 'media: pictures uploaded into the workspace',
  // Kept in the database, not beside it, so a backup of the workspace file holds its pictures.
  sql: `
    CREATE TABLE media (
      name TEXT PRIMARY KEY,
      original_name TEXT NOT NULL,
      type TEXT NOT NULL,
      size INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      thumbnail BLOB,
      thumbnail_type TEXT,
      created_at INTEGER NOT NULL
    );
  `,
};
