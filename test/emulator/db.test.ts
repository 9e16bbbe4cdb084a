// Migrations of the reference server's database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { EMULATOR_SCHEMA_VERSION, openEmulatorDb } from '../../main/emulator/db';
import { startPlatformServer } from '../../main/emulator/server';

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'pressroom-emu-')), name);

describe('reference server database', () => {
  it('migrates an empty database to the current version, in WAL mode with foreign keys', () => {
    const file = tempFile('platform.sqlite');
    const db = openEmulatorDb(file);
    expect(db.pragma('user_version', { simple: true })).toBe(EMULATOR_SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
    // Opening again applies nothing twice.
    openEmulatorDb(file).close();
  });

  it('refuses a database newer than the code, and a file that is not its own', () => {
    const newer = tempFile('newer.sqlite');
    openEmulatorDb(newer).close();
    const raw = new Database(newer);
    raw.pragma(`user_version = ${EMULATOR_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openEmulatorDb(newer)).toThrow(/written by a newer Pressroom/);

    const foreign = tempFile('workspace.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE posts (id INTEGER PRIMARY KEY)');
    other.close();
    expect(() => openEmulatorDb(foreign)).toThrow(/not a reference-server database/);
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
