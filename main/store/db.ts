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
