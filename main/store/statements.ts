// Prepared statements, prepared once per SQL text (Node, main process): preparing costs more than
// running, and an import runs the same few statements a million times. The cache is bounded, the
// least recently used going first: SQL text is written in the store, never from an input's length
// (lists go in as one json_each parameter), yet a bug that built texts must not grow memory forever.
import type { Statement } from 'better-sqlite3';
import type { WorkspaceDb } from './db';

/** Far more than the store's distinct statements (a few hundred), so a normal run never evicts. */
export const MAX_STATEMENTS = 1000;

const caches = new WeakMap<WorkspaceDb, Map<string, Statement>>();

export function statement(db: WorkspaceDb, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (prepared) {
    // A Map keeps insertion order: moved to the end, it is the most recently used.
    cache.delete(sql);
  } else {
    prepared = db.prepare(sql);
    if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
  }
  cache.set(sql, prepared);
  return prepared;
}

/**
 * `column IN ('a', 'b')` over one of shared/'s status sets, so the SQL says the same rule as the
 * constant. Only for those constants: never for input, which goes in as a parameter.
 */
export function inSet(column: string, values: readonly string[]): string {
  if (values.length === 0 || values.some((value) => !/^[a-z_]+$/.test(value)))
    throw new Error(`inSet takes a constant set of plain names, not ${JSON.stringify(values)}`);
  return `${column} IN (${values.map((value) => `'${value}'`).join(', ')})`;
}

/** How many statements are kept for `db` (for tests of the bound). */
export function cachedStatements(db: WorkspaceDb): number {
  return caches.get(db)?.size ?? 0;
}
