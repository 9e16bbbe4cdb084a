// A post sent to me for review, or sent back to me, by someone else, as the control document shows
// it move (Node): what becomes a desktop notification. Only live moves count: what the first sync
// after (re)connecting replays is history, and a move of my own is one I made.
import type * as Y from 'yjs';
import type { TeamMember } from '../../shared/team';
import type { ReviewNoticeKind } from '../../shared/team-status';
import { CONTROL_MEMBERS, CONTROL_POSTS } from '../../shared/team-doc';
import type { ControlPostEntry } from '../../shared/team-doc';
import type { TeamConnection } from './connection';

export interface ReviewNotice {
  /** The post's UUID. */
  post: string;
  kind: ReviewNoticeKind;
  /** The name of the member who moved it. */
  by: string;
}

interface Move {
  post: string;
  before: ControlPostEntry | undefined;
  after: ControlPostEntry;
}

/** What a move of one post's approval state tells `me`, if anything. */
export function noticeKindFor(move: Move, me: TeamMember): ReviewNoticeKind | null {
  const { before, after } = move;
  if (after.approval === before?.approval || after.approvalBy === me.id) return null;
  const approves = me.role === 'owner' || me.role === 'approver';
  if (after.approval === 'in_review' && approves) return 'to_review';
  if (after.approval === 'changes_requested' && after.author === me.id) return 'sent_back';
  return null;
}

/**
 * Tells `tell` of each live move that concerns this desktop's member (`me`: undefined while it
 * cannot be learned, and then nothing is told); returns the way to stop.
 */
export function followReviewNotices(
  connection: TeamConnection,
  me: () => Promise<TeamMember | undefined>,
  tell: (notice: ReviewNotice) => void,
): () => void {
  const posts = connection.control.getMap<ControlPostEntry>(CONTROL_POSTS);
  const names = connection.control.getMap<string>(CONTROL_MEMBERS);
  const onChange = (event: Y.YMapEvent<ControlPostEntry>) => {
    if (!connection.controlSynced) return;
    const moves: Move[] = [];
    for (const [post, change] of event.changes.keys) {
      const after = posts.get(post);
      const before = change.oldValue as ControlPostEntry | undefined;
      if (after && after.approval !== before?.approval) moves.push({ post, before, after });
    }
    if (moves.length === 0) return;
    void me().then((member) => {
      if (!member) return;
      for (const move of moves) {
        const kind = noticeKindFor(move, member);
        const by = move.after.approvalBy;
        if (kind && by) tell({ post: move.post, kind, by: names.get(by) ?? by });
      }
    });
  };
  posts.observe(onChange);
  return () => posts.unobserve(onChange);
}
