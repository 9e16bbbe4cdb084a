// The team's append-only audit log (Node, team server): who did what to which post, when, by the
// server's clock. Rows are only ever inserted.
import type { ControlAuditEntry } from '../../shared/team-doc';
import type { TeamDb } from './db';
import type { AuthenticatedMember } from './members';

export type AuditEntry = ControlAuditEntry;

export class TeamAudit {
  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number,
  ) {}

  append(member: AuthenticatedMember, action: string, post: string | null, detail = ''): void {
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
}
