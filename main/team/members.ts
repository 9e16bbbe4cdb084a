// Teams and their members (Node, team server): tokens are random, shown once, and kept only as
// their SHA-256 (a 256-bit random token needs no slow hash: there is nothing to guess).
import { createHash, randomBytes } from 'node:crypto';
import type { TeamMember, TeamRole } from '../../shared/team';
import { inTransaction } from './db';
import type { TeamDb } from './db';

export interface AuthenticatedMember extends TeamMember {
  teamId: string;
}

interface MemberRow {
  id: string;
  team_id: string;
  name: string;
  role: TeamRole;
  created_at: number;
  revoked_at: number | null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function memberOf(row: MemberRow): AuthenticatedMember {
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    role: row.role,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export class TeamMembers {
  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new team with its owner; the owner's token is in the answer and nowhere else. */
  createTeam(
    name: string,
    ownerName: string,
  ): { teamId: string; member: TeamMember; token: string } {
    const teamId = `t_${randomBytes(8).toString('hex')}`;
    return inTransaction(this.db, () => {
      this.db
        .prepare('INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)')
        .run(teamId, name, this.now());
      return { teamId, ...this.invite(teamId, ownerName, 'owner') };
    });
  }

  invite(teamId: string, name: string, role: TeamRole): { member: TeamMember; token: string } {
    const token = `prt_${randomBytes(32).toString('base64url')}`;
    const id = `m_${randomBytes(6).toString('hex')}`;
    const createdAt = this.now();
    this.db
      .prepare(
        'INSERT INTO members (id, team_id, name, role, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, teamId, name, role, hashToken(token), createdAt);
    return { member: { id, name, role, createdAt, revokedAt: null }, token };
  }

  /** The member a token belongs to, unless it is unknown or revoked. */
  authenticate(token: string): AuthenticatedMember | undefined {
    if (token.length > 200) return undefined;
    const row = this.db
      .prepare('SELECT * FROM members WHERE token_hash = ? AND revoked_at IS NULL')
      .get(hashToken(token)) as MemberRow | undefined;
    return row && memberOf(row);
  }

  list(teamId: string): TeamMember[] {
    const rows = this.db
      .prepare('SELECT * FROM members WHERE team_id = ? ORDER BY created_at, id')
      .all(teamId) as MemberRow[];
    return rows.map((row) => {
      const { teamId: _team, ...member } = memberOf(row);
      return member;
    });
  }

  /** Revokes a member's token; the server cuts its connections at its next check. */
  revoke(teamId: string, memberId: string): TeamMember | undefined {
    this.db
      .prepare(
        'UPDATE members SET revoked_at = ? WHERE team_id = ? AND id = ? AND revoked_at IS NULL',
      )
      .run(this.now(), teamId, memberId);
    return this.list(teamId).find((member) => member.id === memberId);
  }

  /** Which of these member ids are revoked (or gone): their connections are closed. */
  revokedAmong(ids: readonly string[]): Set<string> {
    if (ids.length === 0) return new Set();
    const active = this.db
      .prepare(
        'SELECT id FROM members WHERE id IN (SELECT value FROM json_each(?)) AND revoked_at IS NULL',
      )
      .all(JSON.stringify(ids)) as { id: string }[];
    const still = new Set(active.map((row) => row.id));
    return new Set(ids.filter((id) => !still.has(id)));
  }

  teamName(teamId: string): string | undefined {
    const row = this.db.prepare('SELECT name FROM teams WHERE id = ?').get(teamId) as
      { name: string } | undefined;
    return row?.name;
  }
}
