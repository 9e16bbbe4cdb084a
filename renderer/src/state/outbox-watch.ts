// Following the outbox items a screen queued until the queue settles them (browser): the bots
// and subscribers screens show a write as pending, then done, or rolled back with the reason.
import type { CoreEvent, QueueEvent } from '../../../shared/answers';
import type { OutboxItem } from '../../../shared/domain';

export interface ItemOutcome {
  done(remoteId: string | null): void;
  failed(reason: string): void;
  /** The queue will try again; the item is still pending. */
  retrying?(reason: string): void;
}

type Settled = Extract<QueueEvent, { type: 'done' } | { type: 'failed' }>;

/** How many settled items to remember for calls whose answer arrives after the item's event. */
const REMEMBERED = 200;

export class OutboxWatch {
  private readonly waiting = new Map<number, ItemOutcome>();
  // A write goes first in the queue, so its event can beat the call's own answer over the wire.
  private readonly settled = new Map<number, Settled>();

  /** Calls `outcome` when the queue settles `item` (at once if it already has). */
  follow(item: OutboxItem, outcome: ItemOutcome): void {
    const early = this.settled.get(item.id);
    if (early) return settle(early, outcome);
    if (item.state === 'done') return outcome.done(item.remoteId);
    if (item.state === 'failed' || item.state === 'cancelled')
      return outcome.failed(item.lastError ?? `the item was ${item.state}`);
    this.waiting.set(item.id, outcome);
  }

  /** Feed it every core event (from `shell.onEvent`). */
  handle(event: CoreEvent): void {
    if (event.type === 'retrying') {
      this.waiting.get(event.item.id)?.retrying?.(event.reason);
      return;
    }
    if (event.type !== 'done' && event.type !== 'failed') return;
    const outcome = this.waiting.get(event.item.id);
    if (outcome) {
      this.waiting.delete(event.item.id);
      settle(event, outcome);
      return;
    }
    this.settled.set(event.item.id, event);
    if (this.settled.size > REMEMBERED) {
      const oldest = this.settled.keys().next().value;
      if (oldest !== undefined) this.settled.delete(oldest);
    }
  }
}

function settle(event: Settled, outcome: ItemOutcome): void {
  if (event.type === 'done') outcome.done(event.remoteId);
  else outcome.failed(event.reason);
}
