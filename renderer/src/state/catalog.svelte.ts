// The catalog screen's state (browser): a windowed, sorted, filtered view of up to 100,000
// products fetched a page at a time, the active cell and its editor, optimistic edits and pastes
// that roll back per row, the selection, and the actions on it (queue, delete, duplicate).
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { CallResult, CoreEvent, Issue, PRODUCT_SORTS } from '../../../shared/contract';
import { PRODUCT_STATUSES } from '../../../shared/domain';
import type { LocalProduct, ProductStatus } from '../../../shared/domain';
import { coalesce } from '../components/common/coalesce';
import {
  COLUMNS,
  cellText,
  changeCell,
  isEditable,
  issueColumn,
  lockReason,
  saveInput,
} from './catalog-cells';
import type { Column, EditableKey, SaveInput } from './catalog-cells';
import { CatalogHistory, stepOf } from './catalog-history.svelte';
import type { HistoryStep } from './catalog-history.svelte';
import { needsQuestion, parseClipboardTable, pasteSummary, plural } from './catalog-paste';
import type { PasteChoice, PasteQuestion } from './catalog-paste';
import type { Shell } from './shell.svelte';

export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** Rows per request: a screenful plus overscan fits in one or two. */
export const PAGE_SIZE = 100;
/** The largest window listProducts answers, used when many rows are needed at once. */
const BULK_LIMIT = 1000;
/** Pages kept while scrolling; the ones farthest from the view go first. */
const KEPT_PAGES = 40;

export interface CellAddress {
  row: number;
  col: number;
}

export interface Editing extends CellAddress {
  text: string;
  /** Why the typed text cannot be saved; the editor stays open until it is fixed or dropped. */
  error: string | null;
}

export type Move = 'down' | 'right' | 'left' | 'stay';

/** One row's edit on its way to the core: what it showed before, and what is shown now. */
interface RowChange {
  before: LocalProduct | null;
  after: LocalProduct;
  input: SaveInput;
  /** The cells it changes, where the core's refusal is shown when it names no field. */
  fields: EditableKey[];
  /** "Row 4" or "BK-001", for the summary of a paste. */
  label: string;
}

/** A change saved by the core: the product before (null: created) and as the core keeps it now. */
interface Saved {
  before: LocalProduct | null;
  after: LocalProduct;
}

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

const cellKey = (id: number, key: EditableKey): string => `${id}:${key}`;

export class CatalogState {
  readonly columns = COLUMNS;
  readonly statuses = PRODUCT_STATUSES;
  sort = $state<ProductSort>('sku');
  descending = $state(false);
  search = $state('');
  status = $state<ProductStatus | null>(null);
  /** Products matching the search and filter, on the core. */
  total = $state(0);
  /** False until the first window arrived, so the empty state does not flash before it. */
  loaded = $state(false);
  error = $state<string | null>(null);
  /** Bumped when the sort, search or filter change: rows fetched before no longer apply. */
  generation = $state(0);
  /** Pasted rows past the end, shown until the core has made them (negative ids). */
  pending = $state.raw<LocalProduct[]>([]);
  active = $state<CellAddress>({ row: 0, col: 0 });
  editing = $state<Editing | null>(null);
  /** The core's or the editor's refusal per cell ("id:field"), shown on the cell. */
  readonly cellErrors = new SvelteMap<string, string>();
  /** Picked one by one (with what they were when picked, to know which can be queued). */
  readonly selected = new SvelteMap<number, LocalProduct>();
  /** Every product matching the search and filter, except `excluded`. */
  allMatching = $state(false);
  readonly excluded = new SvelteSet<number>();
  /** Products being queued or deleted, whose rows wait. */
  readonly busy = new SvelteSet<number>();
  /** A line for the status region: why a cell cannot be edited, what a paste did. */
  announcement = $state('');
  /** A paste that would overwrite products (or meets locked ones) waits for this answer. */
  pasteQuestion = $state<(PasteQuestion & { answer: (choice: PasteChoice) => void }) | null>(null);
  /** A product just added with the form, scrolled to and highlighted until the next one. */
  highlighted = $state<number | null>(null);
  readonly history: CatalogHistory;

  /** Windows of rows by page number, for the current generation. */
  private readonly pages = new SvelteMap<number, LocalProduct[]>();
  // Requests in flight, not state: nothing renders from this map.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly loading = new Map<number, Promise<void>>();
  /** Products as the user changed them, shown over the fetched rows until the core answers. */
  private readonly overlay = new SvelteMap<number, LocalProduct>();
  private range = { start: 0, end: PAGE_SIZE - 1 };
  private anchor: number | null = null;
  private nextPendingId = -1;

  constructor(private readonly shell: Shell) {
    this.history = new CatalogHistory(shell.api, shell.notices, {
      refresh: () => this.refresh(),
      say: (text) => (this.announcement = text),
    });
  }

  get rowCount(): number {
    return this.total + this.pending.length;
  }

  get selectedCount(): number {
    return this.allMatching ? this.total - this.excluded.size : this.selected.size;
  }

  get filtered(): boolean {
    return this.search.trim() !== '' || this.status !== null;
  }

  /** The product shown at `index`, or undefined while its page is on its way. */
  row(index: number): LocalProduct | undefined {
    if (index >= this.total) return this.pending[index - this.total];
    const product = this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
    return product && (this.overlay.get(product.id) ?? product);
  }

  cellError(product: LocalProduct, key: EditableKey): string | null {
    return this.cellErrors.get(cellKey(product.id, key)) ?? null;
  }

  /** Why a cell cannot be edited, or null when it can. */
  readOnlyReason(product: LocalProduct, column: Column): string | null {
    if (product.id < 0) return 'It is being created; wait a moment';
    if (this.busy.has(product.id)) return 'It is being queued or deleted';
    const locked = lockReason(product);
    if (locked) return locked;
    return column.editable ? null : 'The status changes when you queue the product';
  }

  /** Starts again from the first row: the first load, and after a sort, search or filter. */
  async load(): Promise<void> {
    this.generation += 1;
    this.pages.clear();
    this.loading.clear();
    this.editing = null;
    this.active = { row: 0, col: this.active.col };
    this.range = { start: 0, end: Math.max(this.range.end - this.range.start, PAGE_SIZE - 1) };
    await Promise.all(this.pagesOf(this.range.start, this.range.end).map((p) => this.fetch(p)));
  }

  setSort(sort: ProductSort): Promise<void> {
    // A second click on the same column reverses it, as in a spreadsheet.
    this.descending = sort === this.sort ? !this.descending : false;
    this.sort = sort;
    return this.load();
  }

  setSearch(search: string): Promise<void> {
    this.search = search;
    return this.rematch();
  }

  setStatus(status: ProductStatus | null): Promise<void> {
    this.status = status;
    return this.rematch();
  }

  /** "All matching" meant the old search and filter; rows picked one by one stay picked. */
  private rematch(): Promise<void> {
    this.allMatching = false;
    this.excluded.clear();
    return this.load();
  }

  /** The grid shows rows start…end (with overscan): fetches the pages it lacks. */
  async showRange(start: number, end: number): Promise<void> {
    this.range = { start, end };
    await Promise.all(this.pagesOf(start, end).map((page) => this.fetch(page)));
  }

  /** Fetches the rows on screen again (they changed on the core) and forgets the others. */
  readonly refresh = coalesce(async () => {
    const generation = this.generation;
    const wanted = this.pagesOf(this.range.start, this.range.end);
    const results = await Promise.all(
      wanted.map(async (page) => ({
        page,
        result: await this.shell.api.listProducts(this.query(page * PAGE_SIZE, PAGE_SIZE)),
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
      for (const product of result.value.rows)
        if (this.selected.has(product.id)) this.selected.set(product.id, product);
    }
  });

  /** Follows the core's events, so a queued product turns published when it is sent. */
  watch(): () => void {
    return this.shell.onEvent((event) => {
      if (touchesProducts(event)) void this.refresh();
    });
  }

  // ---- the active cell and its editor ----

  moveTo(row: number, col: number): void {
    this.active = {
      row: Math.max(0, Math.min(row, this.rowCount - 1)),
      col: Math.max(0, Math.min(col, COLUMNS.length - 1)),
    };
  }

  /** Tab and Shift+Tab: along the row, then on to the next or previous row. */
  step(direction: 1 | -1): boolean {
    const { row, col } = this.active;
    const next = col + direction;
    if (next >= 0 && next < COLUMNS.length) {
      this.moveTo(row, next);
      return true;
    }
    const nextRow = row + direction;
    if (nextRow < 0 || nextRow >= this.rowCount) return false;
    this.moveTo(nextRow, direction === 1 ? 0 : COLUMNS.length - 1);
    return true;
  }

  /** Opens the editor on the active cell, or says why it cannot be edited. */
  startEdit(text?: string): boolean {
    const { row, col } = this.active;
    const product = this.row(row);
    const column = COLUMNS[col];
    if (!product || !column) return false;
    const why = this.readOnlyReason(product, column);
    if (why) {
      this.announcement = `${column.label} of ${product.sku} cannot be edited. ${why}.`;
      return false;
    }
    this.editing = { row, col, text: text ?? cellText(product, column.key), error: null };
    return true;
  }

  cancelEdit(): void {
    this.editing = null;
  }

  /**
   * Saves the editor's text. Text the core would refuse keeps the editor open with the reason;
   * otherwise the cell shows the new value at once and rolls back if the core refuses it.
   */
  async commitEdit(move: Move): Promise<void> {
    const editing = this.editing;
    const product = editing && this.row(editing.row);
    const column = editing && COLUMNS[editing.col];
    if (!editing || !product || !column) {
      this.editing = null;
      return;
    }
    const key = column.key as EditableKey;
    const unchanged = editing.text === cellText(product, key);
    const change = unchanged ? null : changeCell(product, saveInput(product), key, editing.text);
    if (change && !change.ok) {
      this.editing = { ...editing, error: `${column.label} ${change.message}` };
      return;
    }
    this.editing = null;
    this.go(move);
    if (!change) return;
    const { failures, saved } = await this.saveAll([
      {
        before: product,
        after: change.product,
        input: change.input,
        fields: [key],
        label: product.sku,
      },
    ]);
    if (failures.length > 0) this.shell.notices.show('error', `Could not save ${failures[0]}`);
    if (saved.length > 0)
      this.history.record(
        stepOf(`the edit of ${product.sku}`, saved),
        `Changed ${column.label.toLowerCase()} of ${product.sku}.`,
      );
  }

  private go(move: Move): void {
    const { row, col } = this.active;
    if (move === 'down') this.moveTo(row + 1, col);
    else if (move === 'right' || move === 'left') this.step(move === 'right' ? 1 : -1);
  }

  // ---- paste ----

  /**
   * Fills cells from the active one with rows copied from a spreadsheet: rows past the end become
   * new drafts, as do rows pasted below the last one. Overwriting whole products, or landing on
   * locked ones, asks first (replace them, or add every pasted row as a new draft). Everything
   * shows at once; each row the core refuses rolls back with its reason; the rest is one step to
   * undo.
   */
  async paste(text: string, where: 'active' | 'below' = 'active'): Promise<void> {
    const table = parseClipboardTable(text);
    if (table.length === 0) return;
    // Below the last row, whole rows (SKU first) become new drafts, overwriting nothing.
    const { row: first, col } = where === 'below' ? { row: this.rowCount, col: 0 } : this.active;
    const lastExisting = Math.min(first + table.length, this.total) - 1;
    if (lastExisting >= first) {
      await Promise.all(this.pagesOf(first, lastExisting).map((page) => this.fetch(page)));
    }
    const covered = table
      .slice(0, Math.max(0, lastExisting - first + 1))
      .map((_, offset) => this.row(first + offset));
    const question: PasteQuestion = {
      replaceable: covered.filter((product) => product && !lockReason(product)).length,
      locked: covered.filter((product) => product && lockReason(product)).length,
      added: table.length - covered.length,
    };
    let choice: PasteChoice = 'replace';
    if (needsQuestion(question, table.length, col)) {
      choice = await new Promise<PasteChoice>((resolve) => {
        this.pasteQuestion = { ...question, answer: resolve };
      });
      this.pasteQuestion = null;
      if (choice === 'cancel') {
        this.announcement = 'Nothing was pasted.';
        return;
      }
    }
    const asNew = choice === 'new';
    const changes: RowChange[] = [];
    const refused: string[] = [];
    table.forEach((cells, offset) => {
      const index = first + offset;
      const over = !asNew && index < this.total;
      const existing = over ? this.row(index) : undefined;
      if (over && !existing) {
        refused.push(`row ${index + 1}: it could not be read`);
        return;
      }
      const why = existing && lockReason(existing);
      if (existing && why) {
        refused.push(`${existing.sku}: ${why}`);
        return;
      }
      const change = this.pastedRow(existing ?? null, cells, col, index);
      if (typeof change === 'string') refused.push(change);
      else changes.push(change);
    });
    const { failures, saved } =
      changes.length > 0 ? await this.saveAll(changes) : { failures: [], saved: [] };
    const problems = [...refused, ...failures];
    const summary = pasteSummary(saved, problems.length);
    this.announcement = summary;
    if (saved.length > 0)
      this.history.record(stepOf(`the paste of ${plural(table.length, 'row')}`, saved), summary);
    if (problems.length > 0) {
      const shown = problems.slice(0, 3).join('; ');
      const more = problems.length > 3 ? ` and ${problems.length - 3} more` : '';
      this.shell.notices.show('error', `Some pasted rows were not saved: ${shown}${more}`);
    }
  }

  /** One pasted line laid over a product (or a new draft): the change, or why it cannot be. */
  private pastedRow(
    existing: LocalProduct | null,
    cells: string[],
    firstCol: number,
    index: number,
  ): RowChange | string {
    const label = existing ? existing.sku : `row ${index + 1}`;
    let after = existing ?? this.blankProduct();
    let input: SaveInput = existing ? saveInput(existing) : { sku: '', name: '', price: '' };
    const fields: EditableKey[] = [];
    for (const [j, raw] of cells.entries()) {
      const column = COLUMNS[firstCol + j];
      // Cells past the last column, or on the status, have nowhere to go.
      if (!column?.editable) continue;
      const key = column.key as EditableKey;
      const change = changeCell(after, input, key, raw);
      if (!change.ok) return `${label}: ${column.label} ${change.message}`;
      after = change.product;
      input = change.input;
      fields.push(key);
    }
    if (!existing) {
      const missing = COLUMNS.filter(
        (column) =>
          column.key !== 'status' &&
          column.key !== 'stock' &&
          !fields.includes(column.key as EditableKey),
      );
      if (missing.length > 0)
        return `${label}: a new product needs ${missing.map((column) => column.label).join(', ')}`;
    }
    return { before: existing, after, input, fields, label };
  }

  private blankProduct(): LocalProduct {
    const now = Date.now();
    return {
      id: this.nextPendingId--,
      remoteId: null,
      sku: '',
      name: '',
      description: null,
      priceMinor: 0,
      currency: this.shell.settings?.defaultCurrency ?? 'USD',
      stock: null,
      imageUrl: null,
      status: 'draft',
      origin: 'local',
      error: null,
      batchId: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * Shows every change at once (one update), saves each, and rolls back those the core refuses
   * with its reason on the cell. Answers the refusals, one line each, and what was saved.
   */
  private async saveAll(changes: RowChange[]): Promise<{ failures: string[]; saved: Saved[] }> {
    const created = changes.filter((change) => !change.before).map((change) => change.after);
    for (const change of changes) {
      if (!change.before) continue;
      this.overlay.set(change.after.id, change.after);
      for (const field of change.fields) this.cellErrors.delete(cellKey(change.after.id, field));
    }
    if (created.length > 0) this.pending = [...this.pending, ...created];
    const results = await Promise.all(
      changes.map(async (change) => ({
        change,
        result: await this.shell.api.saveProduct(change.input),
      })),
    );
    const failures: string[] = [];
    const saved: Saved[] = [];
    for (const { change, result } of results) {
      if (result.ok) {
        if (change.before) this.replace(result.value);
        saved.push({ before: change.before, after: result.value });
        continue;
      }
      failures.push(`${change.label}: ${reasonOf(result.error)}`);
      if (change.before) this.showIssues(change, result.error);
    }
    if (created.length > 0) {
      // The new rows land where the sort puts them; fetch them before the placeholders go.
      await this.refresh();
      this.pending = this.pending.filter((product) => !created.includes(product));
    }
    for (const change of changes) if (change.before) this.overlay.delete(change.after.id);
    return { failures, saved };
  }

  private showIssues(change: RowChange, error: { message: string; issues?: Issue[] }): void {
    const named = (error.issues ?? []).filter((issue) => issueColumn(issue.field) !== null);
    if (named.length === 0) {
      for (const field of change.fields)
        this.cellErrors.set(cellKey(change.after.id, field), error.message);
      return;
    }
    for (const issue of named) {
      const column = COLUMNS.find((candidate) => candidate.key === issueColumn(issue.field));
      if (column)
        this.cellErrors.set(
          cellKey(change.after.id, column.key as EditableKey),
          `${column.label} ${issue.message}`,
        );
    }
  }

  /** Puts the core's copy of a product into whichever loaded page holds it. */
  private replace(product: LocalProduct): void {
    for (const [page, rows] of this.pages) {
      const at = rows.findIndex((candidate) => candidate.id === product.id);
      if (at >= 0) this.pages.set(page, rows.with(at, product));
    }
  }

  // ---- selection ----

  isSelected(product: LocalProduct): boolean {
    return this.allMatching ? !this.excluded.has(product.id) : this.selected.has(product.id);
  }

  /** A click on a row's checkbox; with Shift, every row from the last click to this one. */
  async toggle(index: number, extend: boolean): Promise<void> {
    const product = this.row(index);
    if (!product || product.id < 0) return;
    if (extend && this.anchor !== null) {
      const from = Math.min(this.anchor, index);
      const to = Math.min(Math.max(this.anchor, index), this.total - 1);
      // A range may span far more rows than are loaded: read them in the largest windows.
      for (let offset = from; offset <= to; offset += BULK_LIMIT) {
        const result = await this.shell.api.listProducts(
          this.query(offset, Math.min(BULK_LIMIT, to - offset + 1)),
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
      (status) => this.status === null || this.status === status,
    );
    const products: LocalProduct[] = [];
    for (const status of statuses) {
      for (let offset = 0; ; offset += BULK_LIMIT) {
        const result = await this.shell.api.listProducts({
          ...this.query(offset, BULK_LIMIT),
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

  /** Queues the selected drafts for publishing; they show queued at once. */
  queueSelected(): Promise<void> {
    return this.actOnSelection({
      verb: 'queue',
      status: 'queued',
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
  }): Promise<void> {
    // "All matching" may be 100,000 products; say something while they are read.
    this.announcement = `Preparing to ${action.verb} the selected products…`;
    const selection = await this.editableSelection();
    this.announcement = '';
    if (!selection) return;
    const ids = selection.products.map((product) => product.id);
    if (ids.length === 0) {
      this.shell.notices.show(
        'info',
        `None of the selected products can be ${action.verb}d: only drafts and failed ones can.`,
      );
      return;
    }
    const shown = this.markBusy(ids, action.status);
    const result = await action.call(ids);
    if (result.ok) {
      const text = action.done(result.value, selection.locked);
      if (action.step) this.history.record(action.step(selection.products), text);
      else this.shell.notices.show('success', text);
      this.clearSelection();
      await this.refresh();
    } else {
      this.shell.notices.error(result.error.message, `Could not ${action.verb} the products`);
    }
    this.unmarkBusy(ids, shown);
  }

  /** Marks rows as waiting (and, when queueing, shows them queued); answers the ids shown so. */
  private markBusy(ids: number[], status: ProductStatus | null): number[] {
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

  private unmarkBusy(ids: number[], shown: number[]): void {
    for (const id of ids) this.busy.delete(id);
    for (const id of shown) this.overlay.delete(id);
  }

  /** Copies the active row's product as a new draft with a free SKU. */
  async duplicateActive(): Promise<void> {
    const product = this.row(this.active.row);
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
    await this.refresh();
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
    await this.refresh();
    await this.reveal(added.id);
    return null;
  }

  /** Scrolls to a product (the grid follows the active cell) and highlights it. */
  private async reveal(id: number): Promise<void> {
    this.highlighted = id;
    const generation = this.generation;
    // Its place depends on the sort: read the view in the largest windows until it turns up.
    for (let offset = 0; offset < this.total; offset += BULK_LIMIT) {
      const result = await this.shell.api.listProducts(this.query(offset, BULK_LIMIT));
      if (!result.ok || generation !== this.generation) return;
      const at = result.value.rows.findIndex((product) => product.id === id);
      if (at >= 0) {
        this.moveTo(offset + at, 0);
        return;
      }
      if (result.value.rows.length < BULK_LIMIT) return;
    }
  }

  // ---- fetching ----

  private query(offset: number, limit: number) {
    const search = this.search.trim();
    return {
      offset,
      limit,
      sort: this.sort,
      descending: this.descending,
      ...(search ? { search } : {}),
      ...(this.status ? { status: this.status } : {}),
    };
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
    const promise = this.shell.api
      .listProducts(this.query(page * PAGE_SIZE, PAGE_SIZE))
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
        const last = this.rowCount - 1;
        if (this.active.row > last) this.moveTo(last, this.active.col);
      });
    this.loading.set(page, promise);
    return promise;
  }
}

function reasonOf(error: { message: string; issues?: Issue[] }): string {
  const issues = error.issues ?? [];
  if (issues.length === 0) return error.message;
  return issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
}
