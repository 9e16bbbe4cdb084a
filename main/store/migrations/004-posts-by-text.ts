// Workspace database, migration 4 (Node, main process; released, so never edited): posts by the
// start of their text.
import type { Migration } from './migration';

export const migration004: Migration = {
  version: 4,
  name: 'posts by the start of their text',
  sql: `
    -- Re-importing finds an identical post (same text, bot and time) per row. Undated posts all
    -- share scheduled_at NULL, so without this each row scanned every one of them; the text's
    -- first 64 characters narrow it to a handful and keep the index small.
    CREATE INDEX posts_text_start ON posts (substr(text, 1, 64));
  `,
};
