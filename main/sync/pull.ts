// Pull sync (Node, main process): fetches every page of bots, posts, products, orders and
// subscribers into the workspace cache, at the lowest priority, through the governor.
import { PRIORITY } from '../../shared/domain';
import type { SyncOutcome } from '../../shared/domain';
import { readWholeList } from '../platform/client';
import type { Page, PlatformClient, WholeList } from '../platform/client';
import type { PageRequest } from '../platform/normalize';
import type { RateGovernor } from '../queue/governor';
import type { WorkspaceStore } from '../store';

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

  constructor(
    private readonly store: WorkspaceStore,
    private readonly client: PlatformClient,
    private readonly governor: RateGovernor,
  ) {}

  /** One full sync; a call while one runs joins it. */
  run(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> {
    this.running ??= this.all(onProgress).finally(() => (this.running = null));
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

  /** Every item of one list, each page requested at sync priority. */
  private fetchAll<T extends { id: string }>(
    list: (request: PageRequest) => Promise<Page<T>>,
    onPage: (fetched: number) => void,
  ): Promise<WholeList<T>> {
    const gated = async (request: PageRequest) => {
      const release = await this.governor.acquire(PRIORITY.sync);
      try {
        return await list(request);
      } finally {
        release();
      }
    };
    return readWholeList(gated, onPage);
  }

  private async one(
    resource: SyncResource,
    onPage: (fetched: number) => void,
  ): Promise<SyncOutcome> {
    const { client, store } = this;
    switch (resource) {
      case 'bots': {
        const list = await this.fetchAll(
          (request) => client.listBots({ per_page: PER_PAGE, ...request }),
          onPage,
        );
        store.cache.replaceBots(
          list.items.map((bot) => ({ id: bot.id, name: bot.name, raw: bot })),
          isWhole(list),
        );
        return outcomeOf(list);
      }
      case 'subscribers': {
        const list = await this.fetchAll(
          (request) => client.listSubscribers({ per_page: PER_PAGE, ...request }),
          onPage,
        );
        store.cache.replaceSubscribers(
          list.items.map((s) => ({
            id: s.id,
            botId: s.bot_id,
            name: s.name,
            tags: s.tags,
            status: s.status,
            raw: s,
          })),
          isWhole(list),
        );
        return outcomeOf(list);
      }
      case 'orders': {
        const list = await this.fetchAll(
          (request) => client.listOrders({ per_page: PER_PAGE, ...request }),
          onPage,
        );
        store.cache.replaceOrders(
          list.items.map((o) => ({
            id: o.id,
            status: o.status,
            currency: o.currency,
            totalMinor: o.total_minor,
            createdAt: millis(o.created_at),
            raw: o,
          })),
          isWhole(list),
        );
        return outcomeOf(list);
      }
      case 'posts': {
        const list = await this.fetchAll(
          (request) => client.listPosts({ per_page: PER_PAGE, ...request }),
          onPage,
        );
        store.cache.mergePosts(
          list.items.map((p) => ({
            id: p.id,
            botId: p.bot_id,
            text: p.text,
            mediaUrls: p.media_urls,
            status: p.status,
            scheduledAt: millis(p.scheduled_at),
            publishedAt: millis(p.published_at),
            clientReference: p.client_reference,
          })),
        );
        return outcomeOf(list);
      }
      case 'products': {
        const list = await this.fetchAll(
          (request) => client.listProducts({ per_page: PER_PAGE, ...request }),
          onPage,
        );
        store.cache.mergeProducts(
          list.items.map((p) => ({
            id: p.id,
            sku: p.sku,
            name: p.name,
            description: p.description,
            priceMinor: p.price_minor,
            currency: p.currency,
            stock: p.stock,
            imageUrl: p.image_url,
          })),
        );
        return outcomeOf(list);
      }
    }
  }
}

/** A list read to its provable end with every item readable: what it lacks went from the server. */
function isWhole(list: WholeList<unknown>): boolean {
  return list.unproven === null && list.rejected.length === 0;
}

function outcomeOf(list: WholeList<unknown>): SyncOutcome {
  if (isWhole(list)) return list.items.length;
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
  return { fetched: list.items.length, notPruned: reasons.join('; ') };
}
