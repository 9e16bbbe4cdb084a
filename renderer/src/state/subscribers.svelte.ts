// The subscribers screen's state (browser): a page of synced subscribers searched and filtered
// by tag, the one opened in detail, messages sent to them and tags added (both through the
// queue), and a broadcast to a tag followed until every recipient is done or failed.
import type {
  BotSummary,
  OutboxState,
  SubscriberDetail,
  SubscriberSummary,
  TagAudience,
} from '../../../shared/domain';
import { coalesce } from '../lib/coalesce';
import { OutboxWatch } from './outbox-watch';
import { PagedList } from './paged-list.svelte';
import { PendingWrites } from './pending-writes.svelte';
import { syncFor, touchesCache } from './platform-sync';
import type { Shell } from './shell.svelte';

/** A message sent from this screen, as far as the queue has taken it. */
export interface SentMessage {
  key: number;
  subscriberId: string;
  text: string;
  /** `sending` until the core answers the call. */
  state: 'sending' | 'queued' | 'retrying' | 'done' | 'failed';
  reason: string | null;
}

export interface ShownTag {
  tag: string;
  /** Added here and not yet confirmed by the platform. */
  pending: boolean;
}

export interface BroadcastRun {
  group: string;
  tag: string;
  recipients: number;
  /** The recipients' items by state; null until the first report. */
  counts: Record<OutboxState, number> | null;
}

export interface BroadcastTally {
  sent: number;
  failed: number;
  waiting: number;
  finished: boolean;
}

/** What a broadcast's counts mean to the user; a cancelled message counts as not sent. */
export function tally(run: BroadcastRun): BroadcastTally {
  const counts = run.counts;
  const sent = counts?.done ?? 0;
  const failed = (counts?.failed ?? 0) + (counts?.cancelled ?? 0);
  return {
    sent,
    failed,
    waiting: Math.max(0, run.recipients - sent - failed),
    finished: sent + failed >= run.recipients,
  };
}

/** How often a running broadcast asks for its counts when no queue event says it moved. */
const PROGRESS_POLL_MS = 1_500;

const sameTag = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export class SubscribersState {
  /** Only subscribers with this tag; empty for everyone. */
  tag = $state('');
  detail = $state.raw<SubscriberDetail | null>(null);
  detailError = $state<string | null>(null);
  messages = $state.raw<SentMessage[]>([]);
  broadcastRun = $state.raw<BroadcastRun | null>(null);
  broadcastError = $state<string | null>(null);
  /** Known tags and their active subscribers: a broadcast's suggestions and count. */
  audiences = $state.raw<TagAudience[]>([]);
  syncing = $state(false);
  /** The bots, to name each subscriber's (one person on three bots is three subscribers). */
  bots = $state.raw<BotSummary[]>([]);
  refreshError = $state<string | null>(null);
  readonly list: PagedList<SubscriberSummary>;
  readonly tagWrites: PendingWrites<{ subscriberId: string; tag: string }>;
  private readonly sentItems = new OutboxWatch();
  private nextMessage = 1;
  private detailRequest = 0;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private watching = false;

  constructor(private readonly shell: Shell) {
    this.list = new PagedList((query) => {
      const tag = this.tag.trim();
      return shell.api.listSubscribers({ ...query, ...(tag ? { tag } : {}) });
    });
    this.tagWrites = new PendingWrites(shell.notices, () => void this.refresh());
  }

  /** True when a search or tag narrows the list, so an empty page means "no match". */
  get narrowed(): boolean {
    return this.tag.trim() !== '' || this.list.search.trim() !== '';
  }

  get broadcastTally(): BroadcastTally | null {
    return this.broadcastRun && tally(this.broadcastRun);
  }

  /** A subscriber's tags with the ones added here laid over (the cache learns them at a sync). */
  tagsOf(subscriber: SubscriberSummary): ShownTag[] {
    const shown: ShownTag[] = subscriber.tags.map((tag) => ({ tag, pending: false }));
    for (const write of this.tagWrites.list) {
      if (write.subscriberId !== subscriber.id) continue;
      if (shown.some((existing) => sameTag(existing.tag, write.tag))) continue;
      shown.push({ tag: write.tag, pending: !write.settled });
    }
    return shown;
  }

  messagesTo(subscriberId: string): SentMessage[] {
    return this.messages.filter((message) => message.subscriberId === subscriberId);
  }

  async load(): Promise<void> {
    await Promise.all([
      this.list.load(),
      this.reloadDetail(),
      this.loadBots(),
      this.loadAudiences(),
    ]);
  }

  private async loadBots(): Promise<void> {
    const bots = await this.shell.api.listBots({});
    // Without them the column shows the bots' ids; the list itself still reads.
    if (bots.ok) this.bots = bots.value;
  }

  /** The name of a subscriber's bot, else its id; a dash for none. */
  botName(botId: string | null): string {
    if (botId === null) return '—';
    return this.bots.find((bot) => bot.id === botId)?.name ?? botId;
  }

  private async loadAudiences(): Promise<void> {
    const result = await this.shell.api.listTagAudiences({});
    if (result.ok) this.audiences = result.value;
  }

  /** How many active subscribers a broadcast to `tag` reaches, as last synced (tags match without case). */
  audienceOf(tag: string): number {
    const wanted = tag.trim();
    return this.audiences.find((audience) => sameTag(audience.tag, wanted))?.recipients ?? 0;
  }

  /** Pulls from the platform, then shows the page and the open subscriber again. */
  readonly refresh = coalesce(() =>
    this.tagWrites.refreshing(async () => {
      this.syncing = true;
      this.refreshError = await syncFor(this.shell.api, 'subscribers');
      this.syncing = false;
      await this.load();
      return !this.refreshError && !this.list.error;
    }),
  );

  async open(id: string): Promise<void> {
    const request = ++this.detailRequest;
    const result = await this.shell.api.getSubscriber({ id });
    // Another subscriber was opened meanwhile: only the newest may land.
    if (request !== this.detailRequest) return;
    this.detail = result.ok ? result.value : null;
    this.detailError = result.ok ? null : result.error.message;
  }

  close(): void {
    this.detailRequest++;
    this.detail = null;
    this.detailError = null;
  }

  private async reloadDetail(): Promise<void> {
    if (this.detail) await this.open(this.detail.id);
  }

  /** Adds a tag at once; answers the core's reason when it refuses, for the form to show. */
  addTag(subscriber: SubscriberSummary, tag: string): Promise<string | null> {
    const wanted = tag.trim();
    if (this.tagsOf(subscriber).some((shown) => sameTag(shown.tag, wanted)))
      return Promise.resolve(`${subscriber.name} already has the tag “${wanted}”`);
    return this.tagWrites.send(
      { subscriberId: subscriber.id, tag: wanted },
      () => this.shell.api.addTag({ subscriberId: subscriber.id, tag: wanted }),
      `Could not tag ${subscriber.name} “${wanted}”`,
    );
  }

  /** Queues a message; answers the core's reason when it refuses, for the form to show. */
  async sendMessage(subscriberId: string, text: string): Promise<string | null> {
    const key = this.nextMessage++;
    this.messages = [...this.messages, { key, subscriberId, text, state: 'sending', reason: null }];
    const result = await this.shell.api.sendMessage({ subscriberId, text });
    if (!result.ok) {
      this.messages = this.messages.filter((message) => message.key !== key);
      return result.error.message;
    }
    this.updateMessage(key, { state: 'queued' });
    this.sentItems.follow(result.value, {
      done: () => this.updateMessage(key, { state: 'done', reason: null }),
      failed: (reason) => this.updateMessage(key, { state: 'failed', reason }),
      retrying: (reason) => this.updateMessage(key, { state: 'retrying', reason }),
    });
    return null;
  }

  private updateMessage(key: number, patch: Partial<SentMessage>): void {
    this.messages = this.messages.map((message) =>
      message.key === key ? { ...message, ...patch } : message,
    );
  }

  /**
   * Queues `text` for every active subscriber with `tag` and follows it; answers a refusal. The
   * core sends nothing when the platform's count is not the `recipients` the user agreed to.
   */
  async broadcast(tag: string, text: string, agreed: number): Promise<string | null> {
    this.broadcastError = null;
    const result = await this.shell.api.broadcast({ tag, text, recipients: agreed });
    if (!result.ok) {
      void this.loadAudiences();
      return result.error.message;
    }
    const { group, recipients } = result.value;
    this.broadcastRun = { group, tag: tag.trim(), recipients, counts: null };
    this.stopPolling();
    // Polls only while the screen is open; the Queue screen shows each message after that.
    if (recipients > 0 && this.watching) {
      this.pollTimer = setInterval(() => void this.pollProgress(), PROGRESS_POLL_MS);
      await this.pollProgress();
    }
    return null;
  }

  readonly pollProgress = coalesce(async () => {
    const run = this.broadcastRun;
    if (!run) return;
    const result = await this.shell.api.broadcastProgress({ group: run.group });
    // A newer broadcast replaced this one meanwhile.
    if (this.broadcastRun?.group !== run.group) return;
    if (!result.ok) {
      this.broadcastError = result.error.message;
      return;
    }
    this.broadcastError = null;
    this.broadcastRun = { ...run, counts: result.value };
    if (tally(this.broadcastRun).finished) this.stopPolling();
  });

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** Follows the core's events; returns the way to stop. */
  watch(): () => void {
    this.watching = true;
    const stop = this.shell.onEvent((event) => {
      this.tagWrites.handle(event);
      this.sentItems.handle(event);
      if (touchesCache(event)) void this.load();
      const group = this.broadcastRun?.group;
      if (group && 'item' in event && event.item.groupId === group && this.pollTimer)
        void this.pollProgress();
    });
    return () => {
      this.watching = false;
      stop();
      this.stopPolling();
      this.list.cancelPendingRestart();
    };
  }
}
