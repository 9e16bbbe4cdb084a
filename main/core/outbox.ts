// The outbox's owner in the core (Node, main process): every write a core service makes to the
// outbox (enqueue, reopen, reschedule, retry, cancel, the user's verdicts) goes through here,
// and each tells the workspace's watchers once and wakes the publisher, so no caller has to
// remember to. Services are handed this, never store/outbox.ts (lint: the rooms' allow-list).
import type { OutboxItem, OutboxKind, OutboxState, Priority } from '../../shared/domain';
import { PRIORITY } from '../../shared/domain';
import type { NewOutboxItem, OutboxStore } from '../store/outbox';
import type { CoreEvents } from './events';

/** What looks at the outbox at once when told (the scheduler); none without an account. */
export interface Waker {
  wake(): unknown;
}

/** When and how a post's item goes: its priority, due time and payload. */
export type PostDelivery = Pick<NewOutboxItem, 'priority' | 'dueAt' | 'payload'>;

/** A write the user asked for, ahead of routine work. */
export type UserWriteKind = Extract<
  OutboxKind,
  'send_message' | 'add_tag' | 'create_bot' | 'update_bot' | 'delete_bot'
>;

export class Outbox {
  constructor(
    private readonly items: OutboxStore,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly publisher: Waker | null,
  ) {}

  get(id: number): OutboxItem | undefined {
    return this.items.get(id);
  }

  require(id: number): OutboxItem {
    return this.items.require(id);
  }

  /** The waiting or sending item of a post or product, if any. */
  openFor(subject: { postId: number } | { productId: number }): OutboxItem | undefined {
    return this.items.openFor(subject);
  }

  /** The Queue's items: failed first, then by when they go, then the past. */
  rows(states: readonly OutboxState[] | undefined, limit: number): OutboxItem[] {
    return this.items.rows(states, limit);
  }

  counts(groupId?: string): Record<OutboxState, number> {
    return this.items.counts(groupId);
  }

  nextReadyAt(): number | null {
    return this.items.nextReadyAt();
  }

  /** New items (products, a broadcast's messages), told once for them all. */
  enqueue(items: readonly NewOutboxItem[]): OutboxItem[] {
    const made = items.map((item) => this.items.enqueue(item));
    if (made.length > 0) this.changed(made.some((item) => item.postId !== null));
    return made;
  }

  /** A write the user asked for (a message, a tag, a bot change): it goes ahead of routine work. */
  enqueueUserWrite(
    kind: UserWriteKind,
    payload: Record<string, string>,
    groupId?: string,
  ): OutboxItem {
    const item = this.items.enqueue({
      kind,
      payload,
      priority: PRIORITY.user,
      dueAt: this.now(),
      groupId: groupId ?? null,
    });
    this.changed(false);
    return item;
  }

  /**
   * Puts a post in the outbox. An unsettled earlier attempt is reopened with its key, so it is
   * looked up before anything is sent; `afresh`, a failed attempt whose outcome is known is
   * cancelled first, so it can never be retried into a second copy.
   */
  queuePost(postId: number, delivery: PostDelivery, afresh = false): void {
    if (afresh) {
      const latest = this.items.latestForPost(postId);
      if (latest?.state === 'failed' && !latest.outcomeUnknown) this.items.cancel(latest.id);
    }
    const unsettled = this.items.unsettledForPost(postId);
    if (unsettled) this.items.reopen(unsettled.id, delivery);
    else this.items.enqueue({ kind: 'create_post', postId, ...delivery });
    this.changed(true);
  }

  /** Moves a waiting item to another time (its post was rescheduled). */
  reschedule(id: number, dueAt: number): void {
    this.items.reschedule(id, dueAt);
    this.changed(true);
  }

  /** Sends a post waiting for its time now instead (the user asked); false when it no longer waits. */
  publishNow(id: number): boolean {
    return this.told(this.items.publishNow(id, this.now()));
  }

  /**
   * A post was edited (its text, bot, pictures or time) without its item moving: its rows in
   * the Queue change, and a time it may now be due at is looked at.
   */
  postEdited(): void {
    this.changed(true);
  }

  /** Cancels an item that is queued, retrying or failed; false when it is not. */
  cancel(id: number): boolean {
    return this.told(this.items.cancel(id));
  }

  /** Sends a failed, cancelled or retrying item again, at `priority`; false when it cannot. */
  retry(id: number, priority: Priority): boolean {
    return this.told(this.items.retry(id, priority));
  }

  /** The user looked and it is not on the platform: sent again without looking first. */
  resendUnsent(id: number, priority: Priority): boolean {
    return this.told(this.items.resendUnsent(id, priority));
  }

  /** The user looked and it is on the platform: published, linked to its id if given. */
  markFoundByUser(id: number, remoteId: string | null): boolean {
    return this.told(this.items.markFoundByUser(id, remoteId, this.now()));
  }

  /** Another desktop of the team published the post (the team server's result): not sent here. */
  publishedElsewhere(id: number, remoteId: string, publishedAt: number): boolean {
    return this.told(this.items.markDoneElsewhere(id, remoteId, publishedAt));
  }

  /**
   * A CSV import or its undo wrote the outbox in its own transaction (main/csv/, the store's
   * undo), or the publisher resumed: watchers read again and the publisher looks at once.
   */
  lookAgain(): void {
    this.changed(false);
  }

  private told(done: boolean): boolean {
    if (done) this.changed(true);
    return done;
  }

  /** Watchers (another window) read the queue again, and the publisher looks at once. */
  private changed(posts: boolean): void {
    if (posts) this.events.emit({ type: 'changed', what: 'posts' });
    this.events.emit({ type: 'changed', what: 'queue' });
    void this.publisher?.wake();
  }
}
