// Server keys (Node, team server): whoever holds one may create a team on this server from the
// app (`POST /teams`, http.ts). Made on the server's machine (`team key`), shown once, kept only
// as their SHA-256, like member tokens.
import { randomBytes } from 'node:crypto';
import type { TeamDb } from './db';
import { hashToken } from './members';

export class TeamServerKeys {
  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new key; it is in the answer and nowhere else. */
  issue(): string {
    const key = `prk_${randomBytes(32).toString('base64url')}`;
    this.db
      .prepare('INSERT INTO server_keys (hash, created_at) VALUES (?, ?)')
      .run(hashToken(key), this.now());
    return key;
  }

  /** Whether `key` is one this server made (a lookup by hash: nothing to time). */
  holds(key: string): boolean {
    if (key.length > 200) return false;
    return (
      this.db.prepare('SELECT 1 FROM server_keys WHERE hash = ?').get(hashToken(key)) !== undefined
    );
  }
}
