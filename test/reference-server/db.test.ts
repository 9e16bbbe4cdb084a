// Migrations of the reference server's database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  REFERENCE_SERVER_MIGRATIONS,
  REFERENCE_SERVER_SCHEMA_VERSION,
  openReferenceServerDb,
} from '../../main/reference-server/db';
import { startPlatformServer } from '../../main/reference-server/server';

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'pressroom-emu-')), name);

describe('reference server database', () => {
  it('migrates an empty database to the current version, in WAL mode with foreign keys', () => {
    const file = tempFile('platform.sqlite');
    const db = openReferenceServerDb(file);
    expect(db.pragma('user_version', { simple: true })).toBe(REFERENCE_SERVER_SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
    // Opening again applies nothing twice.
    openReferenceServerDb(file).close();
  });

  it('2 keeps every amount’s value as minor digits change from ICU’s to ISO 4217’s', () => {
    const file = tempFile('money.sqlite');
    const v1 = openReferenceServerDb(file, REFERENCE_SERVER_MIGRATIONS.slice(0, 1));
    v1.exec(`
      INSERT INTO accounts (id, name, plan, created_at) VALUES (1, 'Shop', 'free', 1);
      INSERT INTO products (id, account_id, sku, name, price_minor, currency, created_at, updated_at)
        VALUES (1, 1, 'A', 'Lángos', 1299, 'HUF', 1, 1), (2, 1, 'B', 'Loaf', 350, 'EUR', 1, 1);
      INSERT INTO orders (id, account_id, number, status, currency, total_minor, created_at)
        VALUES (1, 1, '1001', 'paid', 'HUF', 2598, 1), (2, 1, '1002', 'paid', 'EUR', 700, 1);
      INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price_minor)
        VALUES (1, 0, 'A', 'Lángos', 2, 1299), (2, 0, 'B', 'Loaf', 2, 350);
    `);
    v1.close();
    const v2 = openReferenceServerDb(file, REFERENCE_SERVER_MIGRATIONS.slice(0, 2));
    expect(v2.prepare('SELECT price_minor FROM products ORDER BY id').pluck().all()).toEqual([
      129_900, 350,
    ]);
    expect(v2.prepare('SELECT total_minor FROM orders ORDER BY id').pluck().all()).toEqual([
      259_800, 700,
    ]);
    expect(
      v2.prepare('SELECT unit_price_minor FROM order_items ORDER BY order_id').pluck().all(),
    ).toEqual([129_900, 350]);
    v2.close();
  });

  it('refuses a database newer than the code, and a file that is not its own', () => {
    const newer = tempFile('newer.sqlite');
    openReferenceServerDb(newer).close();
    const raw = new Database(newer);
    raw.pragma(`user_version = ${REFERENCE_SERVER_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openReferenceServerDb(newer)).toThrow(/written by a newer Pressroom/);

    const foreign = tempFile('workspace.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE posts (id INTEGER PRIMARY KEY)');
    other.close();
    expect(() => openReferenceServerDb(foreign)).toThrow(/not a reference-server database/);
  });

  it('keeps data across restarts and mints a fresh working token each start', async () => {
    const file = tempFile('persist.sqlite');
    const first = await startPlatformServer({ dbFile: file, seed: 'demo' });
    const firstToken = first.token;
    await first.close();
    const second = await startPlatformServer({ dbFile: file, seed: 'demo' });
    try {
      expect(second.token).not.toBe(firstToken);
      for (const token of [firstToken, second.token]) {
        const response = await fetch(`${second.baseUrl}/bots`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const body = (await response.json()) as { meta: { total: number } };
        expect(body.meta.total).toBe(3);
      }
    } finally {
      await second.close();
    }
  });
});
