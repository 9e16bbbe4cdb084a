// The catalog's selection (browser): rows picked one by one or "all matching" the view, and the
// actions on them (queue, delete), shown at once and undone when the core refuses.
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { CallResult } from '../../../shared/answers';
import type { LocalProduct, ProductStatus } from '../../../shared/domain';
import { isEditable } from './catalog-cells';
import type { CatalogHistory, HistoryStep } from './catalog-history.svelte';
import { stepOf } from './catalog-history.svelte';
import { plural } from './catalog-paste';
import { BULK_LIMIT } from './catalog-rows.svelte';
import type { CatalogRows } from './catalog-rows.svelte';
import type { CatalogView } from './catalog-view.svelte';
import type { Shell } from './shell.svelte';

/** What publishing the selection asks before it goes: nothing published can be changed after. */
export interface PublishQuestion {
  count: number;
  /** Each currency the products are priced in, with how many, the most first. */
  currencies: { currency: string; count: number }[];
  answer(publish: boolean, dontAskAgain: boolean): void;
}

function currenciesOf(products: LocalProduct[]): PublishQuestion['currencies'] {
  const counts: Record<string, number> = {};
  for (const { currency } of products) counts[currency] = (counts[currency] ?? 0) + 1;
  return Object.entries(counts)
    .map(([currency, count]) => ({ currency, count }))
    .sort((a, b) => b.count - a.count);
}

export class CatalogSelection {
  /** Picked one by one (with what they were when picked, to know which can be queued). */
  readonly selected = new SvelteMap<number, LocalProduct>();
  /** Every product matching the search and filter, except `excluded`. */
  allMatching = $state(false);
  readonly excluded = new SvelteSet<number>();
  /** Open while publishing waits for the user's yes. */
  publishQuestion = $state.raw<PublishQuestion | null>(null);
  private anchor: number | null = null;

  constructor(
    private readonly shell: Shell,
    private readonly view: CatalogView,
    private readonly rows: CatalogRows,
    private readonly history: CatalogHistory,
    /** Says a line in the status region. */
    private readonly say: (text: string) => void,
  ) {}

  get selectedCount(): number {
    return this.allMatching ? this.rows.total - this.excluded.size : this.selected.size;
  }

  isSelected(product: LocalProduct): boolean {
    return this.allMatching ? !this.excluded.has(product.id) : this.selected.has(product.id);
  }

  /** Products picked one by one follow what the core now says of them. */
  follow(rows: LocalProduct[]): void {
    for (const product of rows)
      if (this.selected.has(product.id)) this.selected.set(product.id, product);
  }

  /** "All matching" meant the old search and filter; rows picked one by one stay picked. */
  rematch(): void {
    this.allMatching = false;
    this.excluded.clear();
  }

  /** A click on a row's checkbox; with Shift, every row from the last click to this one. */
  async toggle(index: number, extend: boolean): Promise<void> {
    const product = this.rows.row(index);
    if (!product || product.id < 0) return;
    if (extend && this.anchor !== null) {
      const from = Math.min(this.anchor, index);
      const to = Math.min(Math.max(this.anchor, index), this.rows.total - 1);
      // A range may span far more rows than are loaded: read them in the largest windows.
      for (let offset = from; offset <= to; offset += BULK_LIMIT) {
        const result = await this.shell.api.listProducts(
          this.view.query(offset, Math.min(BULK_LIMIT, to - offset + 1)),
        );
        if (!result.ok) {
          this.shell.notices.error(result.error.message, 'Could not select the rows');
          return;
        }
        for (const candidate of result.value.rows) this.setSelected(candidate, true);
      }
    } else {
      this.setSelected(product, !this.isSelected(product));
    }
    this.anchor = index;
  }

  private setSelected(product: LocalProduct, on: boolean): void {
    if (this.allMatching) {
      if (on) this.excluded.delete(product.id);
      else this.excluded.add(product.id);
    } else if (on) {
      this.selected.set(product.id, product);
    } else {
      this.selected.delete(product.id);
    }
  }

  selectAllMatching(): void {
    this.selected.clear();
    this.excluded.clear();
    this.allMatching = true;
  }

  clearSelection(): void {
    this.selected.clear();
    this.excluded.clear();
    this.allMatching = false;
    this.anchor = null;
  }

  /**
   * The selected products that can still be queued or deleted (drafts and failed ones), and how
   * many selected ones cannot. "All matching" asks the core for every editable match.
   */
  private async editableSelection(): Promise<{
    products: LocalProduct[];
    locked: number;
  } | null> {
    if (!this.allMatching) {
      const selected = [...this.selected.values()];
      const products = selected.filter(isEditable);
      return { products, locked: selected.length - products.length };
    }
    const statuses = (['draft', 'failed'] as const).filter(
      (status) => this.view.status === null || this.view.status === status,
    );
    const products: LocalProduct[] = [];
    for (const status of statuses) {
      for (let offset = 0; ; offset += BULK_LIMIT) {
        const result = await this.shell.api.listProducts({
          ...this.view.query(offset, BULK_LIMIT),
          status,
        });
        if (!result.ok) {
          this.shell.notices.error(result.error.message, 'Could not read the selection');
          return null;
        }
        for (const product of result.value.rows)
          if (isEditable(product) && !this.excluded.has(product.id)) products.push(product);
        if (offset + BULK_LIMIT >= result.value.total) break;
      }
    }
    return { products, locked: this.selectedCount - products.length };
  }

  /**
   * Asks once before products go out (how many, in which currency, that they cannot be changed
   * after), unless the workspace said not to ask again; "don't ask again" is kept in its settings.
   */
  private askToPublish(products: LocalProduct[]): Promise<boolean> {
    if (this.shell.settings?.askBeforePublishingProducts === false) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.publishQuestion = {
        count: products.length,
        currencies: currenciesOf(products),
        answer: (publish, dontAskAgain) => {
          this.publishQuestion = null;
          if (publish && dontAskAgain)
            void this.shell
              .attempt(
                this.shell.api.saveSettings({ askBeforePublishingProducts: false }),
                'Could not keep “don’t ask again”',
              )
              .then(() => this.shell.loadSettings());
          resolve(publish);
        },
      };
    });
  }

  /** Queues the selected drafts for publishing, once the user said yes; they show queued at once. */
  queueSelected(): Promise<void> {
    return this.actOnSelection({
      verb: 'queue',
      status: 'queued',
      confirm: (products) => this.askToPublish(products),
      call: async (ids) => {
        const result = await this.shell.api.queueProducts({ ids });
        return result.ok ? { ok: true, value: result.value.length } : result;
      },
      done: (count, locked) =>
        `Queued ${plural(count, 'product')} for publishing${locked > 0 ? `; ${locked} already published or queued were left as they are` : ''}.`,
    });
  }

  /** Deletes the selected drafts; their rows wait, then go, or come back if the core refuses. */
  deleteSelected(): Promise<void> {
    return this.actOnSelection({
      verb: 'delete',
      status: null,
      call: async (ids) => {
        const result = await this.shell.api.deleteProducts({ ids });
        return result.ok ? { ok: true, value: result.value.removed } : result;
      },
      done: (count) => `Deleted ${plural(count, 'product')}.`,
      step: (products) =>
        stepOf(
          `the delete of ${plural(products.length, 'product')}`,
          products.map((product) => ({ before: product, after: null })),
        ),
    });
  }

  /** Runs a queue or delete over the editable selection, showing it at once, undone on refusal. */
  private async actOnSelection(action: {
    verb: 'queue' | 'delete';
    /** What the rows show while the core works (null: they only wait). */
    status: ProductStatus | null;
    call: (ids: number[]) => Promise<CallResult<number>>;
    done: (count: number, locked: number) => string;
    /** How to take it back, for the actions that can be. */
    step?: (products: LocalProduct[]) => HistoryStep;
    /** The user's yes, for the actions that cannot be taken back. */
    confirm?: (products: LocalProduct[]) => Promise<boolean>;
  }): Promise<void> {
    // "All matching" may be 100,000 products; say something while they are read.
    this.say(`Preparing to ${action.verb} the selected products…`);
    const selection = await this.editableSelection();
    this.say('');
    if (!selection) return;
    const ids = selection.products.map((product) => product.id);
    if (ids.length === 0) {
      this.shell.notices.show(
        'info',
        `None of the selected products can be ${action.verb}d: only drafts and failed ones can.`,
      );
      return;
    }
    if (action.confirm && !(await action.confirm(selection.products))) return;
    const shown = this.rows.markBusy(ids, action.status);
    const result = await action.call(ids);
    if (result.ok) {
      const text = action.done(result.value, selection.locked);
      if (action.step) this.history.record(action.step(selection.products), text);
      else this.shell.notices.show('success', text);
      this.clearSelection();
      await this.rows.refresh();
    } else {
      this.shell.notices.error(result.error.message, `Could not ${action.verb} the products`);
    }
    this.rows.unmarkBusy(ids, shown);
  }
}
