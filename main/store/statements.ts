// Prepared statements, prepared once per SQL text (Node, main process): preparing costs more than
// running, and an import runs the same few statements a million times.
import type { Statement } from 'better-sqlite3';
import type { WorkspaceDb } from './db';

const caches = new WeakMap<WorkspaceDb, Map<string, Statement>>();

export function statement(db: WorkspaceDb, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}
