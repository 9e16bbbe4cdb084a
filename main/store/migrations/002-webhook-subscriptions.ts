// Workspace database, migration 2 (Node, main process; released, so never edited): webhook
// subscriptions made from Pressroom.
import type { Migration } from './migration';

export const migration002: Migration = {
  version: 2,
  name: 'webhook subscriptions made from Pressroom',
  sql: `
    CREATE TABLE webhooks (
      id TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX received_events_by_time ON received_events (received_at);
  `,
};
