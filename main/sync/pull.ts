// Pull sync (Node, main process): fetches every page of bots, posts, products, orders and
// subscribers into the workspace cache, at the lowest priority, through the governor; each page
// is written as it arrives, and a page refused for now is asked again.
import { PRIORITY } from '../../shared/domain';
import type { SyncOutcome } from '../../shared/domain';
import { SliceSizer, inSlices } from '../../shared/slices';
import type { SliceClock } from '../../shared/slices';
import type { PlatformClient } from '../platform/client';
import { PAGE_RETRY_RULES, retryingPages, walkList } from '../platform/lists';
import type { ListReading, Page, PageRetryRules, ReadIds } from '../platform/lists';
import { CLOCK_MARGIN_MS, freshProgress, normalizedText, postMatcher } from '../queue/lookup';
import type { Matcher } from '../queue/lookup';
import type { RetryRules } from '../queue/retry';
import type { Bot, Order, PageRequest, Post, Product, Subscriber } from '../platform/normalize';
import type { RateGovernor } from '../platform/governor';
import type { WorkspaceStore } from '../store';
import type { PrunedList } from '../store/cache';

export const SYNC_RESOURCES = ['bots', 'posts', 'products', 'orders', 'subscribers'] as const;
export type SyncResource = (typeof SYNC_RESOURCES)[number];

export interface SyncProgress {
  resource: SyncResource;
  fetched: number;
}

export type SyncReport = Record<SyncResource, SyncOutcome>;

const PER_PAGE = 200;
const millis = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

export class PullSync {
  private running: Promise<SyncReport> | null = null;
  /** A page's items written per transaction: as many as fit a slice's budget at the last pace. */
  private readonly pageSlices = new SliceSizer({ first: 50, min: 10, max: PER_PAGE });
  private readonly storeClock: SliceClock = {
    now: () => performance.now(),
    turn: () => this.store.room(),
  };

  constructor(
    private readonly store: WorkspaceStore,
    private readonly client: PlatformClient,
    private readonly governor: RateGovernor,
    private readonly retries: PageRetryRules = PAGE_RETRY_RULES,
  ) {}

  /** One full sync; a call while one runs joins it. */
  run(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> {
    this.running ??= this.store.cache
      .withSyncPageCache(() => this.all(onProgress))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async all(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> {
    const report = {} as SyncReport;
    for (const resource of SYNC_RESOURCES) {
      try {
        const outcome = await this.one(resource, (fetched) => onProgress?.({ resource, fetched }));
        report[resource] = outcome;
        const problem =
          typeof outcome === 'object' && 'notPruned' in outcome ? outcome.notPruned : null;
        this.store.cache.recordSync(resource, true, problem && `not pruned: ${problem}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        report[resource] = { error: message };
        this.store.cache.recordSync(resource, false, message);
      }
    }
    return report;
  }

  /**
   * One list read page by page, each page requested at sync priority (asked again when refused
   * for now) and handed to `onItems` as it arrives, so memory stays flat whatever its length, in
   * slices (each its own short transaction) with the app's other calls between them.
   */
  private walk<T extends { id: string }>(
    list: (request: PageRequest) => Promise<Page<T>>,
    onItems: (items: readonly T[]) => void,
    onPage: (fetched: number) => void,
    had?: ReadIds,
  ): Promise<ListReading> {
    const gated = async (request: PageRequest) => {
      // The last page's write may have grown the log long: its checkpoint first, off this thread.
      await this.store.room();
      const release = await this.governor.acquire(PRIORITY.sync);
      try {
        return await list(request);
      } finally {
        release();
      }
    };
    return walkList(
      retryingPages(gated, this.retries),
      async (items, read) => {
        // The page was read in slices of their own: its first write waits for the next turn.
        await this.store.room();
        await inSlices(items, this.pageSlices, this.storeClock, onItems);
        onPage(read);
      },
      had,
    );
  }

  /**
   * A list whose cached rows go once the platform no longer has them. When a whole read missed
   * rows for the first time it is read once more at once: a row that went is missed again and
   * deleted now, a live row one read missed (an offset shifted by a delete) is seen again.
   */
  private async pruned<T extends { id: string }>(
    name: PrunedList,
    list: (request: PageRequest) => Promise<Page<T>>,
    put: (items: readonly T[], generation: number) => void,
    onPage: (fetched: number) => void,
  ): Promise<SyncOutcome> {
    const readOnce = async () => {
      const generation = this.store.cache.beginRead(name);
      // What this read had is what it wrote: each row carries its generation (seen_in).
      const had: ReadIds = {
        hadBefore: (ids) => this.store.cache.readBefore(name, generation, ids),
        add: () => undefined,
      };
      const reading = await this.walk(list, (items) => put(items, generation), onPage, had);
      return {
        reading,
        ...(await this.store.cache.finishRead(name, generation, isWhole(reading))),
      };
    };
    const first = await readOnce();
    return outcomeOf(first.missedOnce > 0 ? (await readOnce()).reading : first.reading);
  }

  private async one(
    resource: SyncResource,
    onPage: (fetched: number) => void,
  ): Promise<SyncOutcome> {
    const { client, store } = this;
    const cache = store.cache;
    const page = { per_page: PER_PAGE };
    switch (resource) {
      case 'bots':
        return this.pruned(
          'bots',
          (request) => client.listBots({ ...page, ...request }),
          (bots, generation) => cache.putBots(bots.map(botRow), generation),
          onPage,
        );
      case 'subscribers':
        return this.pruned(
          'subscribers',
          (request) => client.listSubscribers({ ...page, ...request }),
          (subscribers, generation) =>
            cache.putSubscribers(subscribers.map(subscriberRow), generation),
          onPage,
        );
      case 'orders':
        return this.pruned(
          'orders',
          (request) => client.listOrders({ ...page, ...request }),
          (orders, generation) => cache.putOrders(orders.map(orderRow), generation),
          onPage,
        );
      case 'posts': {
        const list = (request: PageRequest) => client.listPosts({ ...page, ...request });
        const claims = sentPostClaims(this.store, () => this.governor.skewMs);
        const put = (posts: readonly Post[]) => cache.mergePosts(posts.map(postRow), claims(posts));
        return outcomeOf(await this.walk(list, put, onPage));
      }
      case 'products': {
        const list = (request: PageRequest) => client.listProducts({ ...page, ...request });
        const put = (products: readonly Product[]) => cache.mergeProducts(products.map(productRow));
        return outcomeOf(await this.walk(list, put, onPage));
      }
    }
  }
}

/**
 * For each page of the platform's posts, the ones this workspace sent without learning their ids
 * (a 2xx without a readable id, and a lookup that did not find it then), found by the lookup's
 * own matcher: remote id to local post, so that the merge links them rather than keeping a second
 * copy as someone else's. Only a post with the text of one waiting is matched (each page's texts
 * are normalized once, however many wait), and the latest sent first, so that of two posts with
 * the same text each takes the platform's post made after it was sent.
 */
function sentPostClaims(
  store: WorkspaceStore,
  skewMs: () => number,
): (page: readonly Post[]) => Map<string, number> {
  const claimed = new Set<string>();
  const waitingByText = new Map<string, { postId: number; match: Matcher<Post> }[]>();
  const latestFirst = store.outbox
    .postsSentWithoutId()
    .sort((a, b) => b.firstAttemptAt - a.firstAttemptAt);
  for (const sent of latestFirst) {
    const match = postMatcher({
      reference: sent.reference,
      botId: sent.botId,
      text: sent.text,
      sinceMs: () => sent.firstAttemptAt + skewMs() - CLOCK_MARGIN_MS,
      taken: (remoteId) =>
        claimed.has(remoteId) ||
        store.outbox.remoteIdOwned(remoteId, sent.itemId, sent.firstAttemptAt),
    });
    const text = normalizedText(sent.text);
    waitingByText.set(text, [...(waitingByText.get(text) ?? []), { postId: sent.postId, match }]);
  }
  return (page) => {
    const found = new Map<string, number>();
    if (waitingByText.size === 0) return found;
    for (const post of page) {
      const waiting = waitingByText.get(normalizedText(post.text)) ?? [];
      // A post without any time is left alone: only a whole list could say it is the one.
      const taker = waiting.find((sent) => sent.match([post], freshProgress()) !== undefined);
      if (taker === undefined) continue;
      found.set(post.id, taker.postId);
      claimed.add(post.id);
      waiting.splice(waiting.indexOf(taker), 1);
    }
    return found;
  };
}

// What the cache keeps of each record the platform lists.
const botRow = (bot: Bot) => ({ id: bot.id, name: bot.name, raw: bot });

const subscriberRow = (s: Subscriber) => ({
  id: s.id,
  botId: s.bot_id,
  name: s.name,
  tags: s.tags,
  status: s.status,
  raw: s,
});

const orderRow = (o: Order) => ({
  id: o.id,
  status: o.status,
  currency: o.currency,
  totalMinor: o.total_minor,
  createdAt: millis(o.created_at),
  raw: o,
});

const postRow = (p: Post) => ({
  id: p.id,
  botId: p.bot_id,
  text: p.text,
  mediaUrls: p.media_urls,
  status: p.status,
  scheduledAt: millis(p.scheduled_at),
  publishedAt: millis(p.published_at),
  clientReference: p.client_reference,
});

const productRow = (p: Product) => ({
  id: p.id,
  sku: p.sku,
  name: p.name,
  description: p.description,
  priceMinor: p.price_minor,
  currency: p.currency,
  stock: p.stock,
  imageUrl: p.image_url,
});

/** A list read to its provable end with every item readable: what it lacks went from the server. */
function isWhole(list: ListReading): boolean {
  return list.unproven === null && list.rejected.length === 0;
}

function outcomeOf(list: ListReading): SyncOutcome {
  if (isWhole(list)) return list.read;
  const reasons = [
    ...(list.unproven === null ? [] : [list.unproven]),
    ...(list.rejected.length === 0
      ? []
      : [
          `${list.rejected.length} item(s) could not be read: ${list.rejected
            .slice(0, 3)
            .map((item) => item.why)
            .join('; ')}`,
        ]),
  ];
  return { fetched: list.read, notPruned: reasons.join('; ') };
}

/** A page's retries under the workspace's retry rules: their steps, and at most as many tries. */
export function pageRetries(rules: RetryRules): PageRetryRules {
  return {
    attempts: Math.min(PAGE_RETRY_RULES.attempts, rules.maxAttempts),
    baseMs: rules.baseMs,
    capMs: rules.capMs,
  };
}
