// Backups of the workspace database: VACUUM INTO snapshots daily and before a migration, the last
// N kept, and a damaged database restored from the newest sound backup at start-up.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  backupBeforeMigration,
  backupDaily,
  backupDatabase,
  listBackups,
  recoverIfDamaged,
} from '../../main/store/backup';
import { openWorkspaceDb } from '../../main/store/db';
import { MIGRATIONS } from '../../main/store/migrations';

const HOUR = 60 * 60_000;

function workspace(rows: string[] = ['first']) {
  const folder = mkdtempSync(join(tmpdir(), 'pressroom-backup-'));
  const file = join(folder, 'workspace.sqlite');
  const db = openWorkspaceDb(file);
  for (const [index, value] of rows.entries())
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(`row${index}`, value);
  return { folder, file, db, dir: join(folder, 'backups') };
}

function settingsOf(file: string): string[] {
  const db = openWorkspaceDb(file);
  try {
    return (db.prepare('SELECT value FROM settings ORDER BY key').all() as { value: string }[]).map(
      (row) => row.value,
    );
  } finally {
    db.close();
  }
}

describe('database backups', () => {
  it('snapshot an open database, including commits still in its WAL', () => {
    const { file, db, dir } = workspace(['kept']);
    const backup = backupDatabase(file, 'daily', { dir });
    db.close();
    expect(backup).toMatch(/workspace\.\d{8}T\d{9}Z\.daily\.sqlite$/);
    expect(settingsOf(backup)).toEqual(['kept']);
  });

  it('keep only the newest N of each database', () => {
    const { file, db, dir } = workspace();
    let time = Date.parse('2026-01-01T00:00:00Z');
    const taken = [1, 2, 3, 4, 5].map(() =>
      backupDatabase(file, 'daily', { dir, keep: 3, now: () => (time += HOUR) }),
    );
    db.close();
    expect(listBackups(file, dir)).toEqual(taken.slice(2).reverse());
    expect(listBackups(join(dir, '..', 'demo-workspace.sqlite'), dir)).toEqual([]);
  });

  it('are taken daily: not again within a day, again after one', () => {
    const { file, db, dir } = workspace();
    let time = Date.parse('2026-01-01T00:00:00Z');
    const now = () => time;
    expect(backupDaily(file, { dir, now })).not.toBeNull();
    time += 23 * HOUR;
    expect(backupDaily(file, { dir, now })).toBeNull();
    time += 2 * HOUR;
    expect(backupDaily(file, { dir, now })).not.toBeNull();
    expect(listBackups(file, dir)).toHaveLength(2);
    expect(backupDaily(join(dir, 'missing.sqlite'), { dir, now })).toBeNull();
    db.close();
  });

  it('are taken before a migration, and only then', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-backup-'));
    const file = join(folder, 'workspace.sqlite');
    const dir = join(folder, 'backups');
    const old = openWorkspaceDb(file, MIGRATIONS.slice(0, 1));
    old.prepare("INSERT INTO settings (key, value) VALUES ('a', 'from version 1')").run();
    old.close();
    const backup = backupBeforeMigration(file, { dir }, 2);
    expect(backup).toMatch(/\.migration\.sqlite$/);
    expect(settingsOf(file)).toEqual(['from version 1']); // opening it migrates the original
    // Up to date, or not there yet: nothing to save.
    expect(backupBeforeMigration(file, { dir })).toBeNull();
    expect(backupBeforeMigration(join(folder, 'new.sqlite'), { dir })).toBeNull();
    expect(listBackups(file, dir)).toEqual([backup]);
  });
});

describe('start-up check', () => {
  it('leaves a sound database alone', () => {
    const { file, db, dir } = workspace();
    db.close();
    expect(recoverIfDamaged(file, { dir })).toEqual({ state: 'ok' });
    expect(recoverIfDamaged(join(dir, 'not-yet.sqlite'), { dir })).toEqual({ state: 'ok' });
  });

  it('restores a damaged database from the newest sound backup and says what was lost', () => {
    const { file, db, dir } = workspace(['old']);
    let time = Date.parse('2026-01-01T00:00:00Z');
    const now = () => (time += HOUR);
    const older = backupDatabase(file, 'daily', { dir, now });
    db.prepare("UPDATE settings SET value = 'newer'").run();
    backupDatabase(file, 'daily', { dir, now });
    db.close();
    // The newest backup is damaged too: the one before it is used.
    writeFileSync(listBackups(file, dir)[0]!, Buffer.alloc(4096, 1));
    writeFileSync(file, Buffer.alloc(8192, 7));

    const recovery = recoverIfDamaged(file, { dir, now });
    expect(recovery).toMatchObject({ state: 'restored', from: older });
    if (recovery.state !== 'restored') throw new Error('not restored');
    expect(recovery.message).toMatch(/was damaged \(file is not a database\)/);
    expect(recovery.message).toMatch(/changes made after that backup are lost/);
    expect(readFileSync(recovery.damagedCopy)).toEqual(Buffer.alloc(8192, 7));
    expect(settingsOf(file)).toEqual(['old']);
  });

  it('restores a backup whose waiting items are all looked up before anything is sent again', () => {
    const { file, db, dir } = workspace();
    const insert = db.prepare(
      `INSERT INTO outbox (kind, payload, state, priority, due_at, ready_at, idempotency_key,
         created_at, updated_at) VALUES ('create_bot', '{}', ?, 1, 1, 1, ?, 1, 1)`,
    );
    for (const state of ['queued', 'retrying', 'failed', 'cancelled', 'done'])
      insert.run(state, state);
    backupDatabase(file, 'daily', { dir });
    db.close();
    writeFileSync(file, Buffer.alloc(8192, 7));
    expect(recoverIfDamaged(file, { dir }).state).toBe('restored');
    const restored = openWorkspaceDb(file);
    // What the backup shows waiting may have gone out after it was taken.
    expect(
      restored.prepare('SELECT idempotency_key, outcome_unknown FROM outbox ORDER BY id').all(),
    ).toEqual([
      { idempotency_key: 'queued', outcome_unknown: 1 },
      { idempotency_key: 'retrying', outcome_unknown: 1 },
      { idempotency_key: 'failed', outcome_unknown: 1 },
      { idempotency_key: 'cancelled', outcome_unknown: 1 },
      { idempotency_key: 'done', outcome_unknown: 0 },
    ]);
    restored.close();
  });

  it('moves a damaged database aside when no backup is sound', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-backup-'));
    const file = join(folder, 'workspace.sqlite');
    writeFileSync(file, 'not a database at all, but long enough to have a header'.repeat(100));
    const recovery = recoverIfDamaged(file, { dir: join(folder, 'backups') });
    expect(recovery.state).toBe('unrecoverable');
    expect(recovery.state !== 'ok' && recovery.message).toMatch(/no sound backup/);
    expect(existsSync(file)).toBe(false);
    expect(recovery.state !== 'ok' && existsSync(recovery.damagedCopy)).toBe(true);
  });
});
