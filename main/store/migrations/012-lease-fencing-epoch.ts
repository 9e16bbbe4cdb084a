// Workspace database, migration 12 (Node, main process; released, so never edited): publisher
// lease: a fencing epoch and a beat counter.
import type { Migration } from './migration';

export const migration012: Migration = {
  version: 12,
  name: 'publisher lease: a fencing epoch and a beat counter',
  // Staleness is judged by the beat counter standing still over the taker's own elapsed time,
  // never by comparing the holder's clock with the taker's. The epoch grows with every change
  // of holder; an item records the epoch it was claimed under, and only that holder settles it.
  // A released lease keeps its row (owner '') so epochs never start over.
  sql: `
    ALTER TABLE publisher_lease ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE publisher_lease ADD COLUMN beats INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE outbox ADD COLUMN lease_epoch INTEGER;
  `,
};
