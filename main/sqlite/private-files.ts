// Files that hold a user's workspace (Node, main process): drafts, orders and subscribers are for
// their owner alone, so folders are made 0700 and databases, backups and exports 0600, whatever
// the umask. On Windows these modes do nothing; the data folder sits in the user's profile
// (%APPDATA%), which Windows already keeps from other users.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parents, owner-only; a folder that exists is left as it is. */
export function createPrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/** Pressroom's own data folder: created owner-only, and tightened if an older version made it 0755. */
export function ensurePrivateFolder(dir: string): void {
  createPrivateFolder(dir);
  chmodSync(dir, PRIVATE_FOLDER_MODE);
}

/** Makes `file` owner-only, creating it empty if missing (SQLite takes an empty file as new). */
export function ensurePrivateFile(file: string): void {
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
  else closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
}

/**
 * A database file and its WAL side files, owner-only before SQLite opens it (SQLite gives the
 * side files it creates the database's mode). ':memory:' and '' (temporary) are left alone.
 */
export function ensurePrivateDatabase(file: string): void {
  if (file === ':memory:' || file === '' || file.startsWith('file:')) return;
  ensurePrivateFile(file);
  for (const side of [`${file}-wal`, `${file}-shm`]) tightenIfPresent(side);
}

/**
 * Makes a WAL side file owner-only if it is there. Another process closing the database last
 * deletes them at any moment, so one seen a moment ago may be gone: nothing to do then.
 */
function tightenIfPresent(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
