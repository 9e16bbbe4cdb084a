// The team's append-only audit log (Node, team server): who did what to which post, when, by the
// server's clock. Rows are only ever inserted.
import type { TeamLogEntry } from '../../shared/team';
import type { ControlAuditEntry } from '../../shared/team-doc';
import { inTransaction } from './db';
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

  /**
   * Appends an entry for each post unless the member's latest entry of this action on it, with
   * the same detail, is younger than `windowMs`: someone typing makes one entry a minute, not one
   * a keystroke. One transaction for them all (one commit, one sync to disk): an owner's first
   * share touches every post at once. Answers the posts given an entry.
   */
  appendUnlessRecent(
    member: AuthenticatedMember,
    action: string,
    edits: ReadonlyMap<string, string>,
    windowMs: number,
  ): string[] {
    const latestOf = this.db.prepare(
      `SELECT at, detail FROM audit WHERE team_id = ? AND post_uuid = ? AND member = ? AND action = ?
       ORDER BY seq DESC LIMIT 1`,
    );
    return inTransaction(this.db, () => {
      const appended: string[] = [];
      for (const [post, detail] of edits) {
        const latest = latestOf.get(member.teamId, post, member.id, action) as
          { at: number; detail: string } | undefined;
        if (latest && latest.detail === detail && this.now() - latest.at < windowMs) continue;
        this.append(member, action, post, detail);
        appended.push(post);
      }
      return appended;
    });
  }

  /** The latest `limit` entries after `seq`, oldest first. */
  latestAfter(teamId: string, seq: number, limit: number): AuditEntry[] {
    const rows = this.db
      .prepare(
        `SELECT seq, at, member, action, post_uuid AS post, detail FROM audit
         WHERE team_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?`,
      )
      .all(teamId, seq, limit) as AuditEntry[];
    return rows.reverse();
  }

  /** The latest `limit` entries with each member's name, oldest first; one member's or a post's. */
  /** The log, oldest first; `statesOnly` leaves out members' edits (edits.ts): a post's states. */
  log(
    teamId: string,
    filter: { member?: string; post?: string; statesOnly?: boolean; limit: number },
  ): TeamLogEntry[] {
    const rows = this.db
      .prepare(
        `SELECT a.seq, a.at, a.member, coalesce(m.name, a.member) AS name, a.action,
           a.post_uuid AS post, a.detail FROM audit a LEFT JOIN members m ON m.id = a.member
         WHERE a.team_id = ? AND (? IS NULL OR a.member = ?) AND (? IS NULL OR a.post_uuid = ?)
           AND (? = 0 OR a.action <> 'edit')
         ORDER BY a.seq DESC LIMIT ?`,
      )
      .all(
        teamId,
        filter.member ?? null,
        filter.member ?? null,
        filter.post ?? null,
        filter.post ?? null,
        filter.statesOnly ? 1 : 0,
        filter.limit,
      ) as TeamLogEntry[];
    return rows.reverse();
  }
}
