// Workspace database, migration 9 (Node, main process; released, so never edited): publisher lease:
// one publishing process per workspace.
import type { Migration } from './migration';

export const migration009: Migration = {
  version: 9,
  name: 'publisher lease: one publishing process per workspace',
  sql: `
    CREATE TABLE publisher_lease (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      owner TEXT NOT NULL,
      pid INTEGER NOT NULL,
      host TEXT NOT NULL,
      heartbeat_at INTEGER NOT NULL
    );
  `,
};
