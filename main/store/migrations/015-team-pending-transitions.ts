// Workspace database, migration 15 (Node, main process; released, so never edited): team
// approvals: transitions asked offline, waiting to sync.
import type { Migration } from './migration';

export const migration015: Migration = {
  version: 15,
  name: 'team approvals: transitions asked offline, waiting to sync',
  // A transition asked while the team server cannot be reached waits here, in the workspace's
  // own file, and is sent on reconnect; a refused one stays with its reason, to be shown.
  sql: `
    CREATE TABLE team_pending_transitions (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      post_uuid TEXT NOT NULL,
      from_state TEXT NOT NULL,
      to_state TEXT NOT NULL,
      comment TEXT,
      asked_at INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('waiting', 'refused')),
      reason TEXT
    );
  `,
};
