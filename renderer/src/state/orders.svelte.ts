// The orders screen's state (browser): a page of the orders the last sync brought, searched and
// filtered by status, the order opened in detail, and a refresh that pulls from the platform.
import type { OrderSummary } from '../../../shared/domain';
import { PagedList } from './paged-list.svelte';
import { syncFor, touchesCache } from './platform-sync';
import type { Shell } from './shell.svelte';

/** The order states of Platform API v1 (docs/platform-api.md, "Order"). */
export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'cancelled', 'refunded'] as const;

export class OrdersState {
  /** One status, or null for every order. */
  status = $state<string | null>(null);
  selected = $state.raw<OrderSummary | null>(null);
  syncing = $state(false);
  /** Why the last refresh could not reach the platform; the list shows the cached copy. */
  refreshError = $state<string | null>(null);
  readonly list: PagedList<OrderSummary>;

  constructor(private readonly shell: Shell) {
    this.list = new PagedList((query) =>
      shell.api.listOrders({ ...query, ...(this.status ? { status: this.status } : {}) }),
    );
  }

  /** True when a search or filter narrows the list, so an empty page means "no match". */
  get narrowed(): boolean {
    return this.status !== null || this.list.search.trim() !== '';
  }

  async load(): Promise<void> {
    await this.list.load();
    // The open order keeps its place but shows what the newest page says about it.
    const fresh = this.list.rows.find((order) => order.id === this.selected?.id);
    if (fresh) this.selected = fresh;
  }

  setStatus(status: string | null): Promise<void> {
    this.status = status;
    return this.list.restart();
  }

  open(order: OrderSummary): void {
    this.selected = order;
  }

  close(): void {
    this.selected = null;
  }

  /** Pulls every order from the platform into the cache, then shows the page again. */
  async refresh(): Promise<void> {
    this.syncing = true;
    this.refreshError = await syncFor(this.shell.api, 'orders');
    this.syncing = false;
    await this.load();
  }

  /** Follows the core's events; returns the way to stop. */
  watch(): () => void {
    const stop = this.shell.onEvent((event) => {
      if (touchesCache(event)) void this.load();
    });
    return () => {
      stop();
      this.list.cancelPendingRestart();
    };
  }
}
