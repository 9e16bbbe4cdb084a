// The queue screen's state (browser): the schedule of what goes next (outbox items and the posts
// the platform publishes itself), what needs attention and what is over; one row's detail,
// retry/cancel, pause/resume, the live rate-limit gauge and the posts that missed their time.
import type { CallResult, CoreEvent } from '../../../shared/answers';
import { OUTBOX_STATES, PRIORITY } from '../../../shared/domain';
import type {
  LocalPost,
  OutboxItem,
  OutboxState,
  QueueGroup,
  QueueRow,
  RateGauge,
} from '../../../shared/domain';
import { SvelteSet } from 'svelte/reactivity';
import { explainFailure } from '../../../shared/failures';
import { coalesce } from '../lib/coalesce';
import { formatDateTime } from '../lib/format';
import type { Shell } from './shell.svelte';

export const RETRYABLE: readonly OutboxState[] = ['failed', 'cancelled', 'retrying'];
export const CANCELLABLE: readonly OutboxState[] = ['queued', 'retrying', 'failed'];

export interface GaugeView {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, never negative. */
  resetsIn: number;
  inFlight: number;
  waiting: number;
}

/** The gauge as shown at `now`: the countdown runs between the core's status reports. */
export function gaugeView(rate: RateGauge, now: number): GaugeView {
  return {
    limit: rate.limit,
    remaining: Math.max(0, Math.min(rate.remaining, rate.limit)),
    resetsIn: Math.max(0, Math.ceil((rate.resetAtMs - now) / 1000)),
    inFlight: rate.inFlight,
    waiting: rate.waiting,
  };
}

/** The queue events and changes after which the list is out of date. */
function touchesQueue(event: CoreEvent): boolean {
  switch (event.type) {
    case 'done':
    case 'retrying':
    case 'failed':
    case 'missed':
    case 'paused':
      return true;
    case 'changed':
      return event.what === 'queue' || event.what === 'posts';
    default:
      return false;
  }
}

export class QueueState {
  rows = $state.raw<QueueRow[]>([]);
  /** The row whose detail is open. */
  selectedId = $state<string | null>(null);
  missed = $state.raw<LocalPost[]>([]);
  /** One state, or null for every item. */
  filter = $state<OutboxState | null>(null);
  loaded = $state(false);
  error = $state<string | null>(null);
  /** Items with a retry or cancel on its way, so their buttons wait. */
  readonly busy = new SvelteSet<number>();
  now = $state(Date.now());
  readonly states = OUTBOX_STATES;

  constructor(private readonly shell: Shell) {}

  get paused(): string | null {
    return this.shell.status?.paused ?? null;
  }

  get online(): boolean | null {
    return this.shell.status?.online ?? null;
  }

  get gauge(): GaugeView | null {
    const rate = this.shell.status?.rateLimit;
    return rate ? gaugeView(rate, this.now) : null;
  }

  get selected(): QueueRow | null {
    return this.rows.find((row) => row.id === this.selectedId) ?? null;
  }

  /** The rows of one group, in the core's order (what goes next: soonest first). */
  group(group: QueueGroup): QueueRow[] {
    return this.rows.filter((row) => row.group === group);
  }

  open(row: QueueRow): void {
    this.selectedId = this.selectedId === row.id ? null : row.id;
  }

  close(): void {
    this.selectedId = null;
  }

  /** Opens a row's post in its editor on the Calendar (to fix what made it fail). */
  openPost(row: QueueRow): void {
    if (row.postId !== null) this.shell.openPost(row.postId);
  }

  /** How many items each state has, from the core's status (it counts beyond the list's limit). */
  count(state: OutboxState): number | null {
    return this.shell.status?.outbox[state] ?? null;
  }

  readonly load = coalesce(async () => {
    const filter = this.filter;
    const [queue, missed] = await Promise.all([
      this.shell.api.listQueue(filter ? { states: [filter] } : {}),
      this.shell.api.listPosts({ status: 'missed' }),
    ]);
    // A filter changed while this load ran: its own load is coming.
    if (filter !== this.filter) return;
    if (queue.ok) this.rows = queue.value;
    if (missed.ok) this.missed = missed.value;
    const failure = [queue, missed].find((result) => !result.ok);
    this.error = failure && !failure.ok ? failure.error.message : null;
    this.loaded = true;
  });

  setFilter(filter: OutboxState | null): Promise<void> {
    this.filter = filter;
    return this.load();
  }

  /** Follows the core's events and ticks the countdown; returns the way to stop. */
  watch(): () => void {
    const stopEvents = this.shell.onEvent((event) => {
      if (touchesQueue(event)) void this.load();
    });
    const timer = setInterval(() => (this.now = Date.now()), 1_000);
    return () => {
      stopEvents();
      clearInterval(timer);
    };
  }

  /**
   * A cancelled post went back to the drafts: it is scheduled again from its editor, not retried
   * from here (a retry would publish it at once, whatever its time).
   */
  canRetry(row: QueueRow): boolean {
    if (!row.item || this.busy.has(row.item.id) || this.needsEdit(row)) return false;
    if (row.item.state === 'cancelled' && row.postStatus === 'draft') return false;
    return RETRYABLE.includes(row.item.state);
  }

  /**
   * A failed post the platform will refuse again as it is (its bot is gone, a field was refused):
   * it is opened and changed, not retried.
   */
  needsEdit(row: QueueRow): boolean {
    if (row.postId === null || row.item?.state !== 'failed') return false;
    return explainFailure({ ...row.item, reason: row.item.lastError }).needsEdit === true;
  }

  canCancel(row: QueueRow): boolean {
    return !!row.item && CANCELLABLE.includes(row.item.state) && !this.busy.has(row.item.id);
  }

  /** A lookup could not tell whether the item went out: the user looks and says which. */
  awaitsCheck(row: QueueRow): boolean {
    return (
      !!row.item &&
      row.item.outcomeUnknown &&
      row.item.state === 'failed' &&
      !this.busy.has(row.item.id)
    );
  }

  /** "I checked: it is not there, send it". */
  resendUnsent(row: QueueRow): Promise<void> {
    return this.act(row, 'queued', (id) => this.shell.api.resendItem({ id }), 'Could not send it');
  }

  /** "It is there: mark published". */
  markPublished(row: QueueRow): Promise<void> {
    return this.act(
      row,
      'done',
      (id) => this.shell.api.markItemPublished({ id }),
      'Could not mark it published',
    );
  }

  retry(row: QueueRow): Promise<void> {
    return this.act(row, 'queued', (id) => this.shell.api.retryItem({ id }), 'Could not retry');
  }

  /** Cancels a row's item; a post goes back to the drafts, and the notice says so. */
  async cancel(row: QueueRow): Promise<void> {
    await this.act(row, 'cancelled', (id) => this.shell.api.cancelItem({ id }), 'Could not cancel');
    const { postId } = row;
    const cancelled = this.rows.find((candidate) => candidate.id === row.id);
    if (postId === null || cancelled?.item?.state !== 'cancelled') return;
    this.replace({ ...cancelled, postStatus: 'draft' });
    this.shell.notices.show('info', 'Not published: the post is a draft again.', 10_000, {
      label: 'Open the draft',
      run: () => this.shell.openPost(postId),
    });
  }

  /** Shows the new state at once, then the core's item, or the old row again if it refused. */
  private async act(
    row: QueueRow,
    expected: OutboxState,
    call: (id: number) => Promise<CallResult<OutboxItem>>,
    doing: string,
  ): Promise<void> {
    const { item } = row;
    if (!item) return;
    this.busy.add(item.id);
    this.replace({ ...row, item: { ...item, state: expected } });
    const answer = await this.shell.attempt(call(item.id), doing);
    this.replace(answer ? { ...row, item: answer } : row);
    this.busy.delete(item.id);
  }

  private replace(row: QueueRow): void {
    this.rows = this.rows.map((candidate) => (candidate.id === row.id ? row : candidate));
  }

  async pause(): Promise<void> {
    await this.shell.attempt(this.shell.api.pauseQueue({}), 'Could not pause the queue');
    await this.shell.refreshStatus();
  }

  async resume(): Promise<void> {
    await this.shell.attempt(this.shell.api.resumeQueue({}), 'Could not resume the queue');
    await this.shell.refreshStatus();
  }

  /** A post waiting for its time can go now instead (Publish now, after a question). */
  canPublishNow(row: QueueRow): boolean {
    const { item } = row;
    return (
      row.postId !== null &&
      item?.state === 'queued' &&
      item.priority === PRIORITY.due &&
      !this.busy.has(item.id)
    );
  }

  publishNowQuestion(row: QueueRow): string {
    const zone = this.shell.timezone;
    return `Publish now instead of at ${formatDateTime(row.at, zone)} (${zone})?`;
  }

  /** The row's post goes now instead of at its time. */
  async publishNowRow(row: QueueRow): Promise<void> {
    if (row.postId !== null) await this.publishNow(row.postId);
  }

  /** A missed post, or one waiting for its time, goes now (a team's approval may refuse it). */
  async publishNow(postId: number): Promise<void> {
    const queued = await this.shell.attempt(
      this.shell.api.queuePost({ id: postId, mode: 'publish_now' }),
      'Could not publish the post',
    );
    if (queued) this.shell.notices.show('success', 'Post queued to publish now');
    await this.load();
  }

  /**
   * Moves a missed post to a new wall time in `zone` and queues it again. Answers the core's
   * reason when it refuses (a time the clocks skip, a past time), for the form to show.
   */
  async reschedule(post: LocalPost, at: string, zone: string): Promise<string | null> {
    const moved = await this.shell.api.updatePost({ id: post.id, at, zone });
    if (!moved.ok) return moved.error.message;
    const queued = await this.shell.api.queuePost({ id: post.id, mode: 'schedule' });
    await this.load();
    if (!queued.ok) return queued.error.message;
    this.shell.notices.show('success', 'Post rescheduled');
    return null;
  }
}
