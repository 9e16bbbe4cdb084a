// Comments on team posts (Node, team server): shared with the whole team, each with its author and
// the server's time, bounded in length and number; an empty one is refused with a sentence.
import { COMMENT_MAX_CHARS } from '../../shared/team';
import type { PostComment } from '../../shared/team';
import { inTransaction } from './db';
import type { TeamDb } from './db';
import type { LeaseOutcome } from './lease';
import type { AuthenticatedMember } from './members';
import { TeamAudit } from './audit';

/** Comments one post may carry; a conversation longer than this belongs elsewhere. */
export const COMMENTS_PER_POST = 500;

/** The sentence refusing this comment, or undefined when it may be kept. */
export function commentRefusal(text: string): string | undefined {
  if (text.trim().length === 0) return 'A comment cannot be empty.';
  if (text.length > COMMENT_MAX_CHARS)
    return `A comment is at most ${COMMENT_MAX_CHARS.toLocaleString('en')} characters; this one has ${text.length.toLocaleString('en')}.`;
  return undefined;
}

export class TeamComments {
  private readonly audit: TeamAudit;

  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number,
  ) {
    this.audit = new TeamAudit(db, now);
  }

  /** A member's comment on a post that exists, checked and kept, or refused with a sentence. */
  comment(
    member: AuthenticatedMember,
    post: string,
    text: string,
    exists: boolean,
  ): LeaseOutcome<{ comment: PostComment }> {
    if (!exists)
      return {
        ok: false,
        code: 'not_found',
        error: 'This post is not in the team workspace (or was deleted).',
      };
    const bad = commentRefusal(text);
    if (bad) return { ok: false, code: 'invalid', error: bad };
    return inTransaction(this.db, () => {
      const full = this.fullness(member.teamId, post);
      if (full) return { ok: false as const, code: 'invalid' as const, error: full };
      const comment = this.add(member, post, text);
      this.audit.append(member, 'comment', post);
      return { ok: true as const, value: { comment } };
    });
  }

  /** Keeps a checked comment (callers run commentRefusal first, inside their transaction). */
  add(member: AuthenticatedMember, post: string, text: string): PostComment {
    const at = this.now();
    this.db
      .prepare('INSERT INTO comments (team_id, post_uuid, member, at, text) VALUES (?, ?, ?, ?, ?)')
      .run(member.teamId, post, member.id, at, text.trim());
    return { member: member.id, name: member.name, at, text: text.trim() };
  }

  /** The sentence refusing one more comment on a post that carries the most it may. */
  fullness(teamId: string, post: string): string | undefined {
    const row = this.db
      .prepare('SELECT count(*) AS n FROM comments WHERE team_id = ? AND post_uuid = ?')
      .get(teamId, post) as { n: number };
    return row.n >= COMMENTS_PER_POST
      ? `A post carries at most ${COMMENTS_PER_POST} comments.`
      : undefined;
  }

  /** A post's comments, oldest first, with each author's name. */
  of(teamId: string, post: string): PostComment[] {
    return this.db
      .prepare(
        `SELECT c.member, coalesce(m.name, '?') AS name, c.at, c.text FROM comments c
         LEFT JOIN members m ON m.id = c.member WHERE c.team_id = ? AND c.post_uuid = ?
         ORDER BY c.seq`,
      )
      .all(teamId, post) as PostComment[];
  }
}
