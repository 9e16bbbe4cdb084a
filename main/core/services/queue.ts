// The queue (Node, main process): the outbox as the user works it (list, retry, cancel, pause,
// resume), publishing passes, the watch loop with pull sync, and the workspace's status. Other
// services tell it when they changed the outbox, so the publisher looks at once.
import type { OperationInput } from '../../../shared/contract';
import type { OutboxItem, QueueRow, Status } from '../../../shared/domain';
import { PRIORITY } from '../../../shared/domain';
import type { DrainReport, Publisher } from '../../queue/publisher';
import type { Scheduler } from '../../queue/scheduler';
import type { WorkspaceStore } from '../../store';
import type { PullSync, SyncProgress, SyncReport } from '../../sync/pull';
import { InvalidInput, NotAllowed, NotConnected } from '../errors';
import type { CoreEvents } from '../events';
import type { GovernedClient } from '../governed-client';
import { validate } from '../input';
import { queueRows } from '../queue-rows';
import type { MediaService } from './media';

/** The engine that sends the outbox; all null without a platform account. */
export interface QueueEngine {
  publisher: Publisher | null;
  scheduler: Scheduler | null;
  puller: PullSync | null;
  /**
   * How long `publishUntilEmpty` waits for another process's lease (its end, or its beat standing
   * still long enough to take it over) before it gives up, naming the holder.
   */
  leaseWaitMs: number;
}

/** How often a process waiting for the lease looks again. */
const LEASE_POLL_MS = 250;

export class QueueService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly platform: GovernedClient,
    private readonly media: MediaService,
    private readonly engine: QueueEngine,
  ) {}

  /**
   * The outbox changed at the user's hand: watchers (another window) read it again, and the
   * publisher looks at once. `posts` when posts' states changed with it.
   */
  changed(posts = false): void {
    if (posts) this.events.emit({ type: 'changed', what: 'posts' });
    this.events.emit({ type: 'changed', what: 'queue' });
    void this.engine.scheduler?.wake();
  }

  /** A write the user asked for (a message, a tag, a bot change): it goes ahead of routine work. */
  enqueueUserWrite(
    kind: 'send_message' | 'add_tag' | 'create_bot' | 'update_bot' | 'delete_bot',
    payload: Record<string, string>,
    groupId?: string,
  ): OutboxItem {
    const item = this.store.outbox.enqueue({
      kind,
      payload,
      priority: PRIORITY.user,
      dueAt: this.now(),
      groupId: groupId ?? null,
    });
    this.changed();
    return item;
  }

  listQueue(input: OperationInput<'listQueue'> = {}): QueueRow[] {
    const { states, limit } = validate('listQueue', input);
    return queueRows(this.store, { states, limit, now: this.now() }, (urls) =>
      this.media.thumbnailUrl(urls),
    );
  }

  retryItem(input: OperationInput<'retryItem'>): OutboxItem {
    const { id } = validate('retryItem', input);
    if (!this.store.outbox.retry(id, PRIORITY.user))
      throw this.refusal(id, 'retried', 'failed, cancelled or waiting to retry');
    this.changed(true);
    return this.store.outbox.require(id);
  }

  /** The user looked on the platform and it is not there: sent again, without looking first. */
  resendItem(input: OperationInput<'resendItem'>): OutboxItem {
    const { id } = validate('resendItem', input);
    if (!this.store.outbox.resendUnsent(id, PRIORITY.user))
      throw this.refusal(id, 'sent again unlooked', 'failed or waiting with an unknown outcome');
    this.changed(true);
    return this.store.outbox.require(id);
  }

  /** The user looked on the platform and it is there: published, linked to its id if given. */
  markItemPublished(input: OperationInput<'markItemPublished'>): OutboxItem {
    const { id, remoteId } = validate('markItemPublished', input);
    if (!this.store.outbox.markFoundByUser(id, remoteId ?? null, this.now()))
      throw this.refusal(id, 'marked published', 'failed or waiting with an unknown outcome');
    this.changed(true);
    return this.store.outbox.require(id);
  }

  cancelItem(input: OperationInput<'cancelItem'>): OutboxItem {
    const { id } = validate('cancelItem', input);
    if (!this.store.outbox.cancel(id))
      throw this.refusal(id, 'cancelled', 'queued, retrying or failed');
    this.changed(true);
    return this.store.outbox.require(id);
  }

  private refusal(id: number, verb: string, allowed: string): Error {
    const item = this.store.outbox.get(id);
    if (!item) return new InvalidInput([{ field: 'id', message: `no queue item ${id}` }]);
    return new NotAllowed(
      `Queue item ${id} is ${item.state}; only items that are ${allowed} can be ${verb}`,
    );
  }

  /** The user's pause: nothing new is sent until resumed. */
  pauseQueue(): void {
    this.requirePublisher().pause('Paused by you');
  }

  /** Resumes after the user's pause, or after a refused token was fixed, and sends what is due. */
  resumeQueue(): void {
    this.requirePublisher().resume();
    this.changed();
  }

  status(): Status {
    return {
      outbox: this.store.outbox.counts(),
      posts: this.store.posts.counts(),
      products: this.store.products.counts(),
      rateLimit: this.platform.governor.state(),
      paused: this.engine.publisher?.paused ?? null,
      online: this.platform.online,
      requests: this.platform.stats.requests,
      rateLimited: this.platform.stats.rateLimited,
      sync: this.store.cache.syncStates(),
    };
  }

  private requirePublisher(): Publisher {
    if (!this.engine.publisher) throw new NotConnected();
    return this.engine.publisher;
  }

  /** One pass: sends everything due now. */
  publishDue(): Promise<DrainReport> {
    return this.requirePublisher().drain();
  }

  /**
   * Keeps publishing, waiting for future due times, until nothing is queued or retrying. While
   * another process holds the lease it waits for it (the holder's end, or its staleness); a
   * holder still alive after the engine's `leaseWaitMs` is an error naming it, never a success.
   */
  async publishUntilEmpty(onProgress?: (report: DrainReport) => void): Promise<DrainReport> {
    const publisher = this.requirePublisher();
    const total: DrainReport = { published: 0, failed: 0, missed: 0, retrying: 0 };
    let waitingSince: number | null = null;
    for (;;) {
      const report = await publisher.drain();
      total.published += report.published;
      total.failed += report.failed;
      total.missed += report.missed;
      onProgress?.(total);
      const next = this.store.outbox.nextReadyAt();
      const holder = publisher.leaseHeldElsewhere;
      if (next === null || (publisher.paused && !holder)) return total;
      let wait = Math.max(0, next - this.now());
      if (holder) {
        waitingSince ??= performance.now();
        if (performance.now() - waitingSince >= this.engine.leaseWaitMs) {
          const { queued, sending, retrying } = this.store.outbox.counts();
          throw new NotAllowed(
            `${holder}: it still does after ${Math.round(this.engine.leaseWaitMs / 1000)} s, with ${queued + sending + retrying} items left to send. Run publish again once it has stopped.`,
          );
        }
        wait = LEASE_POLL_MS;
      } else waitingSince = null;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Fetches every page of the platform's records into the cache, at the lowest priority. */
  sync(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> {
    if (!this.engine.puller) throw new NotConnected();
    return this.pull(this.engine.puller, onProgress);
  }

  /** One pull sync; screens showing cached records (orders, bots, ...) hear of it and reload. */
  private async pull(
    puller: PullSync,
    onProgress?: (progress: SyncProgress) => void,
  ): Promise<SyncReport> {
    const report = await puller.run(onProgress);
    this.events.emit({ type: 'changed', what: 'cache' });
    return report;
  }

  /**
   * Runs the heartbeat, and pull sync every `syncEveryMs` (5 minutes), until `stop` resolves; the
   * first sync at once, unless the caller has just synced.
   */
  async watch(stop: Promise<unknown>, syncEveryMs = 5 * 60_000, synced = false): Promise<void> {
    this.requirePublisher();
    const { scheduler, puller } = this.engine;
    scheduler?.start();
    const syncNow = () => void (puller && this.pull(puller).catch(() => undefined));
    if (!synced) syncNow();
    const syncing = setInterval(syncNow, syncEveryMs);
    await stop;
    clearInterval(syncing);
    await scheduler?.stop();
  }
}
