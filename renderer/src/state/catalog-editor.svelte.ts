// The catalog's cell editing (browser): the active cell and its editor, and optimistic saves
// that show at once and roll back per row, with the core's refusal on the cell.
import { SvelteMap } from 'svelte/reactivity';
import type { Issue } from '../../../shared/answers';
import type { LocalProduct } from '../../../shared/domain';
import { COLUMNS, cellText, changeCell, issueColumn, lockReason, saveInput } from './catalog-cells';
import type { Column, EditableKey, SaveInput } from './catalog-cells';
import type { CatalogHistory } from './catalog-history.svelte';
import { stepOf } from './catalog-history.svelte';
import type { CatalogRows } from './catalog-rows.svelte';
import type { Shell } from './shell.svelte';

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
export interface RowChange {
  before: LocalProduct | null;
  after: LocalProduct;
  input: SaveInput;
  /** The cells it changes, where the core's refusal is shown when it names no field. */
  fields: EditableKey[];
  /** "Row 4" or "BK-001", for the summary of a paste. */
  label: string;
}

/** A change saved by the core: the product before (null: created) and as the core keeps it now. */
export interface Saved {
  before: LocalProduct | null;
  after: LocalProduct;
}

const cellKey = (id: number, key: EditableKey): string => `${id}:${key}`;

export class CatalogEditor {
  active = $state<CellAddress>({ row: 0, col: 0 });
  editing = $state<Editing | null>(null);
  /** The core's or the editor's refusal per cell ("id:field"), shown on the cell. */
  readonly cellErrors = new SvelteMap<string, string>();

  constructor(
    private readonly shell: Shell,
    private readonly rows: CatalogRows,
    private readonly history: CatalogHistory,
    /** Says a line in the status region. */
    private readonly say: (text: string) => void,
  ) {}

  cellError(product: LocalProduct, key: EditableKey): string | null {
    return this.cellErrors.get(cellKey(product.id, key)) ?? null;
  }

  /** Why a cell cannot be edited, or null when it can. */
  readOnlyReason(product: LocalProduct, column: Column): string | null {
    if (product.id < 0) return 'It is being created; wait a moment';
    if (this.rows.busy.has(product.id)) return 'It is being queued or deleted';
    const locked = lockReason(product);
    if (locked) return locked;
    return column.editable ? null : 'The status changes when you queue the product';
  }

  /** A new view: the editor closes and the first row becomes active, in the same column. */
  reset(): void {
    this.editing = null;
    this.active = { row: 0, col: this.active.col };
  }

  /** Keeps the active cell on a row that exists after the count shrank. */
  keepInRows(): void {
    const last = this.rows.rowCount - 1;
    if (this.active.row > last) this.moveTo(last, this.active.col);
  }

  moveTo(row: number, col: number): void {
    this.active = {
      row: Math.max(0, Math.min(row, this.rows.rowCount - 1)),
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
    if (nextRow < 0 || nextRow >= this.rows.rowCount) return false;
    this.moveTo(nextRow, direction === 1 ? 0 : COLUMNS.length - 1);
    return true;
  }

  /** Opens the editor on the active cell, or says why it cannot be edited. */
  startEdit(text?: string): boolean {
    const { row, col } = this.active;
    const product = this.rows.row(row);
    const column = COLUMNS[col];
    if (!product || !column) return false;
    const why = this.readOnlyReason(product, column);
    if (why) {
      this.say(`${column.label} of ${product.sku} cannot be edited. ${why}.`);
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
    const product = editing && this.rows.row(editing.row);
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

  /**
   * Shows every change at once (one update), saves each, and rolls back those the core refuses
   * with its reason on the cell. Answers the refusals, one line each, and what was saved.
   */
  async saveAll(changes: RowChange[]): Promise<{ failures: string[]; saved: Saved[] }> {
    const created = changes.filter((change) => !change.before).map((change) => change.after);
    for (const change of changes) {
      if (!change.before) continue;
      this.rows.showEdited(change.after);
      for (const field of change.fields) this.cellErrors.delete(cellKey(change.after.id, field));
    }
    if (created.length > 0) this.rows.pending = [...this.rows.pending, ...created];
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
        if (change.before) this.rows.replace(result.value);
        saved.push({ before: change.before, after: result.value });
        continue;
      }
      failures.push(`${change.label}: ${reasonOf(result.error)}`);
      if (change.before) this.showIssues(change, result.error);
    }
    if (created.length > 0) {
      // The new rows land where the sort puts them; fetch them before the placeholders go.
      await this.rows.refresh();
      this.rows.pending = this.rows.pending.filter((product) => !created.includes(product));
    }
    for (const change of changes) if (change.before) this.rows.dropEdited(change.after.id);
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
}

function reasonOf(error: { message: string; issues?: Issue[] }): string {
  const issues = error.issues ?? [];
  if (issues.length === 0) return error.message;
  return issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
}
