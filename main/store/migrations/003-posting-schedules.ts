// Workspace database, migration 3 (Node, main process; released, so never edited): posting
// schedules of bots; posts by bot and outgoing time.
import type { Migration } from './migration';

export const migration003: Migration = {
  version: 3,
  name: 'posting schedules of bots; posts by bot and outgoing time',
  sql: `
    CREATE TABLE bot_schedules (
      bot_id TEXT PRIMARY KEY,
      schedule TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    );
    -- The duplicate guard and the free-slot search read one bot's posts by when they go out.
    CREATE INDEX posts_bot_outgoing ON posts (bot_id, COALESCE(published_at, scheduled_at));
  `,
};
