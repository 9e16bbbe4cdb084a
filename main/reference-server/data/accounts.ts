// Accounts and their API tokens in the reference server (Node, main process); a token is stored
// only as its hash.
import { createHash, randomBytes } from 'node:crypto';
import type { Plan } from '../../platform/wire';
import type { Sql } from './sql';

export interface AccountRow {
  id: number;
  name: string;
  plan: Plan;
  rate_limit: number | null;
  suspended: number;
  created_at: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class AccountStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  createAccount(name: string, plan: Plan): number {
    return Number(
      this.sql
        .stmt('INSERT INTO accounts (name, plan, created_at) VALUES (?, ?, ?)')
        .run(name, plan, this.now()).lastInsertRowid,
    );
  }

  all(): AccountRow[] {
    return this.sql.stmt('SELECT * FROM accounts ORDER BY id').all() as AccountRow[];
  }

  account(id: number): AccountRow | undefined {
    return this.sql.stmt('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  }

  updateAccount(
    id: number,
    patch: { plan?: Plan; rateLimit?: number | null; suspended?: boolean },
  ): void {
    const current = this.account(id);
    if (!current) return;
    this.sql
      .stmt('UPDATE accounts SET plan = ?, rate_limit = ?, suspended = ? WHERE id = ?')
      .run(
        patch.plan ?? current.plan,
        patch.rateLimit === undefined ? current.rate_limit : patch.rateLimit,
        patch.suspended === undefined ? current.suspended : Number(patch.suspended),
        id,
      );
  }

  /** A new token for the account. Only its hash is stored, so it is shown once. */
  mintToken(accountId: number): string {
    const token = `pk_${randomBytes(24).toString('base64url')}`;
    this.sql
      .stmt('INSERT INTO tokens (hash, account_id, created_at) VALUES (?, ?, ?)')
      .run(hashToken(token), accountId, this.now());
    return token;
  }

  accountForTokenHash(hash: string): AccountRow | undefined {
    return this.sql
      .stmt(
        `SELECT a.* FROM tokens t JOIN accounts a ON a.id = t.account_id
       WHERE t.hash = ? AND t.revoked_at IS NULL`,
      )
      .get(hash) as AccountRow | undefined;
  }

  revokeToken(token: string): boolean {
    return (
      this.sql
        .stmt('UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL')
        .run(this.now(), hashToken(token)).changes > 0
    );
  }

  /** How many of each resource the account holds, as the admin API reports it. */
  counts(
    accountId: number,
  ): Record<'bots' | 'subscribers' | 'posts' | 'products' | 'orders' | 'webhooks', number> {
    const count = (table: string) =>
      (
        this.sql.stmt(`SELECT COUNT(*) AS n FROM ${table} WHERE account_id = ?`).get(accountId) as {
          n: number;
        }
      ).n;
    return {
      bots: count('bots'),
      subscribers: count('subscribers'),
      posts: count('posts'),
      products: count('products'),
      orders: count('orders'),
      webhooks: count('webhooks'),
    };
  }
}
