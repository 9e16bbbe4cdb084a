// Backups of a workspace database (Node, main process): a consistent copy with `VACUUM INTO`
// taken daily and before each migration, the last N kept; and at start-up, a damaged database is
// found and replaced by the newest backup that passes SQLite's own check.
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from './db';
import { createPrivateFolder, ensurePrivateFile } from '../sqlite/private-files';

export type BackupReason = 'daily' | 'migration';

export interface BackupOptions {
  /** The folder backups are written to. */
  dir: string;
  /** How many backups of each database to keep (default 7). */
  keep?: number;
  now?: () => number;
}

export type Recovery =
  | { state: 'ok' }
  | { state: 'restored'; from: string; damagedCopy: string; message: string }
  | { state: 'unrecoverable'; damagedCopy: string; message: string };

const DAY_MS = 24 * 60 * 60_000;
const SIDE_FILES = ['-wal', '-shm'];

/** workspace.sqlite → "workspace": backups of several databases share one folder. */
function stem(file: string): string {
  return basename(file).replace(/\.sqlite$/, '');
}

/** 2026-11-23T09:45:00.123Z → 20261123T094500123Z: sorts by time as text, valid in file names. */
function stamp(time: number): string {
  return new Date(time).toISOString().replace(/[-:.]/g, '');
}

const BACKUP_NAME = /^(.+)\.(\d{8}T\d{9}Z)\.(daily|migration)\.sqlite$/;

/** When a backup was taken, read from its name (file times change when files are copied). */
function takenAt(backup: string): number {
  const digits = BACKUP_NAME.exec(basename(backup))?.[2] ?? '';
  const [, y, mo, d, h, mi, s, ms] =
    /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(\d{3})Z$/.exec(digits) ?? [];
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
}

/** This database's backups, newest first. */
export function listBackups(file: string, dir: string): string[] {
  if (!existsSync(dir)) return [];
  const backups: { path: string; stamp: string }[] = [];
  for (const name of readdirSync(dir)) {
    const [, of, stamp] = BACKUP_NAME.exec(name) ?? [];
    if (of === stem(file) && stamp) backups.push({ path: join(dir, name), stamp });
  }
  return backups.sort((a, b) => (a.stamp < b.stamp ? 1 : -1)).map(({ path }) => path);
}

/** Copies the database into the backup folder (a snapshot even while it is open), then prunes. */
export function backupDatabase(file: string, reason: BackupReason, options: BackupOptions): string {
  const { dir, keep = 7, now = Date.now } = options;
  createPrivateFolder(dir);
  const target = join(dir, `${stem(file)}.${stamp(now())}.${reason}.sqlite`);
  // VACUUM INTO writes into an empty file, keeping its owner-only mode.
  ensurePrivateFile(target);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  for (const old of listBackups(file, dir).slice(Math.max(1, keep))) rmSync(old, { force: true });
  return target;
}

/** A backup when the newest is a day old or there is none; null when none was due. */
export function backupDaily(file: string, options: BackupOptions): string | null {
  if (!existsSync(file)) return null;
  const now = options.now ?? Date.now;
  const [newest] = listBackups(file, options.dir);
  if (newest && now() - takenAt(newest) < DAY_MS) return null;
  return backupDatabase(file, 'daily', options);
}

/** A backup when opening the file will migrate it (an older schema with data); else null. */
export function backupBeforeMigration(
  file: string,
  options: BackupOptions,
  schemaVersion = SCHEMA_VERSION,
): string | null {
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  let version: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
  return version > 0 && version < schemaVersion ? backupDatabase(file, 'migration', options) : null;
}

/** SQLite's quick_check of the file: null when sound, else what is wrong. */
function databaseProblem(file: string): string | null {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const result = db.pragma('quick_check', { simple: true }) as string;
      return result === 'ok' ? null : result;
    } finally {
      db.close();
    }
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Marks every outbox item of a restored backup that is not done as of unknown outcome: it may
 * have gone out after the backup was taken, so it is looked up on the platform before sending.
 */
function distrustWaitingItems(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    const hasOutbox = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'outbox'").get();
    if (hasOutbox) db.prepare("UPDATE outbox SET outcome_unknown = 1 WHERE state != 'done'").run();
  } finally {
    db.close();
  }
}

/**
 * Checks the database at start-up. A damaged one is moved aside (kept, for the curious or a data
 * recovery tool) and the newest sound backup takes its place; the message says what was lost.
 */
export function recoverIfDamaged(file: string, options: BackupOptions): Recovery {
  if (!existsSync(file)) return { state: 'ok' };
  const problem = databaseProblem(file);
  if (problem === null) return { state: 'ok' };
  const damagedCopy = `${file}.damaged-${stamp((options.now ?? Date.now)())}`;
  renameSync(file, damagedCopy);
  // The WAL belongs to the damaged file; replaying it onto a backup would corrupt the backup.
  for (const suffix of SIDE_FILES)
    if (existsSync(file + suffix)) renameSync(file + suffix, damagedCopy + suffix);
  const from = listBackups(file, options.dir).find((backup) => databaseProblem(backup) === null);
  if (!from)
    return {
      state: 'unrecoverable',
      damagedCopy,
      message: `The database ${file} is damaged (${problem}) and there is no sound backup of it. It was moved to ${damagedCopy}; Pressroom starts with an empty one.`,
    };
  copyFileSync(from, file);
  ensurePrivateFile(file);
  distrustWaitingItems(file);
  const taken = new Date(takenAt(from)).toLocaleString();
  return {
    state: 'restored',
    from,
    damagedCopy,
    message: `The database ${file} was damaged (${problem}). It was restored from the backup of ${taken}; changes made after that backup are lost. The damaged file was kept as ${damagedCopy}.`,
  };
}
