// Pasting into the catalog grid (browser): rows copied from a spreadsheet laid over the products
// from the active cell on, or added as new drafts, after asking when they would overwrite.
import type { LocalProduct } from '../../../shared/domain';
import { COLUMNS, changeCell, lockReason, saveInput } from './catalog-cells';
import type { EditableKey, SaveInput } from './catalog-cells';
import type { CatalogEditor, RowChange } from './catalog-editor.svelte';
import type { CatalogHistory } from './catalog-history.svelte';
import { stepOf } from './catalog-history.svelte';
import { needsQuestion, parseClipboardTable, pasteSummary, plural } from './catalog-paste';
import type { PasteChoice, PasteQuestion } from './catalog-paste';
import type { CatalogRows } from './catalog-rows.svelte';
import type { Shell } from './shell.svelte';

export class CatalogClipboard {
  /** A paste that would overwrite products (or meets locked ones) waits for this answer. */
  pasteQuestion = $state<(PasteQuestion & { answer: (choice: PasteChoice) => void }) | null>(null);
  private nextPendingId = -1;

  constructor(
    private readonly shell: Shell,
    private readonly rows: CatalogRows,
    private readonly editor: CatalogEditor,
    private readonly history: CatalogHistory,
    /** Says a line in the status region. */
    private readonly say: (text: string) => void,
  ) {}

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
    const { row: first, col } =
      where === 'below' ? { row: this.rows.rowCount, col: 0 } : this.editor.active;
    const lastExisting = Math.min(first + table.length, this.rows.total) - 1;
    if (lastExisting >= first) await this.rows.fetchRows(first, lastExisting);
    const covered = table
      .slice(0, Math.max(0, lastExisting - first + 1))
      .map((_, offset) => this.rows.row(first + offset));
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
        this.say('Nothing was pasted.');
        return;
      }
    }
    const asNew = choice === 'new';
    const changes: RowChange[] = [];
    const refused: string[] = [];
    table.forEach((cells, offset) => {
      const index = first + offset;
      const over = !asNew && index < this.rows.total;
      const existing = over ? this.rows.row(index) : undefined;
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
      changes.length > 0 ? await this.editor.saveAll(changes) : { failures: [], saved: [] };
    const problems = [...refused, ...failures];
    const summary = pasteSummary(saved, problems.length);
    this.say(summary);
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
}
