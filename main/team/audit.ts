// The team's append-only audit log (Node, team server): who did what to which post, when, by the
// server's clock. Rows are only ever inserted.
import type { TeamLogEntry } from '../../shared/team';
import type { ControlAuditEntry } from '../../shared/team-doc';
import type { TeamDb } from './db';
import type { AuthenticatedMember } from './members';

export type AuditEntry = ControlAuditEntry;

export class TeamAudit {
  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number,
  ) {}

  append(
    member: Pick<AuthenticatedMember, 'teamId' | 'id'>,
    action: string,
    post: string | null,
    detail = '',
  ): void {
    this.db
      .prepare(
        'INSERT INTO audit (team_id, at, member, action, post_uuid, detail) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(member.teamId, this.now(), member.id, action, post, detail);
  }

  /** The latest `limit` entries, oldest first. */
  latest(teamId: string, limit: number): AuditEntry[] {
    const rows = this.db
      .prepare(
        `SELECT seq, at, member, action, post_uuid AS post, detail FROM audit WHERE team_id = ?
         ORDER BY seq DESC LIMIT ?`,
      )
      .all(teamId, limit) as AuditEntry[];
    return rows.reverse();
  }

  /** The latest `limit` entries with each member's name, oldest first; one member's or a post's. */
  log(teamId: string, filter: { member?: string; post?: string; limit: number }): TeamLogEntry[] {
    const rows = this.db
      .prepare(
        `SELECT a.seq, a.at, a.member, coalesce(m.name, a.member) AS name, a.action,
           a.post_uuid AS post, a.detail FROM audit a LEFT JOIN members m ON m.id = a.member
         WHERE a.team_id = ? AND (? IS NULL OR a.member = ?) AND (? IS NULL OR a.post_uuid = ?)
         ORDER BY a.seq DESC LIMIT ?`,
      )
      .all(
        teamId,
        filter.member ?? null,
        filter.member ?? null,
        filter.post ?? null,
        filter.post ?? null,
        filter.limit,
      ) as TeamLogEntry[];
    return rows.reverse();
  }
}
