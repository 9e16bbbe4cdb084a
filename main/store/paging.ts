// Windows of long lists for the UI's grids and tables (Node, main process): a filtered, sorted
// page plus the total, and substring search with the user's text taken literally.
import type { Page } from '../../shared/domain';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

export interface PageQuery {
  offset: number;
  limit: number;
  search?: string | undefined;
}

/** A LIKE pattern matching `search` anywhere, its %, _ and \ literal; pair with ESCAPE '\'. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Collects WHERE conditions and their parameters. */
export class Conditions {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  /** `column LIKE '%search%'` on any of the columns, when there is a search. */
  search(columns: readonly string[], search: string | undefined): this {
    const text = search?.trim();
    if (!text) return this;
    return this.add(
      `(${columns.map((column) => `${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`,
      ...columns.map(() => likePattern(text)),
    );
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/** A page of `source`'s rows; `total` when the caller knows it without counting the rows. */
export function windowed<Row>(
  db: WorkspaceDb,
  source: {
    columns: string;
    table: string;
    where: Conditions;
    order: string;
    total?: number | undefined;
  },
  query: PageQuery,
): Page<Row> {
  const { columns, table, where, order } = source;
  const total =
    source.total ??
    (
      statement(db, `SELECT COUNT(*) AS n FROM ${table} ${where.sql}`).get(...where.params) as {
        n: number;
      }
    ).n;
  const rows = statement(
    db,
    `SELECT ${columns} FROM ${table} ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
  ).all(...where.params, query.limit, query.offset) as Row[];
  return { total, rows };
}
