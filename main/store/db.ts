// Opens Pressroom's workspace database (Node, main process): one SQLite file per workspace.
import type Database from 'better-sqlite3';
import { openMigratedDb } from '../sqlite/open';
import { MIGRATIONS } from './migrations';

export type WorkspaceDb = Database.Database;

export const SCHEMA_VERSION = MIGRATIONS.length;

export function openWorkspaceDb(file = ':memory:', migrations = MIGRATIONS): WorkspaceDb {
  return openMigratedDb(file, {
    applicationId: 0x50525357, // "PRSW"
    kindName: 'a Pressroom workspace database',
    migrations: migrations.map((migration) => migration.sql),
    // A commit is on disk before the call returns, so an outbox item marked `sending` is durable
    // before its request leaves.
    synchronous: 'FULL',
  });
}

/**
 * Runs `transaction` (one transaction, begun and committed inside) with a commit that does not
 * wait for the disk (synchronous = NORMAL for it alone), for a long job's many short writes (an
 * import's, a sync's): the write-ahead log is appended in order, so the next commit that waits
 * for the disk (the job's last, or any other) makes this one durable too. A crash before then
 * loses only what the job redoes or takes back itself.
 */
export function durableLater<T>(db: WorkspaceDb, transaction: () => T): T {
  const synchronous = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = NORMAL');
  try {
    return transaction();
  } finally {
    db.pragma(`synchronous = ${synchronous}`);
  }
}
