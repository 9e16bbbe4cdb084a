// Workspace database, migration 1 (Node, main process; released, so never edited): posts, products,
// outbox, platform cache, settings.
import type { Migration } from './migration';

export const migration001: Migration = {
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
};
