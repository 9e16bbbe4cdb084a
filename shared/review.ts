// The contract of team approvals (pure): the input schemas of the review operations, spread into
// shared/contract.ts's table, and what they answer. The team server decides every transition;
// these only say what a desktop asks (docs/team.md, "Approvals").
import { z } from 'zod';
import { APPROVAL_STATES, COMMENT_MAX_CHARS } from './team';
import type { ApprovalState, PostApproval, TeamLogEntry } from './team';

const postId = z.number().int().positive();
const comment = z
  .string()
  .trim()
  .min(1, { error: 'cannot be empty' })
  .max(COMMENT_MAX_CHARS, {
    error: `is at most ${COMMENT_MAX_CHARS.toLocaleString('en')} characters`,
  });

export const reviewOperations = {
  /** Sends a post for review (a draft, one sent back, or an approved one to review again). */
  submitPost: z.strictObject({ id: postId, comment: comment.optional() }),
  approvePost: z.strictObject({ id: postId, comment: comment.optional() }),
  /** Sends a post in review back to its author; the comment says what to change. */
  requestChanges: z.strictObject({ id: postId, comment }),
  commentOnPost: z.strictObject({ id: postId, text: comment }),
  /** What waits for me, what was sent back to me, oldest first; with `state`, every post in it. */
  listReview: z.strictObject({ state: z.enum(APPROVAL_STATES).optional() }),
  getPostApproval: z.strictObject({ id: postId }),
  /** Forgets a step asked here that the team server refused, once its reason has been read. */
  dismissReviewStep: z.strictObject({ id: z.number().int().positive() }),
  /** The team's audit log, newest last; one member's with `member`; CSV text with `format`. */
  teamLog: z.strictObject({
    member: z.string().min(1).max(40).optional(),
    limit: z.number().int().min(1).max(10_000).default(1000),
    format: z.enum(['json', 'csv']).default('json'),
  }),
} as const;

/** What a transition asked from here came to. */
export interface ReviewStep {
  state: ApprovalState;
  /** Asked while the team server could not be reached: sent on reconnect. */
  waitingToSync: boolean;
  /** Approved after its time had passed: publish it now or pick a new time. */
  pastDue: number | null;
  message: string;
}

export interface ReviewItem {
  postId: number;
  text: string;
  state: ApprovalState;
  /** When it came into this state, by the team server's clock. */
  since: number | null;
}

/** A transition asked here that waits to sync, or was refused on sync (with the reason). */
export interface PendingReviewStep {
  /** What dismissReviewStep names it by. */
  id: number;
  postId: number | null;
  from: ApprovalState;
  to: ApprovalState;
  askedAt: number;
  state: 'waiting' | 'refused';
  reason: string | null;
}

export interface ReviewResults {
  submitPost: ReviewStep;
  approvePost: ReviewStep;
  requestChanges: ReviewStep;
  commentOnPost: { at: number };
  listReview: {
    waitsForMe: ReviewItem[];
    sentBackToMe: ReviewItem[];
    /** Every post in the state asked for, oldest first (empty without `state`). */
    inState: ReviewItem[];
    pending: PendingReviewStep[];
  };
  getPostApproval: PostApproval & {
    pending: PendingReviewStep[];
    /** Why Publish now must wait for an approver's yes (the team's setting); null when it may go. */
    publishWait: string | null;
  };
  dismissReviewStep: { id: number };
  teamLog: { entries: TeamLogEntry[]; csv: string | null };
}
