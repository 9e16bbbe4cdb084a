// Storage of the reference server (Node, main process): one SQLite database, file or memory,
// with numbered migrations tracked in PRAGMA user_version. Only the reference server uses it;
// Pressroom's own cache lives in main/store/.
import type Database from 'better-sqlite3';
import { rescaleToIsoMinorUnits } from '../sqlite/iso-minor-units';
import { openMigratedDb } from '../sqlite/open';

export const REFERENCE_SERVER_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    rate_limit INTEGER,
    suspended INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT,
    channel TEXT NOT NULL,
    status TEXT NOT NULL,
    client_reference TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX bots_account ON bots(account_id, id);
  CREATE TABLE subscribers (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    bot_id INTEGER NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    handle TEXT,
    language TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER
  );
  CREATE INDEX subscribers_account ON subscribers(account_id, id);
  CREATE INDEX subscribers_bot ON subscribers(bot_id);
  CREATE TABLE subscriber_tags (
    subscriber_id INTEGER NOT NULL REFERENCES subscribers(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    tag_key TEXT NOT NULL,
    PRIMARY KEY (subscriber_id, tag_key)
  );
  CREATE INDEX subscriber_tags_key ON subscriber_tags(tag_key);
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    subscriber_id INTEGER REFERENCES subscribers(id) ON DELETE SET NULL,
    bot_id INTEGER,
    direction TEXT NOT NULL,
    text TEXT NOT NULL,
    client_reference TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE posts (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    bot_id INTEGER NOT NULL REFERENCES bots(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    media_urls TEXT NOT NULL,
    status TEXT NOT NULL,
    scheduled_at INTEGER,
    published_at INTEGER,
    client_reference TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX posts_account ON posts(account_id, id);
  CREATE INDEX posts_due ON posts(status, scheduled_at);
  CREATE INDEX posts_reference ON posts(account_id, client_reference);
  CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    price_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    stock INTEGER,
    image_url TEXT,
    client_reference TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, sku)
  );
  CREATE INDEX products_reference ON products(account_id, client_reference);
  CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    number TEXT NOT NULL,
    bot_id INTEGER,
    subscriber_id INTEGER,
    status TEXT NOT NULL,
    currency TEXT NOT NULL,
    total_minor INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX orders_account ON orders(account_id, id);
  CREATE TABLE order_items (
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    product_id INTEGER,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    unit_price_minor INTEGER NOT NULL,
    PRIMARY KEY (order_id, position)
  );
  CREATE TABLE comments (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    post_id INTEGER,
    bot_id INTEGER NOT NULL,
    author_name TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE ai_usage (
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    provider TEXT NOT NULL,
    requests INTEGER NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cost_micro_usd INTEGER NOT NULL,
    PRIMARY KEY (account_id, date, provider)
  );
  CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    active INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE idempotency (
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
  );
  CREATE INDEX idempotency_age ON idempotency(created_at);
  `,
  // Amounts in ISO 4217 minor units where CLDR's display digits, which ICU gave, differed.
  rescaleToIsoMinorUnits([
    { table: 'products', amount: 'price_minor', currency: 'currency' },
    { table: 'orders', amount: 'total_minor', currency: 'currency' },
    {
      table: 'order_items',
      amount: 'unit_price_minor',
      currency: '(SELECT currency FROM orders WHERE orders.id = order_items.order_id)',
    },
  ]),
];

export type ReferenceServerDb = Database.Database;

export const REFERENCE_SERVER_SCHEMA_VERSION = REFERENCE_SERVER_MIGRATIONS.length;

/** Opens (creating if needed) the reference server's database and brings its schema up to date. */
export function openReferenceServerDb(
  file = ':memory:',
  migrations = REFERENCE_SERVER_MIGRATIONS,
): ReferenceServerDb {
  return openMigratedDb(file, {
    applicationId: 0x50524553, // "PRES"
    kindName: 'a reference-server database',
    migrations,
    // A demo and test double: losing the last write on power loss is fine, and NORMAL keeps the
    // server far from being the bottleneck in benchmarks.
    synchronous: 'NORMAL',
  });
}
