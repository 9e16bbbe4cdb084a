// The user's writes to cached platform records (browser): shown at once, sent through the queue,
// dropped (rolled back) when the queue fails them, and kept after it is done until a sync shows
// them, since the cache learns of a write only from a sync.
import type { CallResult, CoreEvent } from '../../../shared/answers';
import type { OutboxItem } from '../../../shared/domain';
import type { Notices } from './notices.svelte';
import { OutboxWatch } from './outbox-watch';

interface PendingFields {
  key: number;
  /** The queue is done with it; only the cache still lacks it. */
  settled: boolean;
  /** Why the queue is trying again, while it does. */
  note: string | null;
}

export type Pending<W> = W & PendingFields;

export class PendingWrites<W extends object> {
  list = $state.raw<Pending<W>[]>([]);
  private readonly outbox = new OutboxWatch();
  private nextKey = 1;

  constructor(
    private readonly notices: Notices,
    /** Called when the queue is done with a write (the screen syncs then). */
    private readonly onDone: () => void,
  ) {}

  /** Feed it every core event. */
  handle(event: CoreEvent): void {
    this.outbox.handle(event);
  }

  /**
   * Shows `write`, makes the call and follows its queue item. Answers the core's reason when it
   * refuses the call (the write is dropped); a later failure in the queue is shown as a notice
   * starting with `doing`. `done` may fill in what the platform answered (a new id).
   */
  async send(
    write: W,
    call: () => Promise<CallResult<OutboxItem>>,
    doing: string,
    done?: (remoteId: string | null) => Partial<W>,
  ): Promise<string | null> {
    const key = this.nextKey++;
    this.list = [...this.list, { ...write, key, settled: false, note: null }];
    const result = await call();
    if (!result.ok) {
      this.drop(key);
      return result.error.message;
    }
    this.outbox.follow(result.value, {
      done: (remoteId) => {
        this.patch(key, done?.(remoteId) ?? {}, { settled: true, note: null });
        this.onDone();
      },
      failed: (reason) => {
        this.drop(key);
        this.notices.error(reason, doing);
      },
      retrying: (reason) => this.patch(key, {}, { note: reason }),
    });
    return null;
  }

  /**
   * Runs `reload` (a sync, then the list again); when it answers true, the writes settled before
   * it began are in the list now and are dropped. Only after the reload, or the old list would
   * flash back meanwhile.
   */
  async refreshing(reload: () => Promise<boolean>): Promise<void> {
    const shown = this.list.filter((write) => write.settled).map((write) => write.key);
    if (await reload()) this.list = this.list.filter((write) => !shown.includes(write.key));
  }

  private patch(key: number, patch: Partial<W>, fields: Partial<PendingFields>): void {
    this.list = this.list.map((write) =>
      write.key === key ? { ...write, ...patch, ...fields } : write,
    );
  }

  private drop(key: number): void {
    this.list = this.list.filter((write) => write.key !== key);
  }
}
