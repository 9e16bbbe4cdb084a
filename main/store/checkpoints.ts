// The workspace's write-ahead log checkpoints, on a thread of their own (Node, main process).
// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on the thread
// that committed: it copies the log into the database file and waits for the disk, tens of
// milliseconds during which the main thread answers nothing. Here a worker thread with its own
// connection runs PASSIVE checkpoints, which never wait for or block a reader or a writer,
// whenever the database changed since its last look. The log starts over only when a write
// begins with all of it copied, which a long job writing every few milliseconds rarely leaves
// room for: so such a job asks `room()` between its transactions, which waits (without holding
// the event loop) for one checkpoint of everything when the log has passed WAL_LIMIT_PAGES.
// The log file keeps the size it reached (at most about that), as with SQLite's own checkpoints:
// cutting it back (journal_size_limit) is a truncate on the committing thread, 20-30 ms here.
// Other writes are a user's few rows: the worker copies them within LOOK_EVERY_MS and the next
// write starts the log over. Should the worker fail, SQLite's own checkpoint comes back.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { loopTurn } from '../../shared/slices';
import type { WorkspaceDb } from './db';

/** A long job's next write waits for a checkpoint once the log holds this many pages (16 MiB). */
export const WAL_LIMIT_PAGES = 4_096;
/** SQLite's own automatic checkpoint (its default), back on if the worker fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;
/** How often the worker looks for changes. */
const LOOK_EVERY_MS = 100;
/** The longest `close` waits for the worker to close its connection. */
const CLOSE_WAIT_MS = 2_000;

// The worker's state, in a shared Int32Array (0 while it starts): `close` waits on it without a
// turn of the event loop.
const OPEN = 1;
const CLOSED = 2;

/**
 * The worker, as a CommonJS script: a file of its own would need a build step of its own for
 * tsx, Vitest and the bundles alike. It loads better-sqlite3 from the path the main thread found.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { file, sqlite, state, everyMs } = workerData;
const flag = new Int32Array(state);
const done = () => { Atomics.store(flag, 0, ${CLOSED}); Atomics.notify(flag, 0); };
let db;
try {
  const Database = require(sqlite);
  db = new Database(file, { fileMustExist: true });
  Atomics.store(flag, 0, ${OPEN});
} catch (error) {
  done();
  throw error;
}
let seen = -1;
const checkpoint = () => {
  seen = db.pragma('data_version', { simple: true });
  return db.pragma('wal_checkpoint(PASSIVE)')[0];
};
const timer = setInterval(() => {
  if (db.pragma('data_version', { simple: true }) !== seen) parentPort.postMessage(checkpoint());
}, everyMs);
parentPort.on('message', (message) => {
  if (message === 'look') parentPort.postMessage(checkpoint());
  if (message === 'checkpoint') parentPort.postMessage({ ...checkpoint(), asked: true });
  if (message !== 'close') return;
  clearInterval(timer);
  try { db.close(); } finally { done(); parentPort.close(); }
});
`;

/** What `PRAGMA wal_checkpoint` answers, and whether a job asked for it. */
interface CheckpointReport {
  busy: number;
  log: number;
  checkpointed: number;
  asked?: true;
}

export class WalCheckpoints {
  private readonly worker: Worker;
  private readonly state = new Int32Array(new SharedArrayBuffer(4));
  private gone = false;
  /** Pages in the log since it last started over, as of the worker's latest checkpoint. */
  private logPages = 0;
  /** Jobs waiting for the checkpoint they asked for; any answer (or the worker's end) frees all. */
  private waiting: (() => void)[] = [];
  /** A job's look asked for and not yet answered: one at a time, however often it asks. */
  private looking = false;

  /**
   * Starts checkpointing the log of `db`, open on `file`, from a worker thread; null for a
   * database in memory, which has no log.
   */
  static start(db: WorkspaceDb, file: string, everyMs = LOOK_EVERY_MS): WalCheckpoints | null {
    if (db.memory) return null;
    // Not in a commit on this thread: a checkpoint crossing it there could wait on the disk.
    db.pragma('wal_autocheckpoint = 0');
    return new WalCheckpoints(db, file, everyMs);
  }

  private constructor(
    private readonly db: WorkspaceDb,
    file: string,
    everyMs: number,
  ) {
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, sqlite, state: this.state.buffer, everyMs },
    });
    // Never what keeps a process alive.
    this.worker.unref();
    this.worker.on('message', (report: CheckpointReport) => this.heard(report));
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /**
   * Resolves at the next turn of the event loop, unless the log has passed WAL_LIMIT_PAGES: then
   * once the worker has copied all of it, so the caller's next write starts the log over.
   */
  async room(): Promise<void> {
    if (this.gone) return loopTurn(setImmediate);
    if (this.logPages < WAL_LIMIT_PAGES) {
      // A look asked for now, not waited for, answers before the job's next `room()` unless the
      // worker is far behind: the worker's own looks, every LOOK_EVERY_MS, let a fast machine
      // write tens of megabytes past the limit between two of them.
      if (!this.looking) {
        this.looking = true;
        this.worker.postMessage('look');
      }
      return loopTurn(setImmediate);
    }
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.worker.postMessage('checkpoint');
    });
  }

  /**
   * Closes the worker's connection before the caller closes its own, so the last connection,
   * which copies what is left and removes the log, is the main thread's, as without a worker.
   */
  close(): void {
    if (this.gone) return;
    this.worker.postMessage('close');
    // Still opening: it closes once it has, and nothing here needs to wait for that.
    if (Atomics.load(this.state, 0) === OPEN) Atomics.wait(this.state, 0, OPEN, CLOSE_WAIT_MS);
    this.end();
  }

  private heard(report: CheckpointReport): void {
    if (!report.asked) this.looking = false;
    // All of it copied for a job that waits: its next write starts the log over. Not so for the
    // worker's own looks: by then a job writing without a pause has already written more.
    const whole = report.busy === 0 && report.checkpointed === report.log;
    this.logPages = report.asked && whole ? 0 : report.log;
    if (report.asked) this.release();
  }

  private end(): void {
    this.gone = true;
    this.release();
  }

  /** The worker ended unasked (it could not open the file, or failed): SQLite checkpoints again. */
  private fail(): void {
    if (this.gone) return;
    this.end();
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  }

  private release(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
