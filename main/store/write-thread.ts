// A long job's bulk writes on a connection of their own, on a worker thread (Node, main process).
// An import's inserts were most of its time on the thread that answers the app (#32): there, the
// file's reading and checking and SQLite's writing took turns. Here the main thread reads and
// checks the next rows while the worker writes the last ones: two cores, the same work. The
// steps are plain SQL with their values, built by the store's modules (one owner per table):
// the worker knows no table. A database in memory has no second connection: its steps run on
// the main thread, through the same function.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { durableLater } from './db';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

/** One statement of a transaction. */
export interface WriteStep {
  sql: string;
  /** Positional values, then an object of named ones, as better-sqlite3's `run` takes them. */
  args: unknown[];
  /** Reads one row instead of writing: the step's result is the row, or null. */
  get?: boolean;
  /** The rows the transaction's earlier steps changed go in as one more positional value. */
  withChanges?: boolean;
}

/** A run step's rows changed, or a get step's row. */
export type WriteStepResult = number | Record<string, unknown> | null;

export interface WriteSteps {
  /** Which thread runs the transactions. */
  readonly where: 'worker' | 'here';
  /** Runs `steps` in one transaction (write lock taken at its start) whose commit does not wait
   * for the disk (see durableLater); resolves with each step's result and the time it held the
   * lock, or rejects with SQLite's error, nothing of the steps written. */
  run(steps: readonly WriteStep[]): Promise<{ results: WriteStepResult[]; ms: number }>;
  /** Ends the worker once its last transaction is done; a step sent after is refused. */
  close(): Promise<void>;
}

interface Prepared {
  run(...args: unknown[]): { changes: number };
  get(...args: unknown[]): unknown;
}

/**
 * Runs the steps in order with `prepare`'s statements. It is sent to the worker as its source
 * text, so it names nothing outside itself and declares no function inside (a compiler keeping
 * names would wrap one in a helper the worker lacks).
 */
function runWriteSteps(
  prepare: (sql: string) => Prepared,
  steps: readonly WriteStep[],
): WriteStepResult[] {
  const results: WriteStepResult[] = [];
  let changes = 0;
  for (const step of steps) {
    const args = step.withChanges ? [...step.args, changes] : step.args;
    const prepared = prepare(step.sql);
    if (step.get) {
      results.push((prepared.get(...args) as Record<string, unknown> | undefined) ?? null);
    } else {
      const changed = prepared.run(...args).changes;
      changes += changed;
      results.push(changed);
    }
  }
  return results;
}

/**
 * The worker, as a CommonJS script (as ./checkpoints.ts's: a file of its own would need a build
 * step of its own for tsx, Vitest and the bundles alike). Its connection is configured as the
 * main one is for a long job: a commit that does not wait for the disk (the job's last commit,
 * on the main connection, waits for it and so makes these durable too), foreign keys checked,
 * no checkpoint of its own (the checkpoint worker copies the log; the job asks `room()`).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('wal_autocheckpoint = 0');
const statements = new Map();
const prepare = (sql) => {
  let prepared = statements.get(sql);
  if (!prepared) statements.set(sql, (prepared = db.prepare(sql)));
  return prepared;
};
const runWriteSteps = ${runWriteSteps.toString()};
const transaction = db.transaction((steps) => runWriteSteps(prepare, steps));
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  const started = performance.now();
  try {
    const results = transaction.immediate(message);
    parentPort.postMessage({ results, ms: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface WorkerAnswer {
  results?: WriteStepResult[];
  ms?: number;
  error?: string;
}

/** The steps on a worker thread with its own connection to the database's file. */
class WorkerWriteSteps implements WriteSteps {
  readonly where = 'worker';
  private readonly worker: Worker;
  /** Answers come in the order the transactions were sent. */
  private readonly waiting: {
    resolve: (answer: WorkerAnswer) => void;
    reject: (error: Error) => void;
  }[] = [];
  private ended: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(file: string) {
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, sqlite } });
    this.worker.on('message', (answer: WorkerAnswer) => this.waiting.shift()?.resolve(answer));
    this.worker.on('error', (error) => this.end(error));
    this.exited = new Promise((resolve) =>
      this.worker.on('exit', () => {
        this.end(new Error('The write thread ended'));
        resolve();
      }),
    );
  }

  async run(steps: readonly WriteStep[]): Promise<{ results: WriteStepResult[]; ms: number }> {
    if (this.ended) throw this.ended;
    const answer = await new Promise<WorkerAnswer>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(steps);
    });
    if (answer.error !== undefined || !answer.results) throw new Error(answer.error);
    return { results: answer.results, ms: answer.ms ?? 0 };
  }

  async close(): Promise<void> {
    if (!this.ended) this.worker.postMessage('close');
    await this.exited;
  }

  /** Whatever ended the worker (a failed open, a crash) refuses every transaction still waiting:
   * each was rolled back with the worker's connection, or never began. */
  private end(error: Error): void {
    this.ended ??= error;
    for (const { reject } of this.waiting.splice(0)) reject(this.ended);
  }
}

/** Runs `steps` in one transaction on this thread's connection (a savepoint inside one). */
export function runStepsHere(db: WorkspaceDb, steps: readonly WriteStep[]): WriteStepResult[] {
  const prepare = (sql: string) => statement(db, sql) as unknown as Prepared;
  return db.transaction(() => runWriteSteps(prepare, steps)).immediate();
}

/** The steps on the main thread's own connection: for a database in memory. */
class SameThreadWriteSteps implements WriteSteps {
  readonly where = 'here';
  constructor(private readonly db: WorkspaceDb) {}

  run(steps: readonly WriteStep[]): Promise<{ results: WriteStepResult[]; ms: number }> {
    const started = performance.now();
    try {
      const results = durableLater(this.db, () => runStepsHere(this.db, steps));
      return Promise.resolve({ results, ms: performance.now() - started });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Bulk writes for one job: on a worker thread for a database in a file, unless `thread` is false
 * (a job too small to pay for a thread's start), else on this thread.
 */
export function openWriteSteps(db: WorkspaceDb, thread = true): WriteSteps {
  return db.memory || !thread ? new SameThreadWriteSteps(db) : new WorkerWriteSteps(db.name);
}
