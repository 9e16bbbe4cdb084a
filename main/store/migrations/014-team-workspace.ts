// Workspace database, migration 14 (Node, main process; released, so never edited): team workspace:
// a UUID per post and product, the team link, the Yjs updates.
import type { Migration } from './migration';

export const migration014: Migration = {
  version: 14,
  name: 'team workspace: a UUID per post and product, the team link, the Yjs updates',
  // Integer ids would collide across desktops; the UUID names a record in the team's document
  // and the integer id stays local. The Yjs updates are kept here, in the workspace's own file,
  // so edits made offline survive a restart and merge on reconnect (docs/team.md).
  sql: `
    ALTER TABLE posts ADD COLUMN uuid TEXT;
    CREATE UNIQUE INDEX posts_uuid ON posts(uuid);
    ALTER TABLE products ADD COLUMN uuid TEXT;
    CREATE UNIQUE INDEX products_uuid ON products(uuid);
    CREATE TABLE team_link (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      url TEXT NOT NULL,
      team TEXT NOT NULL,
      device TEXT NOT NULL,
      joined_at INTEGER NOT NULL,
      pushed_upto INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE team_updates (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      data BLOB NOT NULL
    );
  `,
};
