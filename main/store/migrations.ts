// Numbered schema migrations of Pressroom's workspace database (Node, main process). A migration
// is never edited once released: a change of schema is a new entry at the end.
import { rescaleToIsoMinorUnits } from '../sqlite/iso-minor-units';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Migration 13's counts of `table`'s rows by `column`: those already there, then a trigger for
 * each way a row comes, moves or goes. Released SQL: never edited.
 */
function countedByStatus(table: string, column: string): string {
  const add = (status: string) =>
    `INSERT INTO status_counts (family, status, n) VALUES ('${table}', ${status}, 1) ON CONFLICT (family, status) DO UPDATE SET n = n + 1;`;
  const remove = (status: string) =>
    `UPDATE status_counts SET n = n - 1 WHERE family = '${table}' AND status = ${status};`;
  return `
      INSERT INTO status_counts (family, status, n)
        SELECT '${table}', ${column}, COUNT(*) FROM ${table} GROUP BY ${column};
      CREATE TRIGGER ${table}_counted_in AFTER INSERT ON ${table} BEGIN
        ${add(`NEW.${column}`)}
      END;
      CREATE TRIGGER ${table}_counted_out AFTER DELETE ON ${table} BEGIN
        ${remove(`OLD.${column}`)}
      END;
      CREATE TRIGGER ${table}_counted_moved AFTER UPDATE OF ${column} ON ${table}
        WHEN OLD.${column} IS NOT NEW.${column} BEGIN
        ${remove(`OLD.${column}`)}
        ${add(`NEW.${column}`)}
      END;`;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'posts, products, outbox, platform cache, settings',
    sql: `
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE import_batches (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('posts', 'products')),
        source TEXT,
        summary TEXT NOT NULL DEFAULT '{}',
        created_at INTEGER NOT NULL,
        undone_at INTEGER
      );
      CREATE TABLE posts (
        id INTEGER PRIMARY KEY,
        remote_id TEXT UNIQUE,
        bot_id TEXT,
        text TEXT NOT NULL,
        media_urls TEXT NOT NULL DEFAULT '[]',
        scheduled_at INTEGER,
        zone TEXT,
        status TEXT NOT NULL CHECK (status IN
          ('draft', 'scheduled', 'sending', 'published', 'failed', 'missed', 'handed_off')),
        origin TEXT NOT NULL DEFAULT 'local' CHECK (origin IN ('local', 'remote')),
        published_at INTEGER,
        error TEXT,
        batch_id TEXT REFERENCES import_batches(id) ON DELETE SET NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX posts_time ON posts(scheduled_at);
      CREATE INDEX posts_status ON posts(status);
      CREATE TABLE products (
        id INTEGER PRIMARY KEY,
        remote_id TEXT UNIQUE,
        sku TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        description TEXT,
        price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
        currency TEXT NOT NULL,
        stock INTEGER CHECK (stock IS NULL OR stock >= 0),
        image_url TEXT,
        status TEXT NOT NULL CHECK (status IN ('draft', 'queued', 'sending', 'published', 'failed')),
        origin TEXT NOT NULL DEFAULT 'local' CHECK (origin IN ('local', 'remote')),
        error TEXT,
        batch_id TEXT REFERENCES import_batches(id) ON DELETE SET NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        post_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
        product_id INTEGER REFERENCES products(id) ON DELETE CASCADE,
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'done', 'retrying', 'failed', 'cancelled')),
        priority INTEGER NOT NULL,
        due_at INTEGER NOT NULL,
        ready_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        idempotency_key TEXT NOT NULL UNIQUE,
        remote_id TEXT,
        last_error TEXT,
        field_errors TEXT NOT NULL DEFAULT '[]',
        outcome_unknown INTEGER NOT NULL DEFAULT 0,
        group_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX outbox_ready ON outbox(state, ready_at);
      CREATE INDEX outbox_post ON outbox(post_id);
      CREATE INDEX outbox_product ON outbox(product_id);
      CREATE TABLE bots (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        raw TEXT NOT NULL,
        synced_at INTEGER NOT NULL
      );
      CREATE TABLE subscribers (
        id TEXT PRIMARY KEY,
        bot_id TEXT,
        name TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL,
        raw TEXT NOT NULL,
        synced_at INTEGER NOT NULL
      );
      CREATE TABLE orders (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        currency TEXT NOT NULL,
        total_minor INTEGER NOT NULL,
        created_at INTEGER,
        raw TEXT NOT NULL,
        synced_at INTEGER NOT NULL
      );
      CREATE TABLE received_events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        payload TEXT NOT NULL,
        received_at INTEGER NOT NULL
      );
      CREATE TABLE sync_cursors (
        resource TEXT PRIMARY KEY,
        synced_at INTEGER,
        error TEXT
      );
    `,
  },
  {
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
  },
  {
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
  },
  {
    version: 4,
    name: 'posts by the start of their text',
    sql: `
      -- Re-importing finds an identical post (same text, bot and time) per row. Undated posts all
      -- share scheduled_at NULL, so without this each row scanned every one of them; the text's
      -- first 64 characters narrow it to a handful and keep the index small.
      CREATE INDEX posts_text_start ON posts (substr(text, 1, 64));
    `,
  },
  {
    version: 5,
    name: 'products: remote ids unique where present; a cheaper status check',
    // SQLite's table-rebuild procedure (the runner turns foreign keys off around it, so the
    // outbox rows pointing at products survive the DROP). The same rules, cheaper to insert
    // under: the column's UNIQUE kept an index entry for every NULL remote id (every draft), and
    // "status IN (...)" of five values cost more per inserted row than comparing in turn.
    sql: `
      CREATE TABLE products_rebuilt (
        id INTEGER PRIMARY KEY,
        remote_id TEXT,
        sku TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        description TEXT,
        price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
        currency TEXT NOT NULL,
        stock INTEGER CHECK (stock IS NULL OR stock >= 0),
        image_url TEXT,
        status TEXT NOT NULL CHECK (status = 'draft' OR status = 'queued' OR status = 'sending'
          OR status = 'published' OR status = 'failed'),
        origin TEXT NOT NULL DEFAULT 'local' CHECK (origin IN ('local', 'remote')),
        error TEXT,
        batch_id TEXT REFERENCES import_batches(id) ON DELETE SET NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      INSERT INTO products_rebuilt (id, remote_id, sku, name, description, price_minor, currency,
          stock, image_url, status, origin, error, batch_id, created_at, updated_at)
        SELECT id, remote_id, sku, name, description, price_minor, currency, stock, image_url,
          status, origin, error, batch_id, created_at, updated_at FROM products;
      DROP TABLE products;
      ALTER TABLE products_rebuilt RENAME TO products;
      CREATE UNIQUE INDEX products_remote_id ON products (remote_id) WHERE remote_id IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'imports write as they read: batches in progress, and the drafts an import replaced',
    // An import in progress beats its heartbeat; one whose process died is found by a stale one
    // and taken back. Finished batches (every one before this version) have none. A draft an
    // import changed keeps its earlier fields here, so undoing the import restores it instead of
    // deleting a product that was there before. (No index on batch_id: every imported row would pay
    // for one, and only an undo looks rows up by batch.)
    sql: `
      ALTER TABLE import_batches ADD COLUMN heartbeat_at INTEGER;
      CREATE TABLE import_replaced (
        batch_id TEXT NOT NULL REFERENCES import_batches(id) ON DELETE CASCADE,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        description TEXT,
        price_minor INTEGER NOT NULL,
        currency TEXT NOT NULL,
        stock INTEGER,
        image_url TEXT,
        previous_batch_id TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (batch_id, product_id)
      );
    `,
  },
  {
    version: 7,
    name: 'money: amounts in ISO 4217 minor units where CLDR’s display digits differed',
    // Minor digits came from ICU, which gives CLDR's display digits (HUF 0, where ISO 4217 has 2).
    // Stored amounts in those currencies are rescaled to keep their value (docs/architecture.md).
    sql: rescaleToIsoMinorUnits([
      { table: 'products', amount: 'price_minor', currency: 'currency' },
      { table: 'import_replaced', amount: 'price_minor', currency: 'currency' },
      { table: 'orders', amount: 'total_minor', currency: 'currency' },
    ]),
  },
  {
    version: 8,
    name: 'outbox: when an item was first attempted',
    // A lookup matches a post by its content only if the platform made it after the item's first
    // attempt. Items attempted before this version take their creation time: an earlier bound.
    sql: `
      ALTER TABLE outbox ADD COLUMN first_attempt_at INTEGER;
      UPDATE outbox SET first_attempt_at = created_at WHERE attempts > 0;
    `,
  },
  {
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
  },
  {
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
  },
  {
    version: 11,
    name: 'cache: rows seen by which whole read, and how many whole reads in a row missed them',
    // A row missing from one whole read may still exist (an offset shifted by a delete hid it);
    // it goes after two reads in a row missed it (docs/platform-api.md, "Reading a whole list").
    sql: `
      ALTER TABLE bots ADD COLUMN seen_in INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE bots ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE subscribers ADD COLUMN seen_in INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE subscribers ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE orders ADD COLUMN seen_in INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE orders ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sync_cursors ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
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
  },
  {
    version: 13,
    name: 'posts, products and queue items counted by status, kept by triggers',
    // `status` counts them on every call, while a page polls it: a GROUP BY read the whole table
    // (840 ms at 260,000 products on a loaded machine, holding every other call meanwhile). Kept
    // here by triggers, a count is one row's read; each written row pays about a microsecond and a
    // half (an index on status cost twice that and still had counting read all of it; figures in
    // docs/architecture.md, "The core while an import runs"). Triggers,
    // not the store's modules, so no write can forget it: a cascade from a deleted product or
    // post fires them too. (No statement replaces rows of these tables: REPLACE would not fire the
    // delete trigger.) A broadcast's progress, polled while it sends, counts its group's items;
    // the Queue reads the open items soonest first and the finished newest first, a page of each,
    // from an index holding only those (the publisher's outbox_ready orders by state first).
    sql: `
      CREATE INDEX outbox_group ON outbox (group_id) WHERE group_id IS NOT NULL;
      CREATE INDEX outbox_open ON outbox (ready_at) WHERE state IN ('queued', 'sending', 'retrying');
      CREATE INDEX outbox_finished ON outbox (updated_at) WHERE state IN ('done', 'cancelled');
      CREATE TABLE status_counts (
        family TEXT NOT NULL CHECK (family IN ('posts', 'products', 'outbox')),
        status TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (family, status)
      ) WITHOUT ROWID;
      ${countedByStatus('posts', 'status')}
      ${countedByStatus('products', 'status')}
      ${countedByStatus('outbox', 'state')}
    `,
  },
  {
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
  },
  {
    version: 17,
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
  },
];
