// Idempotency keys of the reference server (Node, main process): each key's request fingerprint
// and, once the request finished, its answer to replay.
import type { Sql } from './sql';

export interface IdempotencyRow {
  fingerprint: string;
  status: number | null;
  body: string | null;
}

export class IdempotencyStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  find(accountId: number, key: string): IdempotencyRow | undefined {
    return this.sql
      .stmt('SELECT fingerprint, status, body FROM idempotency WHERE account_id = ? AND key = ?')
      .get(accountId, key) as IdempotencyRow | undefined;
  }

  begin(accountId: number, key: string, fingerprint: string): void {
    this.sql
      .stmt(
        'INSERT INTO idempotency (account_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)',
      )
      .run(accountId, key, fingerprint, this.now());
  }

  finish(accountId: number, key: string, status: number, body: string): void {
    this.sql
      .stmt('UPDATE idempotency SET status = ?, body = ? WHERE account_id = ? AND key = ?')
      .run(status, body, accountId, key);
  }

  forget(accountId: number, key: string): void {
    this.sql.stmt('DELETE FROM idempotency WHERE account_id = ? AND key = ?').run(accountId, key);
  }

  purge(olderThan: number): void {
    this.sql.stmt('DELETE FROM idempotency WHERE created_at < ?').run(olderThan);
  }
}
