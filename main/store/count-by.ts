// Counting rows by a status column, with every known status present (zero when none).
import type { WorkspaceDb } from './db';
import { statement } from './statements';

function withEveryKey<K extends string>(
  keys: readonly K[],
  rows: { key: K; n: number }[],
): Record<K, number> {
  const counts = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
  for (const row of rows) counts[row.key] = row.n;
  return counts;
}

/** Counts by reading the rows that pass `filter`: as costly as the rows are many. */
export function countBy<K extends string>(
  db: WorkspaceDb,
  table: string,
  column: string,
  keys: readonly K[],
  filter: { sql: string; params: unknown[] },
): Record<K, number> {
  const rows = statement(
    db,
    `SELECT ${column} AS key, COUNT(*) AS n FROM ${table} WHERE ${filter.sql} GROUP BY ${column}`,
  ).all(...filter.params) as { key: K; n: number }[];
  return withEveryKey(keys, rows);
}

/**
 * A whole table's rows by status, as the triggers of migration 13 keep them in `status_counts`
 * (this module is that table's one reader): one short read, however many rows the table holds.
 */
export function keptCounts<K extends string>(
  db: WorkspaceDb,
  family: 'posts' | 'products' | 'outbox',
  keys: readonly K[],
): Record<K, number> {
  const rows = statement(db, 'SELECT status AS key, n FROM status_counts WHERE family = ?').all(
    family,
  ) as { key: K; n: number }[];
  return withEveryKey(keys, rows);
}
