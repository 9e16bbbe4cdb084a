// Approval states of team posts (Node, team server): each move is a request the server checks
// (the member's role, the state the request saw, the post itself) and records with who and when;
// the publish claim asks `publishBlock` first, so nothing unapproved goes out whatever a desktop
// says. An approval holds for the text, media, time and bot it saw (a fingerprint): an edit after
// it puts the post back in review.
import { approvalWaitSentence } from '../../shared/team';
import type { ApprovalSetting, ApprovalState, TeamRole } from '../../shared/team';
import { inTransaction } from './db';
import type { TeamDb } from './db';
import type { AuthenticatedMember } from './members';
import type { LeaseOutcome, PostFacts } from './lease';
import { TeamAudit } from './audit';
import { commentRefusal, TeamComments } from './comments';

const APPROVERS: readonly TeamRole[] = ['owner', 'approver'];
const WRITERS: readonly TeamRole[] = ['owner', 'approver', 'editor'];

const ALLOWED: Readonly<
  Record<ApprovalState, Partial<Record<ApprovalState, readonly TeamRole[]>>>
> = {
  draft: { in_review: WRITERS },
  in_review: { approved: APPROVERS, changes_requested: APPROVERS, draft: WRITERS },
  changes_requested: { in_review: WRITERS },
  approved: { in_review: WRITERS },
};

const SHOWN: Record<ApprovalState, string> = {
  draft: 'a draft',
  in_review: 'in review',
  approved: 'approved',
  changes_requested: 'sent back for changes',
};

const AS_SUBJECT: Record<ApprovalState, string> = {
  draft: 'A draft',
  in_review: 'A post in review',
  approved: 'An approved post',
  changes_requested: 'A post sent back for changes',
};

const DONE: Record<ApprovalState, string> = {
  draft: 'moved this post back to drafts',
  in_review: 'submitted this post for review',
  approved: 'approved this post',
  changes_requested: 'sent this post back for changes',
};

export interface ApprovalRow {
  state: ApprovalState;
  author: string | null;
  changed_by: string;
  changed_at: number;
  approved_fingerprint: string | null;
}

export interface TransitionAsked {
  post: string;
  from: ApprovalState;
  to: ApprovalState;
  comment?: string | undefined;
}

function refuse(code: 'forbidden' | 'invalid' | 'not_found' | 'stale_state', error: string) {
  return { ok: false as const, code, error };
}

function roleRefusal(to: ApprovalState): string {
  if (to === 'approved')
    return 'Only an approver can approve this post; Settings → Team lists who can.';
  if (to === 'changes_requested')
    return 'Only an approver can send this post back for changes; Settings → Team lists who can.';
  return 'Only an editor, an approver or the owner can move this post; Settings → Team lists who can.';
}

function isoMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export class TeamApprovals {
  private readonly audit: TeamAudit;
  private readonly comments: TeamComments;

  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number,
  ) {
    this.audit = new TeamAudit(db, now);
    this.comments = new TeamComments(db, now);
  }

  row(teamId: string, post: string): ApprovalRow | undefined {
    return this.db
      .prepare(
        'SELECT state, author, changed_by, changed_at, approved_fingerprint FROM approvals WHERE team_id = ? AND post_uuid = ?',
      )
      .get(teamId, post) as ApprovalRow | undefined;
  }

  /** The posts with an approval state, for the control document. */
  posts(teamId: string): string[] {
    const rows = this.db
      .prepare('SELECT post_uuid FROM approvals WHERE team_id = ?')
      .all(teamId) as { post_uuid: string }[];
    return rows.map((row) => row.post_uuid);
  }

  /** Moves a post from the state the request saw to the one it asks, when its role allows it. */
  transition(
    member: AuthenticatedMember,
    asked: TransitionAsked,
    facts: PostFacts | undefined,
  ): LeaseOutcome<{ state: ApprovalState; pastDue: number | null }> {
    return inTransaction(this.db, () => {
      const { post, from, to } = asked;
      if (!facts || facts.deletedAt !== null)
        return refuse('not_found', 'This post is not in the team workspace (or was deleted).');
      const row = this.row(member.teamId, post);
      const current = row?.state ?? 'draft';
      if (current !== from) {
        const who = row
          ? `${this.nameOf(row.changed_by)} ${DONE[current]} at ${isoMinute(row.changed_at)}: it`
          : 'This post';
        return refuse('stale_state', `${who} is ${SHOWN[current]} now, not ${SHOWN[from]}.`);
      }
      const roles = ALLOWED[from][to];
      if (!roles) return refuse('invalid', `${AS_SUBJECT[from]} cannot become ${SHOWN[to]}.`);
      if (!roles.includes(member.role)) return refuse('forbidden', roleRefusal(to));
      if (to === 'changes_requested' && !asked.comment?.trim())
        return refuse('invalid', 'Say what to change: sending a post back needs a comment.');
      if (asked.comment !== undefined) {
        const bad = commentRefusal(asked.comment) ?? this.comments.fullness(member.teamId, post);
        if (bad) return refuse('invalid', bad);
      }
      this.write(member, post, to, {
        author: row?.author ?? (to === 'in_review' ? member.id : null),
        fingerprint: to === 'approved' ? facts.fingerprint : null,
      });
      this.audit.append(member, `${from}→${to}`, post);
      if (asked.comment !== undefined) this.comments.add(member, post, asked.comment);
      const late =
        to === 'approved' &&
        facts.status === 'scheduled' &&
        facts.scheduledAt !== null &&
        facts.scheduledAt <= this.now();
      const pastDue = late ? facts.scheduledAt : null;
      return { ok: true, value: { state: to, pastDue } };
    });
  }

  /**
   * Puts back in review every approved, unpublished post whose text, media, time or bot changed
   * since it was approved; answers which. Any edit counts, an approver's too (docs/team.md).
   */
  resetEdited(
    teamId: string,
    by: Pick<AuthenticatedMember, 'id'> | undefined,
    fingerprintOf: (post: string) => string | undefined,
  ): string[] {
    const edited = () =>
      (
        this.db
          .prepare(
            `SELECT a.post_uuid AS post, a.approved_fingerprint AS fingerprint FROM approvals a
             LEFT JOIN leases l ON l.team_id = a.team_id AND l.post_uuid = a.post_uuid
             WHERE a.team_id = ? AND a.state = 'approved' AND l.remote_id IS NULL`,
          )
          .all(teamId) as { post: string; fingerprint: string | null }[]
      ).filter((entry) => {
        const now = fingerprintOf(entry.post);
        return now !== undefined && now !== entry.fingerprint;
      });
    // Most updates touch no approved post: only a real reset takes the write lock.
    if (edited().length === 0) return [];
    return inTransaction(this.db, () => {
      const posts = edited().map((entry) => entry.post);
      const actor = { teamId, id: by?.id ?? 'server' };
      for (const post of posts) {
        this.write(actor, post, 'in_review', { author: this.row(teamId, post)?.author ?? null });
        this.audit.append(actor, 'approved→in_review', post, 'edited after it was approved');
      }
      return posts;
    });
  }

  /** Why a claim of this post must wait for approval, or undefined when it may go out. */
  publishBlock(teamId: string, post: string, facts: PostFacts): string | undefined {
    const setting = this.setting(teamId);
    if (!setting.required) return undefined;
    if (setting.bots && !(facts.botId !== null && setting.bots.includes(facts.botId)))
      return undefined;
    const row = this.row(teamId, post);
    const state = row?.state ?? 'draft';
    if (state === 'approved' && row?.approved_fingerprint === facts.fingerprint) return undefined;
    return approvalWaitSentence(state);
  }

  setting(teamId: string): ApprovalSetting {
    const row = this.db
      .prepare('SELECT required, bots FROM approval_settings WHERE team_id = ?')
      .get(teamId) as { required: number; bots: string | null } | undefined;
    return {
      required: row?.required === 1,
      bots: row?.bots ? (JSON.parse(row.bots) as string[]) : null,
    };
  }

  /** The owner's switch: posts (of every bot, or of these) need approval before they go out. */
  setSetting(member: AuthenticatedMember, setting: ApprovalSetting): LeaseOutcome<ApprovalSetting> {
    if (member.role !== 'owner')
      return refuse('forbidden', 'Only the team owner can change whether posts need approval.');
    return inTransaction(this.db, () => {
      this.db
        .prepare(
          `INSERT INTO approval_settings (team_id, required, bots) VALUES (?, ?, ?)
           ON CONFLICT(team_id) DO UPDATE SET required = excluded.required, bots = excluded.bots`,
        )
        .run(member.teamId, setting.required ? 1 : 0, setting.bots && JSON.stringify(setting.bots));
      const which = setting.bots ? `posts of ${setting.bots.join(', ')}` : 'every post';
      this.audit.append(
        member,
        'approval setting',
        null,
        setting.required ? `${which} needs approval` : 'no approval needed',
      );
      return { ok: true, value: setting };
    });
  }

  private write(
    actor: Pick<AuthenticatedMember, 'teamId' | 'id'>,
    post: string,
    to: ApprovalState,
    fields: { author: string | null; fingerprint?: string | null },
  ): void {
    const at = this.now();
    this.db
      .prepare(
        `INSERT INTO approvals (team_id, post_uuid, state, changed_by, changed_at, author, approved_fingerprint)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(team_id, post_uuid) DO UPDATE SET state = excluded.state,
           changed_by = excluded.changed_by, changed_at = excluded.changed_at,
           author = excluded.author, approved_fingerprint = excluded.approved_fingerprint`,
      )
      .run(actor.teamId, post, to, actor.id, at, fields.author, fields.fingerprint ?? null);
  }

  private nameOf(member: string): string {
    if (member === 'server') return 'An edit';
    const row = this.db.prepare('SELECT name FROM members WHERE id = ?').get(member) as
      { name: string } | undefined;
    return row?.name ?? 'Someone';
  }
}
