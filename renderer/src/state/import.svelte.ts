// The import wizard's state (browser): the picked file, the core's preview of it (detection,
// column mapping, sample rows and a dry run) and the user's choices. It creates its parts: the
// import itself with its progress, result and undo (import-run), the past imports
// (import-history) and the CSV export (csv-export); import-view.ts is what the preview shows.
import type { OperationInput } from '../../../shared/contract';
import type { TextEncoding } from '../../../shared/encodings';
import type { BotSummary, ImportPreview, ImportResult } from '../../../shared/domain';
import { CsvExport } from './csv-export.svelte';
import { ImportHistory } from './import-history.svelte';
import { ImportRun } from './import-run.svelte';
import {
  errorsByCell,
  fieldColumns,
  progressPercent,
  slotsByRow,
  tooBig,
  type FieldColumns,
  type ImportKind,
} from './import-view';
import type { Shell } from './shell.svelte';

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
  readonly history: ImportHistory;
  /** The import of the picked file: its progress, result and undo. */
  readonly importRun: ImportRun;
  readonly csvExport: CsvExport;

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
  readonly percent = $derived.by(() => {
    const { progress } = this.importRun;
    return progress ? progressPercent(progress, this.preview?.result ?? null) : 0;
  });
  readonly canImport = $derived.by(
    () =>
      this.file !== null &&
      this.preview !== null &&
      this.preview.problem === null &&
      !this.previewing &&
      !this.importRun.importing,
  );
  /** Each preview call's number: an answer older than the latest is dropped. */
  private previewCall = 0;

  constructor(private readonly shell: Shell) {
    this.history = new ImportHistory(shell);
    this.importRun = new ImportRun(shell, this.history);
    this.csvExport = new CsvExport(shell);
  }

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
    this.importRun.clear();
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
    this.importRun.clear();
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

  /** Imports the picked file with the choices previewed. */
  async run(): Promise<void> {
    if (!this.file || !this.canImport) return;
    await this.importRun.start({ ...this.base(), upload: this.file.upload });
  }

  /** Follows the import's progress and the history's changes; returns the way to stop. */
  watch(): () => void {
    const stops = [this.importRun.watch(), this.history.watch()];
    return () => {
      for (const stop of stops) stop();
    };
  }
}
