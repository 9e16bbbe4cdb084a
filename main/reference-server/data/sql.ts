// Shared SQL plumbing of the reference server's resource stores (Node, main process): the cache of
// prepared statements, the paged list query every list endpoint runs, and LIKE escaping.
import type { Statement } from 'better-sqlite3';
import type { ListEnvelope } from '../../platform/wire';
import type { ReferenceServerDb } from '../db';

export interface PageQuery {
  page: number;
  perPage: number;
}

/** A filter clause and its parameters, joined with AND. */
type Where = [clause: string, ...params: unknown[]];

/** `%` and `_` typed by a user are literal characters, not LIKE wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One per database, shared by every resource store so each SQL text is prepared once. */
export class Sql {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: ReferenceServerDb) {}

  /** Prepared once per distinct SQL text: preparing is the costly part of a query here. */
  stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** One page of the account's rows of `table`, filtered, in id order, with its paging meta. */
  list<Row, T>(
    table: string,
    select: string,
    accountId: number,
    filters: (Where | null)[],
    page: PageQuery,
    map: (row: Row) => T,
  ): ListEnvelope<T> {
    const where: Where[] = [['account_id = ?', accountId], ...filters.filter((f) => f !== null)];
    const clause = where.map(([sql]) => sql).join(' AND ');
    const params = where.flatMap(([, ...values]) => values);
    const total = (
      this.stmt(`SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`).get(...params) as {
        n: number;
      }
    ).n;
    const rows = this.stmt(
      `SELECT ${select} FROM ${table} WHERE ${clause} ORDER BY id LIMIT ? OFFSET ?`,
    ).all(...params, page.perPage, (page.page - 1) * page.perPage) as Row[];
    const totalPages = Math.ceil(total / page.perPage);
    return {
      data: rows.map(map),
      meta: {
        page: page.page,
        per_page: page.perPage,
        total,
        total_pages: totalPages,
        next_page: page.page < totalPages ? page.page + 1 : null,
      },
    };
  }
}
