// A desktop's state in its team and a post's approval states, in words (any process). Free of
// zod, so the first screen (the banner, the calendar's filter) takes it without the team's schemas.
/** Approval states of a team post; the team server moves them (main/team/approvals.ts). */
export const APPROVAL_STATES = ['draft', 'in_review', 'approved', 'changes_requested'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

const WAITS: Record<ApprovalState, string> = {
  draft: 'nobody has submitted it for review yet',
  in_review: 'it is in review',
  approved: 'it was changed after it was approved',
  changes_requested: 'it was sent back for changes',
};

/** Why a post that needs approval may not go out yet (the team server's claim, a desktop's Publish now). */
export function approvalWaitSentence(state: ApprovalState): string {
  return `This post waits for approval: ${WAITS[state]}. The team needs an approver's yes before a post goes out.`;
}

/** Another desktop in the workspace now (Yjs awareness), and the post it edits, if any. */
export interface TeamPresence {
  device: string;
  /** The member's name as the team server knows it; null until that desktop learned who it is. */
  name: string | null;
  /** The post's UUID in the team document. */
  editing: string | null;
  /** The same post's id in this workspace file, when it has it. */
  editingPostId: number | null;
}

/** A desktop's state in its team: `team status --json`, and `team` in the core's `status`. */
export interface TeamStatus {
  team: string;
  url: string;
  device: string;
  state: 'connected' | 'offline' | 'refused';
  /** Why the server refused this desktop (revoked token, other protocol). */
  refusal: string | null;
  offlineSince: number | null;
  /** Changes made here the server has not acknowledged yet. */
  waiting: number;
  lastSyncedAt: number | null;
  /** Team posts are published only while connected: the server decides who sends each. */
  publishes: boolean;
  /** Other desktops in the workspace now. */
  present: TeamPresence[];
}

/** Whether this desktop publishes team posts, and why, in one sentence (CLI and banner alike). */
export function teamPublishingSentence(status: Pick<TeamStatus, 'publishes' | 'state'>): string {
  if (status.publishes) return 'Team posts are published through the team server’s lease.';
  if (status.state === 'refused')
    return 'This desktop does not publish team posts: the team server refused it.';
  return 'This desktop does not publish team posts until it reaches the team server, so that no post goes out twice.';
}

/** Connected / refused: why / offline since …, in words (the banner and `team status`). */
export function teamStateSentence(
  status: Pick<TeamStatus, 'state' | 'refusal' | 'offlineSince'>,
  when: (at: number) => string,
): string {
  if (status.state === 'connected') return 'connected';
  if (status.state === 'refused') return `refused: ${status.refusal ?? 'no reason given'}`;
  return status.offlineSince === null ? 'offline' : `offline since ${when(status.offlineSince)}`;
}

/** `to_review`: a post waits for my approval; `sent_back`: an approver sent my post back to me. */
export type ReviewNoticeKind = 'to_review' | 'sent_back';

/** A post sent to me for review or back to me, by someone else (the team server's live state). */
export interface ReviewNoticeEvent {
  type: 'review';
  kind: ReviewNoticeKind;
  postId: number;
  /** The name of who moved it. */
  by: string;
}

/** The notice's title and sentence; `about` names the post ("Post “…”" or "A post"). */
export function reviewNoticeWords(
  notice: Pick<ReviewNoticeEvent, 'kind' | 'by'>,
  about: string,
): { title: string; body: string } {
  return notice.kind === 'to_review'
    ? { title: 'Waiting for your review', body: `${notice.by} sent ${about} for your review.` }
    : {
        title: 'Sent back to you',
        body: `${notice.by} sent back ${about} with a comment: change it and submit it again.`,
      };
}
