// The queue (Node, main process): the outbox as the user works it (list, retry, cancel, pause,
// resume), publishing passes, the watch loop with pull sync, and the workspace's status. Its
// writes go through the outbox's owner (core/outbox.ts), which tells watchers and the publisher.
import type { CheckedInput } from '../../../shared/contract';
import type { OutboxItem, QueueRow, Status } from '../../../shared/domain';
import { PRIORITY } from '../../../shared/domain';
import type { DrainReport, Publisher } from '../../queue/publisher';
import type { Scheduler } from '../../queue/scheduler';
import type { CacheStore } from '../../store/cache';
import type { PostsStore } from '../../store/posts';
import type { ProductsStore } from '../../store/products';
import type { PullSync, SyncProgress, SyncReport } from '../../sync/pull';
import { InvalidInput, NotAllowed, NotConnected } from '../errors';
import type { CoreEvents } from '../events';
import type { GovernedClient } from '../governed-client';
import type { Outbox } from '../outbox';
import { queueRows } from '../queue-rows';
import type { MediaService } from './media';
import type { TeamService } from './team';

/** What the queue reads of the store beside the outbox: what its items are about, and counts. */
export interface QueueData {
  posts: PostsStore;
  products: ProductsStore;
  cache: CacheStore;
}

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
    private readonly store: QueueData,
    private readonly outbox: Outbox,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly platform: GovernedClient,
    private readonly media: MediaService,
    private readonly team: TeamService,
    private readonly engine: QueueEngine,
  ) {}

  listQueue(input: CheckedInput<'listQueue'>): QueueRow[] {
    const { states, limit } = input;
    const { posts, products, cache } = this.store;
    const rowsOf = { outbox: this.outbox, posts, products, cache };
    return queueRows(rowsOf, { states, limit, now: this.now() }, (urls) =>
      this.media.thumbnailUrl(urls),
    );
  }

  retryItem(input: CheckedInput<'retryItem'>): OutboxItem {
    const { id } = input;
    if (!this.outbox.retry(id, PRIORITY.user))
      throw this.refusal(id, 'retried', 'failed, cancelled or waiting to retry');
    return this.outbox.require(id);
  }

  /** The user looked on the platform and it is not there: sent again, without looking first. */
  resendItem(input: CheckedInput<'resendItem'>): OutboxItem {
    const { id } = input;
    if (!this.outbox.resendUnsent(id, PRIORITY.user))
      throw this.refusal(id, 'sent again unlooked', 'failed or waiting with an unknown outcome');
    return this.outbox.require(id);
  }

  /** The user looked on the platform and it is there: published, linked to its id if given. */
  markItemPublished(input: CheckedInput<'markItemPublished'>): OutboxItem {
    const { id, remoteId } = input;
    if (!this.outbox.markFoundByUser(id, remoteId ?? null))
      throw this.refusal(id, 'marked published', 'failed or waiting with an unknown outcome');
    return this.outbox.require(id);
  }

  cancelItem(input: CheckedInput<'cancelItem'>): OutboxItem {
    const { id } = input;
    if (!this.outbox.cancel(id)) throw this.refusal(id, 'cancelled', 'queued, retrying or failed');
    return this.outbox.require(id);
  }

  private refusal(id: number, verb: string, allowed: string): Error {
    const item = this.outbox.get(id);
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
    this.outbox.lookAgain();
  }

  status(): Status {
    return {
      outbox: this.outbox.counts(),
      posts: this.store.posts.counts(),
      products: this.store.products.counts(),
      rateLimit: this.platform.governor.state(),
      paused: this.engine.publisher?.paused ?? null,
      online: this.platform.online,
      requests: this.platform.stats.requests,
      rateLimited: this.platform.stats.rateLimited,
      sync: this.store.cache.syncStates(),
      team: this.team.status(),
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
      const next = this.outbox.nextReadyAt();
      const holder = publisher.leaseHeldElsewhere;
      if (next === null || (publisher.paused && !holder)) return total;
      let wait = Math.max(0, next - this.now());
      if (holder) {
        waitingSince ??= performance.now();
        if (performance.now() - waitingSince >= this.engine.leaseWaitMs) {
          const { queued, sending, retrying } = this.outbox.counts();
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
