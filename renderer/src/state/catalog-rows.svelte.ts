// The catalog's rows (browser): a paged data source over up to 100,000 products in the current
// view, fetched a page at a time and forgotten far from the screen, with the rows shown over the
// fetched ones while the core works (edited products, pasted drafts, rows being queued).
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { LocalProduct, ProductStatus } from '../../../shared/domain';
import type { Api } from '../lib/api';
import { coalesce } from '../lib/coalesce';
import type { CatalogView } from './catalog-view.svelte';

/** Rows per request: a screenful plus overscan fits in one or two. */
export const PAGE_SIZE = 100;
/** The largest window listProducts answers, used when many rows are needed at once. */
export const BULK_LIMIT = 1000;
/** Pages kept while scrolling; the ones farthest from the view go first. */
const KEPT_PAGES = 40;

/** What the rest of the catalog keeps in step with the rows. */
export interface RowsListener {
  /** The rows on screen were read again: products kept elsewhere (the selection) follow. */
  refreshed(rows: LocalProduct[]): void;
  /** A page arrived and the count may have shrunk below the active row. */
  counted(): void;
}

export class CatalogRows {
  /** Products matching the search and filter, on the core. */
  total = $state(0);
  /** False until the first window arrived, so the empty state does not flash before it. */
  loaded = $state(false);
  error = $state<string | null>(null);
  /** Bumped when the sort, search or filter change: rows fetched before no longer apply. */
  generation = $state(0);
  /** Pasted rows past the end, shown until the core has made them (negative ids). */
  pending = $state.raw<LocalProduct[]>([]);
  /** Products being queued or deleted, whose rows wait. */
  readonly busy = new SvelteSet<number>();

  /** Windows of rows by page number, for the current generation. */
  private readonly pages = new SvelteMap<number, LocalProduct[]>();
  // Requests in flight, not state: nothing renders from this map.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly loading = new Map<number, Promise<void>>();
  /** Products as the user changed them, shown over the fetched rows until the core answers. */
  private readonly overlay = new SvelteMap<number, LocalProduct>();
  private range = { start: 0, end: PAGE_SIZE - 1 };

  constructor(
    private readonly api: Api,
    private readonly view: CatalogView,
    private readonly listener: RowsListener,
  ) {}

  get rowCount(): number {
    return this.total + this.pending.length;
  }

  /** The product shown at `index`, or undefined while its page is on its way. */
  row(index: number): LocalProduct | undefined {
    if (index >= this.total) return this.pending[index - this.total];
    const product = this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
    return product && (this.overlay.get(product.id) ?? product);
  }

  /** Starts again from the first row: the first load, and after a sort, search or filter. */
  async load(): Promise<void> {
    this.generation += 1;
    this.pages.clear();
    this.loading.clear();
    this.range = { start: 0, end: Math.max(this.range.end - this.range.start, PAGE_SIZE - 1) };
    await Promise.all(this.pagesOf(this.range.start, this.range.end).map((p) => this.fetch(p)));
  }

  /** The grid shows rows start…end (with overscan): fetches the pages it lacks. */
  async showRange(start: number, end: number): Promise<void> {
    this.range = { start, end };
    await this.fetchRows(start, end);
  }

  /** Makes sure the rows start…end are loaded (for a paste over them). */
  async fetchRows(start: number, end: number): Promise<void> {
    await Promise.all(this.pagesOf(start, end).map((page) => this.fetch(page)));
  }

  /** Fetches the rows on screen again (they changed on the core) and forgets the others. */
  readonly refresh = coalesce(async () => {
    const generation = this.generation;
    const wanted = this.pagesOf(this.range.start, this.range.end);
    const results = await Promise.all(
      wanted.map(async (page) => ({
        page,
        result: await this.api.listProducts(this.view.query(page * PAGE_SIZE, PAGE_SIZE)),
      })),
    );
    if (generation !== this.generation) return;
    for (const page of [...this.pages.keys()]) if (!wanted.includes(page)) this.pages.delete(page);
    for (const { page, result } of results) {
      if (!result.ok) {
        this.error = result.error.message;
        continue;
      }
      this.error = null;
      this.loaded = true;
      this.total = result.value.total;
      this.pages.set(page, result.value.rows);
      this.listener.refreshed(result.value.rows);
    }
  });

  /** Shows a product as the user changed it until the core answers. */
  showEdited(product: LocalProduct): void {
    this.overlay.set(product.id, product);
  }

  /** The core answered: the fetched (or replaced) row shows again. */
  dropEdited(id: number): void {
    this.overlay.delete(id);
  }

  /** Puts the core's copy of a product into whichever loaded page holds it. */
  replace(product: LocalProduct): void {
    for (const [page, rows] of this.pages) {
      const at = rows.findIndex((candidate) => candidate.id === product.id);
      if (at >= 0) this.pages.set(page, rows.with(at, product));
    }
  }

  /** Marks rows as waiting (and, when queueing, shows them queued); answers the ids shown so. */
  markBusy(ids: number[], status: ProductStatus | null): number[] {
    const shown: number[] = [];
    for (const id of ids) this.busy.add(id);
    if (!status) return shown;
    // A lookup for this loop only; nothing renders from it.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const marked = new Set(ids);
    for (const rows of this.pages.values()) {
      for (const product of rows) {
        if (!marked.has(product.id)) continue;
        this.overlay.set(product.id, { ...(this.overlay.get(product.id) ?? product), status });
        shown.push(product.id);
      }
    }
    return shown;
  }

  unmarkBusy(ids: number[], shown: number[]): void {
    for (const id of ids) this.busy.delete(id);
    for (const id of shown) this.overlay.delete(id);
  }

  /** Keeps memory flat while the user scrolls through 100,000 rows. */
  private forgetFarPages(): void {
    if (this.pages.size <= KEPT_PAGES) return;
    const here = Math.floor(this.range.start / PAGE_SIZE);
    const far = [...this.pages.keys()].sort((a, b) => Math.abs(b - here) - Math.abs(a - here));
    for (const page of far.slice(0, this.pages.size - KEPT_PAGES)) this.pages.delete(page);
  }

  private pagesOf(start: number, end: number): number[] {
    const last = Math.max(start, Math.min(end, Math.max(this.total, 1) - 1));
    const pages: number[] = [];
    for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++)
      pages.push(page);
    return pages;
  }

  /** One page for the current generation, fetched once however many ask. */
  private fetch(page: number): Promise<void> {
    const cached = this.pages.has(page) ? Promise.resolve() : this.loading.get(page);
    if (cached) return cached;
    const generation = this.generation;
    const promise = this.api
      .listProducts(this.view.query(page * PAGE_SIZE, PAGE_SIZE))
      .then((result) => {
        // A sort, search or filter changed while this ran: its rows belong to no view now.
        if (generation !== this.generation) return;
        this.loading.delete(page);
        if (!result.ok) {
          this.error = result.error.message;
          return;
        }
        this.error = null;
        this.total = result.value.total;
        this.pages.set(page, result.value.rows);
        this.loaded = true;
        this.forgetFarPages();
        this.listener.counted();
      });
    this.loading.set(page, promise);
    return promise;
  }
}
