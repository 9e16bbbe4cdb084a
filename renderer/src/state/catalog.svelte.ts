// The catalog screen's state (browser): one entry point over its parts — the view (sort and
// filter), the paged rows, cell editing, pasting and the selection — that wires them together,
// follows the core's events, and adds or duplicates products.
import type { CoreEvent } from '../../../shared/answers';
import { PRODUCT_STATUSES } from '../../../shared/domain';
import type { ProductStatus } from '../../../shared/domain';
import { COLUMNS, issueColumn } from './catalog-cells';
import type { SaveInput } from './catalog-cells';
import { CatalogClipboard } from './catalog-clipboard.svelte';
import { CatalogEditor } from './catalog-editor.svelte';
import { CatalogHistory, stepOf } from './catalog-history.svelte';
import { BULK_LIMIT, CatalogRows } from './catalog-rows.svelte';
import { CatalogSelection } from './catalog-selection.svelte';
import { CatalogView } from './catalog-view.svelte';
import type { ProductSort } from './catalog-view.svelte';
import type { Shell } from './shell.svelte';

/** The events after which the rows on screen may be out of date. */
function touchesProducts(event: CoreEvent): boolean {
  switch (event.type) {
    case 'done':
    case 'retrying':
    case 'failed':
    case 'missed':
      return event.item.productId !== null;
    case 'changed':
      return event.what === 'products' || event.what === 'cache' || event.what === 'queue';
    default:
      return false;
  }
}

export class CatalogState {
  readonly columns = COLUMNS;
  readonly statuses = PRODUCT_STATUSES;
  /** A line for the status region: why a cell cannot be edited, what a paste did. */
  announcement = $state('');
  /** A product just added with the form, scrolled to and highlighted until the next one. */
  highlighted = $state<number | null>(null);
  readonly view = new CatalogView();
  readonly rows: CatalogRows;
  readonly history: CatalogHistory;
  readonly editor: CatalogEditor;
  readonly clipboard: CatalogClipboard;
  readonly selection: CatalogSelection;

  constructor(private readonly shell: Shell) {
    const say = (text: string): void => {
      this.announcement = text;
    };
    this.rows = new CatalogRows(shell.api, this.view, {
      refreshed: (rows) => this.selection.follow(rows),
      counted: () => this.editor.keepInRows(),
    });
    this.history = new CatalogHistory(shell.api, shell.notices, {
      refresh: () => this.rows.refresh(),
      say,
    });
    this.editor = new CatalogEditor(shell, this.rows, this.history, say);
    this.clipboard = new CatalogClipboard(shell, this.rows, this.editor, this.history, say);
    this.selection = new CatalogSelection(shell, this.view, this.rows, this.history, say);
  }

  /** Starts again from the first row: the first load, and after a sort, search or filter. */
  load(): Promise<void> {
    this.editor.reset();
    return this.rows.load();
  }

  setSort(sort: ProductSort): Promise<void> {
    this.view.sortBy(sort);
    return this.load();
  }

  setSearch(search: string): Promise<void> {
    this.view.search = search;
    this.selection.rematch();
    return this.load();
  }

  setStatus(status: ProductStatus | null): Promise<void> {
    this.view.status = status;
    this.selection.rematch();
    return this.load();
  }

  /** Follows the core's events, so a queued product turns published when it is sent. */
  watch(): () => void {
    return this.shell.onEvent((event) => {
      if (touchesProducts(event)) void this.rows.refresh();
    });
  }

  /** Copies the active row's product as a new draft with a free SKU. */
  async duplicateActive(): Promise<void> {
    const product = this.rows.row(this.editor.active.row);
    if (!product || product.id < 0) return;
    const copy = await this.shell.attempt(
      this.shell.api.duplicateProduct({ id: product.id }),
      `Could not duplicate ${product.sku}`,
    );
    if (!copy) return;
    this.history.record(
      stepOf(`the copy ${copy.sku}`, [{ before: null, after: copy }]),
      `Duplicated ${product.sku} as ${copy.sku}.`,
    );
    await this.rows.refresh();
  }

  /** Creates a draft; answers the core's refusals by field (null when saved). */
  async add(input: SaveInput): Promise<Record<string, string> | null> {
    const result = await this.shell.api.saveProduct(input);
    if (!result.ok) {
      const issues = result.error.issues ?? [];
      if (issues.length === 0) return { form: result.error.message };
      // Fields the form has no input for (currency) are said under the form.
      return Object.fromEntries(
        issues.map((issue) =>
          issueColumn(issue.field)
            ? [issue.field, issue.message]
            : ['form', `${issue.field} ${issue.message}`],
        ),
      );
    }
    const added = result.value;
    this.history.record(
      stepOf(`the new product ${added.sku}`, [{ before: null, after: added }]),
      `Added ${added.sku} as a draft.`,
    );
    await this.rows.refresh();
    await this.reveal(added.id);
    return null;
  }

  /** Scrolls to a product (the grid follows the active cell) and highlights it. */
  private async reveal(id: number): Promise<void> {
    this.highlighted = id;
    const generation = this.rows.generation;
    // Its place depends on the sort: read the view in the largest windows until it turns up.
    for (let offset = 0; offset < this.rows.total; offset += BULK_LIMIT) {
      const result = await this.shell.api.listProducts(this.view.query(offset, BULK_LIMIT));
      if (!result.ok || generation !== this.rows.generation) return;
      const at = result.value.rows.findIndex((product) => product.id === id);
      if (at >= 0) {
        this.editor.moveTo(offset + at, 0);
        return;
      }
      if (result.value.rows.length < BULK_LIMIT) return;
    }
  }
}
