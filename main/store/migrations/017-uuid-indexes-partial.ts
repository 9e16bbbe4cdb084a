// Workspace database, migration 17 (Node, main process; released, so never edited): a post's and
// a product's UUID indexed only where it has one.
import type { Migration } from './migration';

export const migration017: Migration = {
  version: 17,
  name: 'UUIDs indexed only where present',
  // Migration 14's UNIQUE indexes kept an entry for every NULL UUID: every post and product of a
  // workspace not in a team, so every row an import inserted, cost an index write for nothing
  // (about 6% of a 100,000-product import, #32). Partial, as migration 5 made remote ids: the
  // same uniqueness, and every look-up by UUID (`uuid = ?`, `uuid IN (...)`) still uses them.
  sql: `
    DROP INDEX products_uuid;
    CREATE UNIQUE INDEX products_uuid ON products(uuid) WHERE uuid IS NOT NULL;
    DROP INDEX posts_uuid;
    CREATE UNIQUE INDEX posts_uuid ON posts(uuid) WHERE uuid IS NOT NULL;
  `,
};
