// The Review screen's state (browser): what waits for my approval and what was sent back to me,
// oldest first, and what I asked offline (waiting to sync, or refused with the team server's
// reason). Approve or send back from the list, by button or by key (A, R).
import type { CallResult } from '../../../shared/answers';
import type { PendingReviewStep, ReviewItem, ReviewStep } from '../../../shared/review';
import type { ApprovalState } from '../../../shared/team';
import type { Shell } from './shell.svelte';

/** Each state in words (and a sign beside it, so it never rests on colour alone). */
export const STATE_LABELS: Record<ApprovalState, { sign: string; text: string }> = {
  draft: { sign: '✎', text: 'Draft' },
  in_review: { sign: '◔', text: 'In review' },
  approved: { sign: '✓', text: 'Approved' },
  changes_requested: { sign: '↩', text: 'Changes requested' },
};

export class ReviewState {
  waitsForMe = $state.raw<ReviewItem[]>([]);
  sentBackToMe = $state.raw<ReviewItem[]>([]);
  pending = $state.raw<PendingReviewStep[]>([]);
  loaded = $state(false);
  error = $state<string | null>(null);
  /** The post in review whose request for changes is being written, and the comment. */
  commenting = $state<number | null>(null);
  comment = $state('');
  busy = $state(false);

  constructor(private readonly shell: Shell) {}

  async load(): Promise<void> {
    const result = await this.shell.api.listReview({});
    if (!result.ok) {
      this.error = result.error.message;
      return;
    }
    this.error = null;
    this.waitsForMe = result.value.waitsForMe;
    this.sentBackToMe = result.value.sentBackToMe;
    this.pending = result.value.pending;
    this.loaded = true;
  }

  /** Reloads when a post is sent to me or back to me; returns the way to stop. */
  follow(): () => void {
    return this.shell.onEvent((event) => {
      if (event.type === 'review') void this.load();
    });
  }

  async approve(id: number): Promise<void> {
    await this.settle(id, () => this.shell.api.approvePost({ id }));
  }

  startChanges(id: number): void {
    this.commenting = id;
    this.comment = '';
  }

  cancelChanges(): void {
    this.commenting = null;
  }

  async sendBack(): Promise<void> {
    const id = this.commenting;
    if (id === null) return;
    if (this.comment.trim() === '') {
      this.shell.notices.show('error', 'Say what to change: sending a post back needs a comment.');
      return;
    }
    const comment = this.comment;
    await this.settle(id, () => this.shell.api.requestChanges({ id, comment }));
  }

  /** A for approve, R for request changes, on the post whose buttons have the focus. */
  key(event: KeyboardEvent, id: number): void {
    if (event.ctrlKey || event.metaKey || event.altKey || this.commenting !== null) return;
    const key = event.key.toLowerCase();
    if (key === 'a') void this.approve(id);
    else if (key === 'r') this.startChanges(id);
    else return;
    event.preventDefault();
  }

  async publishNow(id: number): Promise<void> {
    const result = await this.shell.api.queuePost({ id, mode: 'publish_now' });
    if (!result.ok) this.shell.notices.error(new Error(result.error.message));
  }

  /** Forgets a step the team server refused, once its reason was read. */
  async dismiss(id: number): Promise<void> {
    const result = await this.shell.api.dismissReviewStep({ id });
    if (!result.ok) this.shell.notices.error(new Error(result.error.message));
    await this.load();
  }

  openPost(id: number): void {
    this.shell.openPost(id);
  }

  private async settle(id: number, ask: () => Promise<CallResult<ReviewStep>>): Promise<void> {
    this.busy = true;
    try {
      const result = await ask();
      if (!result.ok) {
        this.shell.notices.error(new Error(result.error.message));
        return;
      }
      this.commenting = null;
      if (result.value.pastDue === null) this.shell.notices.show('success', result.value.message);
      // Its time has passed: the approver chooses, now or a new time (the editor).
      else
        this.shell.notices.show('info', result.value.message, null, {
          label: 'Publish now',
          run: () => void this.publishNow(id),
        });
      await this.load();
    } finally {
      this.busy = false;
    }
  }
}
