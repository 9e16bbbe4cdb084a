// Opening a SQLite file with numbered migrations (Node, main process), shared by Pressroom's
// workspace store and the reference server. Migrations run in one transaction, tracked in
// PRAGMA user_version, with foreign keys off as SQLite's table-rebuild procedure requires (a
// rebuilt table's DROP would otherwise delete or null the rows that refer to it) and checked
// before the commit; a file newer than the code, or one made by another program (told by
// PRAGMA application_id), is refused rather than touched.
import Database from 'better-sqlite3';
import { ensurePrivateDatabase } from './private-files';

export interface MigratedDbOptions {
  /** Marks files of this kind; a file with another id, or tables but no id, is refused. */
  applicationId: number;
  /** What the file is, for error messages: "a Pressroom workspace database". */
  kindName: string;
  /** SQL of each version, in order; entry N brings a file from version N to N + 1. */
  migrations: readonly string[];
  /** FULL makes every commit durable before it returns; NORMAL is faster. */
  synchronous: 'FULL' | 'NORMAL';
}

export class DatabaseRefused extends Error {}

const BUSY_TIMEOUT_MS = 5000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Switches the file to WAL. On a new file, still in rollback-journal mode, the switch needs an
 * exclusive lock, and SQLite answers busy at once instead of waiting when another process
 * opening the same file holds a shared lock (waiting could deadlock); so it is tried again after
 * a short, jittered pause, until the busy timeout.
 */
function enterWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 5 + Math.random() * 20);
    }
  }
}

export function openMigratedDb(file: string, options: MigratedDbOptions): Database.Database {
  ensurePrivateDatabase(file);
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    enterWal(db);
    db.pragma(`synchronous = ${options.synchronous}`);
    // Outside a transaction: SQLite ignores this pragma inside one.
    db.pragma('foreign_keys = OFF');
    migrate(db, file, options);
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The file's schema version, once it is known to be this kind's and not newer than the code.
 * Called inside a transaction, so that its three reads see one state of the file: read one by
 * one, they could straddle another process's migration and find its tables but not yet its id.
 */
function checkedVersion(db: Database.Database, file: string, options: MigratedDbOptions): number {
  const { applicationId, migrations } = options;
  const foundId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const hasTables =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").get() !== undefined;
  if (foundId !== applicationId && (foundId !== 0 || hasTables)) {
    throw new DatabaseRefused(`${file} is not ${options.kindName}; give it a file of its own`);
  }
  if (version > migrations.length) {
    throw new DatabaseRefused(
      `${file} was written by a newer Pressroom (schema ${version}; this one knows ${migrations.length}); update Pressroom to open it`,
    );
  }
  return version;
}

function migrate(db: Database.Database, file: string, options: MigratedDbOptions): void {
  const { applicationId, migrations } = options;
  const version = db.transaction(() => checkedVersion(db, file, options))();
  if (version === migrations.length) return;
  db.transaction(() => {
    // Checked again under the write lock: another process opening the file may have migrated it.
    const current = checkedVersion(db, file, options);
    for (const sql of migrations.slice(current)) db.exec(sql);
    const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[];
    if (broken.length > 0) {
      const [first] = broken;
      throw new Error(
        `Migrating ${file} would leave ${broken.length} row(s) of ${first?.table} pointing at missing ${first?.parent} rows`,
      );
    }
    db.pragma(`user_version = ${migrations.length}`);
    db.pragma(`application_id = ${applicationId}`);
  }).immediate();
}
