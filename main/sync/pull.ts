// Pull sync (Node, main process): fetches every page of bots, posts, products, orders and
// subscribers into the workspace cache, at the lowest priority, through the governor.
import { PRIORITY } from '../../shared/domain';
import { paginate } from '../platform/client';
import type { Page, PlatformClient } from '../platform/client';
import type { RateGovernor } from '../queue/governor';
import type { WorkspaceStore } from '../store';

export const SYNC_RESOURCES = ['bots', 'posts', 'products', 'orders', 'subscribers'] as const;
export type SyncResource = (typeof SYNC_RESOURCES)[number];

export interface SyncProgress {
  resource: SyncResource;
  fetched: number;
}

export type SyncReport = Record<SyncResource, number | { error: string }>;

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
        report[resource] = await this.one(resource, (fetched) =>
          onProgress?.({ resource, fetched }),
        );
        this.store.cache.recordSync(resource, null);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        report[resource] = { error: message };
        this.store.cache.recordSync(resource, message);
      }
    }
    return report;
  }

  /** Every item of one list, each page requested at sync priority. */
  private async fetchAll<T extends { id: string }>(
    list: (page: number) => Promise<Page<T>>,
    onPage: (fetched: number) => void,
  ): Promise<T[]> {
    const items: T[] = [];
    const gated = async (page: number) => {
      const release = await this.governor.acquire(PRIORITY.sync);
      try {
        return await list(page);
      } finally {
        release();
      }
    };
    for await (const page of paginate(gated)) {
      items.push(...page);
      onPage(items.length);
    }
    return items;
  }

  private async one(resource: SyncResource, onPage: (fetched: number) => void): Promise<number> {
    const { client, store } = this;
    switch (resource) {
      case 'bots': {
        const bots = await this.fetchAll(
          (page) => client.listBots({ page, per_page: PER_PAGE }),
          onPage,
        );
        store.cache.replaceBots(bots.map((bot) => ({ id: bot.id, name: bot.name, raw: bot })));
        return bots.length;
      }
      case 'subscribers': {
        const subscribers = await this.fetchAll(
          (page) => client.listSubscribers({ page, per_page: PER_PAGE }),
          onPage,
        );
        store.cache.replaceSubscribers(
          subscribers.map((s) => ({
            id: s.id,
            botId: s.bot_id,
            name: s.name,
            tags: s.tags,
            status: s.status,
            raw: s,
          })),
        );
        return subscribers.length;
      }
      case 'orders': {
        const orders = await this.fetchAll(
          (page) => client.listOrders({ page, per_page: PER_PAGE }),
          onPage,
        );
        store.cache.replaceOrders(
          orders.map((o) => ({
            id: o.id,
            status: o.status,
            currency: o.currency,
            totalMinor: o.total_minor,
            createdAt: millis(o.created_at),
            raw: o,
          })),
        );
        return orders.length;
      }
      case 'posts': {
        const posts = await this.fetchAll(
          (page) => client.listPosts({ page, per_page: PER_PAGE }),
          onPage,
        );
        store.cache.mergePosts(
          posts.map((p) => ({
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
        return posts.length;
      }
      case 'products': {
        const products = await this.fetchAll(
          (page) => client.listProducts({ page, per_page: PER_PAGE }),
          onPage,
        );
        store.cache.mergeProducts(
          products.map((p) => ({
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
        return products.length;
      }
    }
  }
}
