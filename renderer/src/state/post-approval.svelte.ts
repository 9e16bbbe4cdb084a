// The approval part of the post editor for a team post (browser): its state, the transitions its
// state offers (the team server decides by role and answers a refusal in a sentence, shown as is),
// its comments and the history of its states (getPostApproval).
import type { CallResult } from '../../../shared/answers';
import type { ReviewResults, ReviewStep } from '../../../shared/review';
import { COMMENT_MAX_CHARS, type ApprovalState } from '../../../shared/team';
import type { Shell } from './shell.svelte';

export type ApprovalAction = 'submit' | 'approve' | 'requestChanges';

/** What each state offers; the server still checks the role and that the state still holds. */
const OFFERED: Record<ApprovalState, ApprovalAction[]> = {
  draft: ['submit'],
  changes_requested: ['submit'],
  in_review: ['approve', 'requestChanges'],
  approved: ['submit'],
};

export const ACTION_LABELS: Record<ApprovalAction, string> = {
  submit: 'Submit for review',
  approve: 'Approve',
  requestChanges: 'Request changes',
};

const EMPTY_COMMENT = 'Write a comment first: an empty one is not sent.';
const NEEDS_COMMENT = 'Say what to change in the comment: sending a post back needs one.';

export class PostApprovalState {
  approval = $state.raw<ReviewResults['getPostApproval'] | null>(null);
  /** Why the approval could not be read, or why the server refused the last request. */
  error = $state<string | null>(null);
  comment = $state('');
  busy = $state(false);

  constructor(
    private readonly shell: Shell,
    readonly postId: number,
  ) {}

  /** The zone comments and history show their times in: the user's setting. */
  get zone(): string {
    return this.shell.timezone;
  }

  get actions(): ApprovalAction[] {
    return this.approval ? OFFERED[this.approval.state] : [];
  }

  /** Why Publish now waits for an approver's yes (the team's setting), or null when it may go. */
  get publishWait(): string | null {
    return this.approval?.publishWait ?? null;
  }

  get commentTooLong(): boolean {
    return this.comment.length > COMMENT_MAX_CHARS;
  }

  async load(): Promise<void> {
    const result = await this.shell.api.getPostApproval({ id: this.postId });
    if (!result.ok) {
      this.error = result.error.message;
      return;
    }
    this.approval = result.value;
  }

  async run(action: ApprovalAction): Promise<void> {
    const id = this.postId;
    const comment = this.comment.trim();
    if (action === 'requestChanges') {
      if (comment === '') {
        this.error = NEEDS_COMMENT;
        return;
      }
      await this.step(() => this.shell.api.requestChanges({ id, comment }));
      return;
    }
    const input = comment === '' ? { id } : { id, comment };
    await this.step(() =>
      action === 'submit' ? this.shell.api.submitPost(input) : this.shell.api.approvePost(input),
    );
  }

  async addComment(): Promise<void> {
    const text = this.comment.trim();
    if (text === '') {
      this.error = EMPTY_COMMENT;
      return;
    }
    await this.ask(() => this.shell.api.commentOnPost({ id: this.postId, text }));
  }

  private async step(ask: () => Promise<CallResult<ReviewStep>>): Promise<void> {
    const result = await this.ask(ask);
    if (result) this.shell.notices.show('success', result.message);
  }

  /** One request at a time; a refusal stays beside the buttons, in the server's words. */
  private async ask<T>(call: () => Promise<CallResult<T>>): Promise<T | null> {
    if (this.commentTooLong) return null;
    this.busy = true;
    try {
      const result = await call();
      if (!result.ok) {
        this.error = result.error.message;
        return null;
      }
      this.error = null;
      this.comment = '';
      await this.load();
      return result.value;
    } finally {
      this.busy = false;
    }
  }
}
