// The import wizard's state (browser): the picked file, the core's preview of it (detection,
// column mapping, sample rows and a dry run), the user's choices, the import with its live
// progress, its result and undo, the history of past imports (each undoable while it can be),
// and the export of posts or products as CSV.
import { GONE_OUT, describeUndone } from '../../../shared/domain';
import { MAX_UPLOAD_BYTES } from '../../../shared/contract';
import type { OperationInput } from '../../../shared/contract';
import type { CoreEvent } from '../../../shared/answers';
import type { TextEncoding } from '../../../shared/encodings';
import type {
  BotSummary,
  ImportBatch,
  ImportPreview,
  ImportProgress,
  ImportResult,
  LocalPost,
  LocalProduct,
  RowError,
} from '../../../shared/domain';
import type { Shell } from './shell.svelte';

export type ImportKind = ImportResult['kind'];
type DateFormat = 'DD/MM/YYYY' | 'MM/DD/YYYY';

/** The user's choices that shape both the preview's dry run and the import. */
interface ImportChoices {
  onError: 'abort' | 'skip';
  /** Posts with a time are scheduled, products queued; on by default for posts only. */
  queue: boolean;
  past: 'error' | 'publish-now';
  /** Null: the user's own zone (from the settings, which may arrive after this screen opens). */
  timezone: string | null;
  /** Null: only unambiguous (year-first) dates are read. */
  dateFormat: DateFormat | null;
  /** Posts: rows without a time go into their bot's next free slots (which schedules them all). */
  fillSlots: boolean;
  /** Posts: import rows that repeat a post of their bot, rather than leave them out. */
  allowDuplicates: boolean;
  /** Null: the encoding the core finds. */
  encoding: TextEncoding | null;
  /** Null: the core finds whether the first row is a header or data. */
  firstRowIsData: boolean | null;
  /** Posts: the bot of rows without one; null: none. */
  bot: string | null;
}

interface PickedFile {
  name: string;
  /** The id the core keeps the uploaded file under. */
  upload: string;
}

/** Field → the header it is read from, or null when it is not imported. */
export type FieldColumns = Record<string, string | null>;

/** The statuses with which the core refuses to undo an import: the item has gone out. */
const ON_PLATFORM: readonly string[] = GONE_OUT;

/** The key of one cell in the error index: its spreadsheet row and its header. */
export const cellKey = (row: number, column: string): string => `${row}\u0000${column}`;

/** Every error's (or warning's) sentence by cell, so the preview table marks the cells. */
export function errorsByCell(errors: readonly RowError[]): Record<string, string> {
  const index: Record<string, string> = {};
  for (const error of errors) {
    const key = cellKey(error.row, error.column);
    index[key] = index[key] ? `${index[key]}; ${error.message}` : error.message;
  }
  return index;
}

/** The preview's header → field answer, turned to the wizard's field → header view. */
export function fieldColumns(preview: ImportPreview): FieldColumns {
  const columns: FieldColumns = Object.fromEntries(
    preview.fields.map((field) => [field.name, null]),
  );
  for (const [header, field] of Object.entries(preview.mapping)) {
    if (field !== null) columns[field] = header;
  }
  return columns;
}

/** The slot fillSlots gives a row, by the row's number. */
export type RowSlots = Record<number, ImportResult['slots'][number]>;

export function slotsByRow(slots: ImportResult['slots']): RowSlots {
  return Object.fromEntries(slots.map((slot) => [slot.row, slot]));
}

/**
 * How far the import is, in percent: it reads every row, then writes the valid ones (in the same
 * pass when skipping bad rows), so the whole is the preview's rows plus its valid rows.
 */
export function progressPercent(progress: ImportProgress, expected: ImportResult | null): number {
  const total = expected ? expected.rows + (expected.rows - expected.invalid) : 0;
  const done = progress.rowsRead + progress.rowsWritten;
  if (total > 0) return Math.min(100, Math.round((done / total) * 100));
  return progress.bytes > 0
    ? Math.min(100, Math.round((progress.bytesRead / progress.bytes) * 100))
    : 0;
}

/** A file too big for the core's upload limit, told before reading it; else null. */
export function tooBig(file: { name: string; size: number }): string | null {
  if (file.size <= MAX_UPLOAD_BYTES) return null;
  const limit = MAX_UPLOAD_BYTES / 1024 / 1024;
  const size = (file.size / 1024 / 1024).toFixed(1);
  return `“${file.name}” is ${size} MiB; files up to ${limit} MiB can be imported here. Split it, or import it with the command line (npm run -s cli -- import).`;
}

export class ImportState {
  kind = $state<ImportKind>('posts');
  file = $state.raw<PickedFile | null>(null);
  /** Why the picked file was not read (too big, unreadable). */
  fileError = $state<string | null>(null);
  preview = $state.raw<ImportPreview | null>(null);
  previewError = $state<string | null>(null);
  previewing = $state(false);
  /** The columns the user chose; fields not named here are matched by name on the core. */
  overrides = $state.raw<FieldColumns>({});
  choices = $state<ImportChoices>({
    onError: 'abort',
    // A dated row means "post it then": posts are scheduled unless the user unticks this.
    queue: true,
    past: 'error',
    timezone: null,
    dateFormat: null,
    fillSlots: false,
    allowDuplicates: false,
    encoding: null,
    firstRowIsData: null,
    bot: null,
  });
  /** The bots a post file's rows without one can be given. */
  bots = $state.raw<BotSummary[]>([]);
  importing = $state(false);
  progress = $state.raw<ImportProgress | null>(null);
  result = $state.raw<ImportResult | null>(null);
  importError = $state<string | null>(null);
  /** What Undo did, once it ran. */
  undone = $state<string | null>(null);
  /** Why Undo can no longer run (items went to the platform), from the core or the events. */
  undoBlocked = $state<string | null>(null);
  exporting = $state(false);
  /** Past imports, newest first, from the core: they outlast this screen. */
  history = $state.raw<ImportBatch[]>([]);
  historyError = $state<string | null>(null);
  /** The batch whose undo is running, from the result or the history. */
  undoingBatch = $state<string | null>(null);

  /** Field → header as the preview matched it, with the user's latest choices over it. */
  readonly columns = $derived(
    this.preview ? { ...fieldColumns(this.preview), ...this.overrides } : {},
  );
  readonly cellErrors = $derived(errorsByCell(this.preview?.result?.errors ?? []));
  readonly cellWarnings = $derived(errorsByCell(this.preview?.result?.warnings ?? []));
  /** Some row's date needs the date format to be read (csv/values.ts says "the date format"). */
  readonly datesNeedFormat = $derived(
    (this.preview?.result?.errors ?? []).some((error) => error.message.includes('the date format')),
  );
  readonly rowSlots = $derived(slotsByRow(this.preview?.result?.slots ?? []));
  /** Filling slots only applies to posts; the core refuses it for products. */
  readonly fillsSlots = $derived(this.kind === 'posts' && this.choices.fillSlots);
  /** Posts go into the queue (the duplicate guard checks only those): chosen, or by filling slots. */
  readonly schedules = $derived(this.choices.queue || this.fillsSlots);
  readonly percent = $derived(
    this.progress ? progressPercent(this.progress, this.preview?.result ?? null) : 0,
  );
  readonly canImport = $derived(
    this.file !== null &&
      this.preview !== null &&
      this.preview.problem === null &&
      !this.previewing &&
      !this.importing,
  );
  /** Each preview call's number: an answer older than the latest is dropped. */
  private previewCall = 0;

  constructor(private readonly shell: Shell) {}

  /** The zone for times without one: the user's choice, else their settings' zone. */
  get timezone(): string {
    return this.choices.timezone ?? this.shell.timezone;
  }

  /** Sends a picked or dropped file to the core once, and previews it. */
  async pick(file: File): Promise<void> {
    this.fileError = tooBig(file);
    if (this.fileError) return;
    // Busy from now: the file on screen is about to be replaced, so it must not be imported.
    this.previewing = true;
    let sent: Awaited<ReturnType<Shell['upload']>>;
    try {
      sent = await this.shell.upload(file);
    } catch (error) {
      this.previewing = false;
      this.fileError = `“${file.name}” could not be read (${error instanceof Error ? error.message : String(error)}). Pick it again.`;
      return;
    }
    if (!sent.ok) {
      this.previewing = false;
      this.fileError = sent.error.message;
      return;
    }
    this.file = { name: file.name, upload: sent.value.upload };
    this.clearOutcome();
    // A fixed file has the same header, so the user's columns stay; a file without them starts
    // afresh from the matching by name.
    if ((await this.runPreview()) !== null) {
      this.overrides = {};
      await this.runPreview();
    }
  }

  async setKind(kind: ImportKind): Promise<void> {
    this.kind = kind;
    // Products queued by default would go on sale at once; dated posts only go at their time.
    this.choices.queue = kind === 'posts';
    this.overrides = {};
    this.clearOutcome();
    await this.previewAgain(`Could not read the file as ${kind}`);
  }

  async setChoice<K extends keyof ImportChoices>(key: K, value: ImportChoices[K]): Promise<void> {
    this.choices[key] = value;
    // With or without a header row the columns have other names: the mapping starts afresh.
    if (key === 'firstRowIsData') this.overrides = {};
    // The dry run reports every bad row whatever is done with them, so onError needs no new one.
    if (key !== 'onError') await this.previewAgain('Could not check the file with that choice');
  }

  /**
   * Reads `field` from `header` (null: not imported). A column fills one field, so a field that
   * had it gives it up. Shown at once; rolled back if the core refuses the mapping.
   */
  async setColumn(field: string, header: string | null): Promise<void> {
    const before = this.overrides;
    const next: FieldColumns = { ...this.overrides, [field]: header };
    if (header !== null) {
      for (const [other, chosen] of Object.entries(this.columns)) {
        if (other !== field && chosen === header) next[other] = null;
      }
    }
    this.overrides = next;
    if (!(await this.previewAgain('Could not use that column'))) this.overrides = before;
  }

  /** Previews with the current choices; tells a refusal as a notice and answers false. */
  private async previewAgain(doing: string): Promise<boolean> {
    const refusal = await this.runPreview();
    if (refusal) this.shell.notices.error(refusal, doing);
    return refusal === null;
  }

  /** Lists the bots for the choice of a bot for rows without one. */
  async loadBots(): Promise<void> {
    const bots = await this.shell.attempt(this.shell.api.listBots({}), 'Could not list the bots');
    if (!bots) return;
    this.bots = bots;
    // A scheduled post needs a bot: rows without one get the workspace's default, or the only bot.
    if (this.choices.bot !== null) return;
    const bot =
      this.shell.settings?.defaultBotId ?? (bots.length === 1 ? (bots[0]?.id ?? null) : null);
    if (bot !== null) await this.setChoice('bot', bot);
  }

  /** Reads the import history from the core. */
  async loadHistory(): Promise<void> {
    const answer = await this.shell.api.listImports({});
    if (answer.ok) {
      this.history = answer.value;
      this.historyError = null;
    } else this.historyError = answer.error.message;
  }

  /** The calendar's day of the result's first post, for "See on calendar"; null when none. */
  get resultFirstAt(): number | null {
    const batch = this.result?.batch;
    return this.history.find((entry) => entry.id === batch)?.firstAt ?? null;
  }

  /** The bad rows of `result` as CSV text, for a download; null (with a notice) when gone. */
  async badRowsCsv(result: ImportResult): Promise<string | null> {
    if (result.badRowsFile === null) return null;
    const answer = await this.shell.api.getBadRows({ id: result.badRowsFile });
    if (answer.ok) return answer.value.csv;
    this.shell.notices.error(answer.error.message, 'Could not download the bad rows');
    return null;
  }

  private base(): Omit<OperationInput<'importUpload'>, 'upload'> {
    const { onError, queue, past, dateFormat, allowDuplicates, encoding, firstRowIsData, bot } =
      this.choices;
    return {
      ...(encoding ? { encoding } : {}),
      ...(firstRowIsData !== null ? { firstRowIsData } : {}),
      ...(bot && this.kind === 'posts' ? { bot } : {}),
      kind: this.kind,
      onError,
      queue,
      past,
      fillSlots: this.fillsSlots,
      allowDuplicates,
      timezone: this.timezone,
      ...(dateFormat ? { dateFormat } : {}),
      ...(Object.keys(this.overrides).length > 0 ? { mapping: { ...this.overrides } } : {}),
    };
  }

  /** Asks the core for the preview; answers the core's refusal of the mapping, if any. */
  async runPreview(): Promise<string | null> {
    if (!this.file) return null;
    const call = ++this.previewCall;
    this.previewing = true;
    const answer = await this.shell.api.previewUpload({
      ...this.base(),
      upload: this.file.upload,
    });
    if (call !== this.previewCall) return null;
    this.previewing = false;
    if (answer.ok) {
      this.preview = answer.value;
      this.previewError = null;
      return null;
    }
    // A refused mapping leaves the last good preview standing; anything else replaces it.
    if (answer.error.kind === 'invalid_input' && this.preview) return answer.error.message;
    this.preview = null;
    this.previewError = answer.error.message;
    return null;
  }

  async run(): Promise<void> {
    if (!this.file || !this.canImport) return;
    this.clearOutcome();
    this.importing = true;
    this.progress = { rowsRead: 0, rowsValid: 0, rowsWritten: 0, bytesRead: 0, bytes: 0 };
    const answer = await this.shell.api.importUpload({
      ...this.base(),
      upload: this.file.upload,
    });
    this.importing = false;
    if (!answer.ok) {
      this.importError = answer.error.message;
      return;
    }
    this.result = answer.value;
    await this.loadHistory();
    if (answer.value.written) {
      const { inserted, updated } = answer.value;
      this.shell.notices.show(
        'success',
        `Imported ${inserted} new and ${updated} updated ${this.kind}`,
      );
    }
  }

  /** Undoes the batch just imported (the result's), or one from the history. */
  async undo(batch = this.result?.batch): Promise<void> {
    if (!batch || this.undoingBatch !== null) return;
    this.undoingBatch = batch;
    const answer = await this.shell.api.undoImport({ batch });
    this.undoingBatch = null;
    const current = batch === this.result?.batch;
    if (answer.ok) {
      const undone = `Import undone: ${describeUndone(answer.value)}`;
      if (current) this.undone = undone;
      this.shell.notices.show('success', undone);
    } else if (answer.error.kind === 'not_allowed' && current) {
      this.undoBlocked = answer.error.message;
    } else {
      this.shell.notices.error(answer.error.message, 'Could not undo the import');
    }
    await this.loadHistory();
  }

  /** Follows the import's progress, and whether the imported items went out; returns the stop. */
  watch(): () => void {
    return this.shell.onEvent((event) => {
      if (event.type === 'import' && this.importing) this.progress = event.progress;
      else if (this.publishes(event)) void this.checkPublished();
      // An item sent (or a batch undone elsewhere) changes what the history can still undo.
      if (
        event.type === 'done' ||
        (event.type === 'changed' && (event.what === 'posts' || event.what === 'products'))
      )
        void this.loadHistory();
    });
  }

  /** A queue item of this import's kind went out: perhaps one of ours. */
  private publishes(event: CoreEvent): boolean {
    if (event.type !== 'done' || !this.result?.batch || this.undone !== null || this.undoBlocked)
      return false;
    return event.item.kind === (this.kind === 'posts' ? 'create_post' : 'create_product');
  }

  private async checkPublished(): Promise<void> {
    const batch = this.result?.batch;
    if (!batch) return;
    const gone = (item: LocalPost | LocalProduct) =>
      item.batchId === batch && ON_PLATFORM.includes(item.status);
    let published = false;
    if (this.kind === 'posts') {
      const posts = await this.shell.api.listPosts({});
      published = posts.ok && posts.value.some(gone);
    } else {
      // The latest published products come first; a batch's own are among them.
      const products = await this.shell.api.listProducts({
        status: 'published',
        sort: 'updated',
        descending: true,
        limit: 1000,
      });
      published = products.ok && products.value.rows.some(gone);
    }
    if (published)
      this.undoBlocked = `Some ${this.kind} of this import are on the platform already, so it can no longer be undone.`;
  }

  async exportCsv(
    kind: ImportKind,
    bom: boolean,
  ): Promise<{ fileName: string; csv: string } | undefined> {
    this.exporting = true;
    const exported = await this.shell.attempt(
      this.shell.api.exportText({ kind, bom }),
      `Could not export the ${kind}`,
    );
    this.exporting = false;
    if (exported) this.shell.notices.show('success', `Exported ${exported.rows} ${kind}`);
    return exported;
  }

  private clearOutcome(): void {
    this.result = null;
    this.importError = null;
    this.progress = null;
    this.undone = null;
    this.undoBlocked = null;
  }
}
