// Approval state transitions of team posts (Node, team server): each is a request the server
// checks (role, current state) and records with who and when. The approvals issue adds its roles
// and the publish check on these rows.
import type { ApprovalState, TeamRole } from '../../shared/team';
import { inTransaction } from './db';
import type { TeamDb } from './db';
import type { AuthenticatedMember } from './members';
import type { LeaseOutcome } from './lease';
import { TeamAudit } from './audit';

const ALLOWED: Readonly<
  Record<ApprovalState, Partial<Record<ApprovalState, readonly TeamRole[]>>>
> = {
  draft: { in_review: ['owner', 'editor'] },
  in_review: { approved: ['owner'], changes_requested: ['owner'], draft: ['owner', 'editor'] },
  changes_requested: { in_review: ['owner', 'editor'] },
  approved: { in_review: ['owner', 'editor'] },
};

export class TeamApprovals {
  private readonly audit: TeamAudit;

  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number,
  ) {
    this.audit = new TeamAudit(db, now);
  }

  stateOf(teamId: string, post: string): ApprovalState {
    const row = this.db
      .prepare('SELECT state FROM approvals WHERE team_id = ? AND post_uuid = ?')
      .get(teamId, post) as { state: ApprovalState } | undefined;
    return row?.state ?? 'draft';
  }

  /** Moves `post` from `from` to `to` when the member's role allows it and `from` still holds. */
  transition(
    member: AuthenticatedMember,
    post: string,
    from: ApprovalState,
    to: ApprovalState,
  ): LeaseOutcome<{ state: ApprovalState }> {
    return inTransaction(this.db, () => {
      const current = this.stateOf(member.teamId, post);
      if (current !== from)
        return {
          ok: false,
          code: 'stale_state',
          error: `This post is ${current} now, not ${from}.`,
        };
      const roles = ALLOWED[from][to];
      if (!roles?.includes(member.role))
        return {
          ok: false,
          code: 'forbidden',
          error: `A ${member.role} cannot move a post from ${from} to ${to}; Settings → Team lists who can.`,
        };
      this.db
        .prepare(
          `INSERT INTO approvals (team_id, post_uuid, state, changed_by, changed_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(team_id, post_uuid) DO UPDATE SET state = excluded.state,
             changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
        )
        .run(member.teamId, post, to, member.id, this.now());
      this.audit.append(member, `${from}→${to}`, post);
      return { ok: true, value: { state: to } };
    });
  }
}
