// Counting rows by a status column, with every known status present (zero when none).
import type { WorkspaceDb } from './db';
import { statement } from './statements';

export function countBy<K extends string>(
  db: WorkspaceDb,
  table: string,
  column: string,
  keys: readonly K[],
  filter: { sql: string; params: unknown[] } = { sql: '1', params: [] },
): Record<K, number> {
  const rows = statement(
    db,
    `SELECT ${column} AS key, COUNT(*) AS n FROM ${table} WHERE ${filter.sql} GROUP BY ${column}`,
  ).all(...filter.params) as { key: K; n: number }[];
  const counts = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
  for (const row of rows) counts[row.key] = row.n;
  return counts;
}
