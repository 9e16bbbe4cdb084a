// Every migration of the workspace database, from an empty file and from the version before it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openReferenceServerDb } from '../../main/reference-server/db';
import { SCHEMA_VERSION, openWorkspaceDb } from '../../main/store/db';
import { MIGRATIONS } from '../../main/store/migrations';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'pressroom-ws-')), 'workspace.sqlite');

describe('workspace migrations', () => {
  it('are numbered 1..N in order', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(
      MIGRATIONS.map((_, index) => index + 1),
    );
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it.each(MIGRATIONS.map((migration) => [migration.version, migration.name]))(
    'migration %i (%s) applies to an empty database and to the version before it, keeping data',
    (version) => {
      const fromEmpty = openWorkspaceDb(':memory:', MIGRATIONS.slice(0, version));
      expect(fromEmpty.pragma('user_version', { simple: true })).toBe(version);
      expect(fromEmpty.pragma('foreign_keys', { simple: true })).toBe(1);
      fromEmpty.close();

      const file = tempFile();
      const previous = openWorkspaceDb(file, MIGRATIONS.slice(0, version - 1));
      if (version > 1)
        previous.prepare("INSERT INTO settings (key, value) VALUES ('kept', '1')").run();
      previous.close();
      const upgraded = openWorkspaceDb(file, MIGRATIONS.slice(0, version));
      expect(upgraded.pragma('user_version', { simple: true })).toBe(version);
      expect(upgraded.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(upgraded.pragma('synchronous', { simple: true })).toBe(2); // FULL
      if (version > 1)
        expect(upgraded.prepare("SELECT value FROM settings WHERE key = 'kept'").get()).toEqual({
          value: '1',
        });
      upgraded.close();
    },
  );

  it('3 keeps the posts, adds posting schedules, and finds a bot’s posts by time with an index', () => {
    const file = tempFile();
    const v2 = openWorkspaceDb(file, MIGRATIONS.slice(0, 2));
    v2.prepare(
      `INSERT INTO posts (bot_id, text, scheduled_at, status, created_at, updated_at)
         VALUES ('bot_1', 'Rye', 1000, 'scheduled', 1, 1)`,
    ).run();
    v2.close();
    const v3 = openWorkspaceDb(file, MIGRATIONS.slice(0, 3));
    expect(v3.prepare('SELECT text FROM posts').all()).toEqual([{ text: 'Rye' }]);
    v3.prepare(
      "INSERT INTO bot_schedules (bot_id, schedule, updated_at) VALUES ('bot_1', '[]', 1)",
    ).run();
    expect(() =>
      v3
        .prepare(
          "INSERT INTO bot_schedules (bot_id, schedule, updated_at) VALUES ('bot_1', '[]', 2)",
        )
        .run(),
    ).toThrow(/UNIQUE/);
    const plan = v3
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM posts
           WHERE bot_id IS ? AND COALESCE(published_at, scheduled_at) BETWEEN ? AND ?`,
      )
      .all('bot_1', 0, 2000) as { detail: string }[];
    expect(plan.map((step) => step.detail).join()).toContain('USING INDEX posts_bot_outgoing');
    v3.close();
  });

  it('4 finds an identical post by its text with an index, also among undated posts', () => {
    const v4 = openWorkspaceDb(':memory:', MIGRATIONS.slice(0, 4));
    const plan = v4
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM posts WHERE substr(text, 1, 64) = substr(?, 1, 64)
           AND text = ? AND bot_id IS ? AND scheduled_at IS ?`,
      )
      .all('Rye', 'Rye', null, null) as { detail: string }[];
    expect(plan.map((step) => step.detail).join()).toContain('USING INDEX posts_text_start');
    v4.close();
  });

  it('5 rebuilds products with every row and every queue item pointing at them, under the same rules', () => {
    const file = tempFile();
    const v4 = openWorkspaceDb(file, MIGRATIONS.slice(0, 4));
    v4.exec(`
      INSERT INTO import_batches (id, kind, created_at) VALUES ('batch-1', 'products', 1);
      INSERT INTO products (id, remote_id, sku, name, description, price_minor, currency, stock, image_url,
          status, origin, error, batch_id, created_at, updated_at) VALUES
        (1, NULL, 'DRAFT', 'Draft', 'Soft', 250, 'EUR', 3, 'https://x.test/a.jpg', 'draft', 'local', NULL, 'batch-1', 1, 2),
        (2, NULL, 'QUEUED', 'Queued', NULL, 100, 'USD', NULL, NULL, 'queued', 'local', NULL, NULL, 3, 4),
        (3, 'pf_9', 'LIVE', 'Live', NULL, 900, 'JPY', 0, NULL, 'published', 'remote', NULL, NULL, 5, 6);
      INSERT INTO outbox (kind, product_id, payload, state, priority, due_at, ready_at, idempotency_key,
          created_at, updated_at) VALUES
        ('create_product', 2, '{}', 'queued', 1, 10, 10, 'key-2', 7, 7),
        ('create_product', 3, '{}', 'done', 1, 10, 10, 'key-3', 8, 8);
    `);
    const products = v4.prepare('SELECT * FROM products ORDER BY id').all();
    const outbox = v4.prepare('SELECT * FROM outbox ORDER BY id').all();
    v4.close();

    const v5 = openWorkspaceDb(file, MIGRATIONS.slice(0, 5));
    expect(v5.prepare('SELECT * FROM products ORDER BY id').all()).toEqual(products);
    expect(v5.prepare('SELECT * FROM outbox ORDER BY id').all()).toEqual(outbox);
    const insert = v5.prepare(
      `INSERT INTO products (remote_id, sku, name, price_minor, currency, status, batch_id, created_at, updated_at)
         VALUES (?, ?, 'P', 1, 'EUR', ?, ?, 1, 1)`,
    );
    // Any number of drafts without a remote id; a remote id, status and batch as strict as before.
    insert.run(null, 'NEW-1', 'draft', 'batch-1');
    insert.run(null, 'NEW-2', 'draft', null);
    expect(() => insert.run('pf_9', 'NEW-3', 'published', null)).toThrow(/UNIQUE/);
    expect(() => insert.run(null, 'DRAFT', 'draft', null)).toThrow(/UNIQUE/);
    expect(() => insert.run(null, 'NEW-4', 'lost', null)).toThrow(/CHECK/);
    expect(() => insert.run(null, 'NEW-5', 'draft', 'batch-none')).toThrow(/FOREIGN KEY/);
    const plan = v5
      .prepare('EXPLAIN QUERY PLAN SELECT id FROM products WHERE remote_id = ?')
      .all('pf_9') as { detail: string }[];
    expect(plan.map((step) => step.detail).join()).toContain(
      'INDEX products_remote_id (remote_id=?)',
    );
    // The queue items still follow their product, and the batch still lets go of its products.
    v5.prepare('DELETE FROM products WHERE id = 2').run();
    expect(v5.prepare('SELECT product_id FROM outbox').all()).toEqual([{ product_id: 3 }]);
    v5.prepare("DELETE FROM import_batches WHERE id = 'batch-1'").run();
    expect(v5.prepare('SELECT batch_id FROM products WHERE id = 1').get()).toEqual({
      batch_id: null,
    });
    v5.close();
  });

  it('6 keeps earlier batches finished, and keeps what an import replaced with its batch and product', () => {
    const file = tempFile();
    const v5 = openWorkspaceDb(file, MIGRATIONS.slice(0, 5));
    v5.prepare(
      "INSERT INTO import_batches (id, kind, summary, created_at) VALUES ('batch-1', 'products', '{}', 1)",
    ).run();
    v5.close();
    const v6 = openWorkspaceDb(file, MIGRATIONS.slice(0, 6));
    // Imports before this version all finished: none is taken for one whose process died.
    expect(v6.prepare('SELECT id, heartbeat_at FROM import_batches').all()).toEqual([
      { id: 'batch-1', heartbeat_at: null },
    ]);
    v6.prepare(
      `INSERT INTO products (id, sku, name, price_minor, currency, status, created_at, updated_at)
         VALUES (7, 'A', 'Loaf', 100, 'EUR', 'draft', 1, 1)`,
    ).run();
    v6.prepare(
      `INSERT INTO import_replaced (batch_id, product_id, name, price_minor, currency, updated_at)
         VALUES ('batch-1', 7, 'Old loaf', 90, 'EUR', 1)`,
    ).run();
    v6.prepare('DELETE FROM products WHERE id = 7').run();
    expect(v6.prepare('SELECT COUNT(*) AS n FROM import_replaced').get()).toEqual({ n: 0 });
    v6.close();
  });

  it('7 keeps every amount’s value as minor digits change from ICU’s to ISO 4217’s', () => {
    const file = tempFile();
    const v6 = openWorkspaceDb(file, MIGRATIONS.slice(0, 6));
    const insert = v6.prepare(
      `INSERT INTO products (id, sku, name, price_minor, currency, status, created_at, updated_at)
         VALUES (?, ?, 'Item', ?, ?, 'draft', 1, 1)`,
    );
    // 1,299 forints, 25,000 dinars, 19.99 euros and 500 yen, in the digits ICU gave.
    insert.run(1, 'HUF', 1299, 'HUF');
    insert.run(2, 'IQD', 25_000, 'IQD');
    insert.run(3, 'EUR', 1999, 'EUR');
    insert.run(4, 'JPY', 500, 'JPY');
    v6.prepare(
      "INSERT INTO import_batches (id, kind, summary, created_at) VALUES ('batch-1', 'products', '{}', 1)",
    ).run();
    v6.prepare(
      `INSERT INTO import_replaced (batch_id, product_id, name, price_minor, currency, updated_at)
         VALUES ('batch-1', 1, 'Old', 999, 'HUF', 1)`,
    ).run();
    v6.prepare(
      `INSERT INTO orders (id, status, currency, total_minor, raw, synced_at)
         VALUES ('ord_1', 'paid', 'IDR', 15000, '{}', 1), ('ord_2', 'paid', 'USD', 1500, '{}', 1)`,
    ).run();
    v6.close();
    const v7 = openWorkspaceDb(file, MIGRATIONS.slice(0, 7));
    expect(v7.prepare('SELECT sku, price_minor FROM products ORDER BY id').all()).toEqual([
      { sku: 'HUF', price_minor: 129_900 },
      { sku: 'IQD', price_minor: 25_000_000 },
      { sku: 'EUR', price_minor: 1999 },
      { sku: 'JPY', price_minor: 500 },
    ]);
    expect(v7.prepare('SELECT price_minor FROM import_replaced').get()).toEqual({
      price_minor: 99_900,
    });
    expect(v7.prepare('SELECT id, total_minor FROM orders ORDER BY id').all()).toEqual([
      { id: 'ord_1', total_minor: 1_500_000 },
      { id: 'ord_2', total_minor: 1500 },
    ]);
    v7.close();
  });

  it('8 bounds what a lookup may take for an item attempted before it by the item’s creation', () => {
    const file = tempFile();
    const v7 = openWorkspaceDb(file, MIGRATIONS.slice(0, 7));
    const insert = v7.prepare(
      `INSERT INTO outbox (kind, payload, state, priority, due_at, ready_at, attempts, idempotency_key,
         created_at, updated_at) VALUES ('create_bot', '{}', ?, 1, 5, 5, ?, ?, 3, 9)`,
    );
    insert.run('retrying', 2, 'k-tried');
    insert.run('queued', 0, 'k-new');
    v7.close();
    const v8 = openWorkspaceDb(file, MIGRATIONS.slice(0, 8));
    expect(
      v8.prepare('SELECT idempotency_key, first_attempt_at FROM outbox ORDER BY id').all(),
    ).toEqual([
      { idempotency_key: 'k-tried', first_attempt_at: 3 },
      { idempotency_key: 'k-new', first_attempt_at: null },
    ]);
    v8.close();
  });

  it('9 holds at most one publisher lease', () => {
    const v9 = openWorkspaceDb(':memory:', MIGRATIONS.slice(0, 9));
    const insert = v9.prepare(
      "INSERT INTO publisher_lease (id, owner, pid, host, heartbeat_at) VALUES (?, 'a', 1, 'h', 1)",
    );
    insert.run(1);
    expect(() => insert.run(1)).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => insert.run(2)).toThrow(/CHECK/);
    v9.close();
  });

  it('10 keeps each uploaded picture once, by its name, with its bytes', () => {
    const v10 = openWorkspaceDb(':memory:', MIGRATIONS.slice(0, 10));
    const insert = v10.prepare(
      `INSERT INTO media (name, original_name, type, size, bytes, created_at)
         VALUES ('abc.png', 'Shop.png', 'image/png', 3, ?, 1)`,
    );
    insert.run(Buffer.from([1, 2, 3]));
    expect(() => insert.run(Buffer.from([1, 2, 3]))).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(v10.prepare('SELECT bytes, thumbnail FROM media').get()).toEqual({
      bytes: Buffer.from([1, 2, 3]),
      thumbnail: null,
    });
    v10.close();
  });

  it('13 counts the rows already there by status, and keeps counting as rows come, move and go', () => {
    const file = tempFile();
    const v12 = openWorkspaceDb(file, MIGRATIONS.slice(0, 12));
    v12.exec(`
      INSERT INTO products (id, sku, name, price_minor, currency, status, created_at, updated_at) VALUES
        (1, 'A', 'A', 1, 'EUR', 'draft', 1, 1), (2, 'B', 'B', 1, 'EUR', 'draft', 1, 1),
        (3, 'C', 'C', 1, 'EUR', 'queued', 1, 1);
      INSERT INTO posts (text, status, created_at, updated_at) VALUES ('Rye', 'scheduled', 1, 1);
      INSERT INTO outbox (kind, product_id, payload, state, priority, due_at, ready_at, idempotency_key,
          group_id, created_at, updated_at)
        VALUES ('create_product', 3, '{}', 'queued', 1, 1, 1, 'k', 'g1', 1, 1);
    `);
    v12.close();
    const v13 = openWorkspaceDb(file, MIGRATIONS.slice(0, 13));
    const counts = () =>
      v13.prepare('SELECT family, status, n FROM status_counts ORDER BY family, status').all();
    expect(counts()).toEqual([
      { family: 'outbox', status: 'queued', n: 1 },
      { family: 'posts', status: 'scheduled', n: 1 },
      { family: 'products', status: 'draft', n: 2 },
      { family: 'products', status: 'queued', n: 1 },
    ]);
    v13.exec(`
      UPDATE outbox SET state = 'done' WHERE id = 1;
      UPDATE products SET status = 'published' WHERE id = 3;
      UPDATE products SET name = 'Renamed' WHERE id = 1;
      INSERT INTO products (sku, name, price_minor, currency, status, created_at, updated_at)
        VALUES ('D', 'D', 1, 'EUR', 'failed', 1, 1);
      DELETE FROM products WHERE id = 2;
      DELETE FROM products WHERE id = 3;
    `);
    // The queue item went with its product (ON DELETE CASCADE), and its count with it.
    expect(counts()).toEqual([
      { family: 'outbox', status: 'done', n: 0 },
      { family: 'outbox', status: 'queued', n: 0 },
      { family: 'posts', status: 'scheduled', n: 1 },
      { family: 'products', status: 'draft', n: 1 },
      { family: 'products', status: 'failed', n: 1 },
      { family: 'products', status: 'published', n: 0 },
      { family: 'products', status: 'queued', n: 0 },
    ]);
    const plan = (sql: string) =>
      (v13.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as { detail: string }[])
        .map((step) => step.detail)
        .join();
    expect(plan('SELECT status, n FROM status_counts WHERE family = ?')).toMatch(
      /SEARCH status_counts USING PRIMARY KEY/,
    );
    expect(plan('SELECT state, COUNT(*) FROM outbox WHERE group_id = ? GROUP BY state')).toMatch(
      /SEARCH outbox USING INDEX outbox_group/,
    );
    v13.close();
  });

  it('17 keeps each UUID once, indexes only the rows that have one, and finds rows by UUID with it', () => {
    const file = tempFile();
    const v16 = openWorkspaceDb(file, MIGRATIONS.slice(0, 16));
    const addProduct = (db: Database.Database, sku: string, uuid: string | null) =>
      db
        .prepare(
          `INSERT INTO products (sku, name, price_minor, currency, status, uuid, created_at, updated_at)
           VALUES (?, 'Rye', 450, 'EUR', 'draft', ?, 0, 0)`,
        )
        .run(sku, uuid);
    addProduct(v16, 'A', 'u-a');
    addProduct(v16, 'B', null);
    v16
      .prepare(
        "INSERT INTO posts (text, status, uuid, created_at, updated_at) VALUES ('Hi', 'draft', 'p-1', 0, 0)",
      )
      .run();
    v16.close();
    const v17 = openWorkspaceDb(file, MIGRATIONS.slice(0, 17));
    expect(v17.prepare('SELECT sku, uuid FROM products ORDER BY sku').all()).toEqual([
      { sku: 'A', uuid: 'u-a' },
      { sku: 'B', uuid: null },
    ]);
    addProduct(v17, 'C', null);
    expect(() => addProduct(v17, 'D', 'u-a')).toThrow(/UNIQUE constraint failed: products.uuid/);
    expect(() =>
      v17
        .prepare(
          "INSERT INTO posts (text, status, uuid, created_at, updated_at) VALUES ('Ho', 'draft', 'p-1', 0, 0)",
        )
        .run(),
    ).toThrow(/UNIQUE constraint failed: posts.uuid/);
    for (const table of ['products', 'posts']) {
      const index = v17
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?")
        .get(`${table}_uuid`) as { sql: string };
      expect(index.sql).toMatch(/WHERE uuid IS NOT NULL$/);
      for (const where of ['uuid = ?', 'uuid IN (SELECT value FROM json_each(?))']) {
        const plan = v17
          .prepare(`EXPLAIN QUERY PLAN SELECT id FROM ${table} WHERE ${where}`)
          .all('x') as { detail: string }[];
        expect(plan.map((step) => step.detail).join()).toMatch(`INDEX ${table}_uuid`);
      }
    }
    v17.close();
  });

  it('refuses a migration that would leave rows pointing at nothing, as a whole', () => {
    const file = tempFile();
    const current = openWorkspaceDb(file);
    current.exec(`
      INSERT INTO products (id, sku, name, price_minor, currency, status, created_at, updated_at)
        VALUES (1, 'S', 'S', 1, 'EUR', 'queued', 1, 1);
      INSERT INTO outbox (kind, product_id, payload, state, priority, due_at, ready_at, idempotency_key,
          created_at, updated_at) VALUES ('create_product', 1, '{}', 'queued', 1, 1, 1, 'k', 1, 1);
    `);
    current.close();
    const careless = [
      ...MIGRATIONS,
      { version: MIGRATIONS.length + 1, name: 'careless', sql: 'DELETE FROM products;' },
    ];
    expect(() => openWorkspaceDb(file, careless)).toThrow(/1 row\(s\) of outbox pointing at/);
    const db = openWorkspaceDb(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT COUNT(*) AS n FROM products').get()).toEqual({ n: 1 });
    db.close();
  });

  it('refuses a database newer than the code, leaving it untouched', () => {
    const file = tempFile();
    openWorkspaceDb(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openWorkspaceDb(file)).toThrow(/written by a newer Pressroom/);
    const again = new Database(file);
    expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    again.close();
  });

  it('refuses another program’s database, and the reference server’s', () => {
    const foreign = tempFile();
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)');
    other.close();
    expect(() => openWorkspaceDb(foreign)).toThrow(/not a Pressroom workspace database/);
    const referenceServerFile = tempFile();
    openReferenceServerDb(referenceServerFile).close();
    expect(() => openWorkspaceDb(referenceServerFile)).toThrow(
      /not a Pressroom workspace database/,
    );
  });

  it('rolls back a failing migration as a whole', () => {
    const file = tempFile();
    const broken = [
      ...MIGRATIONS,
      {
        version: MIGRATIONS.length + 1,
        name: 'broken',
        sql: 'CREATE TABLE extra (id INTEGER); SELECT nonsense FROM nowhere;',
      },
    ];
    expect(() => openWorkspaceDb(file, broken)).toThrow();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(
      db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'extra'").get(),
    ).toEqual({ n: 0 });
    db.close();
  });
});
