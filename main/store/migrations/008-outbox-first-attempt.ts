// Workspace database, migration 8 (Node, main process; released, so never edited): outbox: when an
// item was first attempted.
import type { Migration } from './migration';

export const migration008: Migration = {
  version: 8,
  name: 'outbox: when an item was first attempted',
  // A lookup matches a post by its content only if the platform made it after the item's first
  // attempt. Items attempted before this version take their creation time: an earlier bound.
  sql: `
    ALTER TABLE outbox ADD COLUMN first_attempt_at INTEGER;
    UPDATE outbox SET first_attempt_at = created_at WHERE attempts > 0;
  `,
};
