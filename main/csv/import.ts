// CSV import of posts and products (Node, main process): the run. It streams the file, maps its
// columns, has each row checked (./import-rows.ts) and writes the good ones as one undoable batch
// (./import-writes.ts). It writes as it reads, in short transactions, so the app's other writes
// never share a long one and memory stays flat however big the file. With on-error "abort" (the
// default) a file with any bad row writes nothing: the rows written before it are taken back
// (ImportsStore.abandonBatch), and queue items are only made once the whole file is in, so
// nothing goes out of an import a bad row stops.
import { setImmediate } from 'node:timers/promises';
import { PRIORITY } from '../../shared/domain';
import { clipped, namesList } from '../../shared/text';
import type { ImportProgress, ImportResult } from '../../shared/domain';
import { SLICE_BUDGET_MS, SliceSizer } from '../../shared/slices';
import type { WorkspaceStore } from '../store';
import { IMPORT_BEAT_MS } from '../store/imports';
import type { NewOutboxItem } from '../store/outbox';
import { mapColumns } from './columns';
import type { ColumnMapping, ImportKind } from './columns';
import { BadRowsFile } from './export';
import { keepFirst } from './import-options';
import type { ImportOptions } from './import-options';
import { ImportRows } from './import-rows';
import { writeRows } from './import-writes';
import { openCsv, UnusableFile } from './read';
import type { CsvFile, CsvRow } from './read';
import type { Valid } from './row-checks';
import {
  detectSource,
  looksLikeData,
  POSITIONAL_COLUMNS,
  positionalMapping,
  SOURCE_LABELS,
} from './sources';

export { UnusableFile };

/**
 * Rows per write transaction. Each holds the app's other calls until it commits, so each is a
 * slice bounded by time, not rows (shared/slices.ts): the first takes 100 rows, and each next one
 * as many as the last one's pace fits in a slice's budget, up to 10,000, and at most twice the
 * last: a write's pace per row swings several times over (a warm page cache, the checkpoint
 * thread, the JIT), and sized by one quick write alone the next held the event loop 20-30 ms.
 * Its commit does not wait for the disk (WorkspaceStore.transactionDurableLater): with one disk
 * flush per commit, short transactions made the import 1.5× slower; the batch's last write
 * flushes them all.
 */
const WRITE_ROWS = { first: 100, min: 100, max: 10_000, growth: 2 };
const PROGRESS_EVERY = 5_000;

/** Counts a row's slot into the result, listing it among the first. */
function addSlot(result: ImportResult, slot: ImportResult['slots'][number]): void {
  result.slotCount++;
  keepFirst(result.slots, [slot]);
  const span = result.slotSpan;
  result.slotSpan = span
    ? { first: Math.min(span.first, slot.at), last: Math.max(span.last, slot.at) }
    : { first: slot.at, last: slot.at };
}

/** A column's name as a message or a list shows it: a header cell can be as long as any cell. */
const shownColumn = (header: string): string => clipped(header, 100);

/** The file opened and its columns matched to fields: what a preview shows and an import reads. */
export interface MappedFile {
  file: CsvFile;
  source: ReturnType<typeof detectSource>;
  mapping: ColumnMapping<ImportKind>;
  /** Why the file cannot be imported as mapped (a required field without a column), or null. */
  missing: string | null;
}

/**
 * Opens a CSV file for `kind` and maps its columns, once, for a preview and an import alike:
 * headerless post files by position, the user's choices over the matching by name. A required
 * field without a column is told in `missing`, saying which.
 */
export async function openMapped(
  kind: ImportKind,
  path: string,
  options: Pick<ImportOptions, 'encoding' | 'firstRowIsData' | 'mapping'>,
): Promise<MappedFile> {
  const file = await openCsv(path, {
    ...(options.encoding ? { encoding: options.encoding } : {}),
    firstRowIsData: options.firstRowIsData ?? ((cells) => looksLikeData(kind, cells)),
  });
  const source = detectSource(kind, file.header, file.firstRowIsData);
  const positional = file.firstRowIsData && kind === 'posts';
  const mapping = mapColumns(
    kind,
    file.header,
    positional ? positionalMapping(file.header, options.mapping) : options.mapping,
  );
  const fields = mapping.missing.map((field) => `"${field}"`).join(' or ');
  const headers = namesList(file.header.map(shownColumn));
  const missing =
    mapping.missing.length === 0
      ? null
      : file.firstRowIsData
        ? `${path} has no header row, and no column is chosen for ${fields}: choose its column (${headers})`
        : `${path} has no ${fields} column (the header row has: ${headers})`;
  return { file, source, mapping, missing };
}

export async function importCsv(
  store: WorkspaceStore,
  kind: ImportKind,
  path: string,
  given: ImportOptions,
): Promise<ImportResult> {
  const options = { ...given, queue: given.queue === true || given.fillSlots !== undefined };
  const mapped = await openMapped(kind, path, options);
  if (mapped.missing) throw new UnusableFile(mapped.missing);
  return new ImportRun(store, kind, path, mapped, options).run();
}

/** A preview: the file as mapped, its first rows, and a dry run of the whole (null if unusable). */
export interface CsvPreview {
  mapped: MappedFile;
  sample: CsvRow[];
  result: ImportResult | null;
  /** Why the file cannot be imported (a column missing, a file unreadable midway), or null. */
  problem: string | null;
}

/**
 * What the import wizard shows, from one reading of the file: the dry run collects the sample
 * rows as it reads them. A file whose mapping lacks a field still gives its sample rows.
 */
export async function previewCsv(
  store: WorkspaceStore,
  kind: ImportKind,
  path: string,
  given: ImportOptions,
  sampleRows: number,
): Promise<CsvPreview> {
  const options = {
    ...given,
    dryRun: true,
    queue: given.queue === true || given.fillSlots !== undefined,
  };
  const mapped = await openMapped(kind, path, options);
  const sample: CsvRow[] = [];
  if (mapped.missing) {
    for await (const row of mapped.file.rows) {
      if (sample.length >= sampleRows) break;
      sample.push(row);
    }
    return { mapped, sample, result: null, problem: mapped.missing };
  }
  const run = new ImportRun(store, kind, path, mapped, options, {
    rows: sample,
    limit: sampleRows,
  });
  try {
    return { mapped, sample, result: await run.run(), problem: null };
  } catch (error) {
    if (!(error instanceof UnusableFile)) throw error;
    return { mapped, sample, result: null, problem: error.message };
  }
}

/** A result with nothing counted yet, describing the file as it was opened. */
function emptyResult(kind: ImportKind, { file, source, mapping }: MappedFile): ImportResult {
  return {
    kind,
    rows: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    invalid: 0,
    duplicates: 0,
    errors: [],
    errorCount: 0,
    warnings: [],
    warningCount: 0,
    slots: [],
    slotCount: 0,
    slotSpan: null,
    badRowsFile: null,
    unknownColumns: mapping.unknown.map(shownColumn),
    source: source ? SOURCE_LABELS[source] : null,
    firstRowIsData: file.firstRowIsData,
    leftOut: [],
    encoding: file.encoding,
    encodingGuess: file.encodingGuess,
    delimiter: file.delimiter,
    batch: null,
    written: false,
  };
}

/** One import of one opened file: read, check, write in short transactions, then finish. */
class ImportRun {
  private readonly result: ImportResult;
  private readonly progress: ImportProgress;
  private readonly onError: 'abort' | 'skip';
  private readonly writing: boolean;
  private readonly badRows: BadRowsFile | null;
  /** Bad rows are filled out to this many cells, so the error column is never read as data. */
  private readonly badRowWidth: number;
  private readonly importRows: ImportRows;
  private readonly pending: Valid[] = [];
  /** Queue items wait for the end: until then, nothing of the import has to be taken back. */
  private readonly toQueue: NewOutboxItem[] = [];
  // Real time, not options.now: it spaces the beats out while the import runs.
  private lastBeat = Date.now();
  private readonly writeRows = new SliceSizer(WRITE_ROWS);

  constructor(
    private readonly store: WorkspaceStore,
    private readonly kind: ImportKind,
    private readonly path: string,
    private readonly mapped: MappedFile,
    private readonly options: ImportOptions & { queue: boolean },
    /** A preview's first rows, as read. */
    private readonly sample: { rows: CsvRow[]; limit: number } | null = null,
  ) {
    const { file, source, mapping } = mapped;
    this.result = emptyResult(kind, mapped);
    this.progress = { rowsRead: 0, rowsValid: 0, rowsWritten: 0, bytesRead: 0, bytes: file.size };
    this.onError = options.onError ?? 'abort';
    this.writing = !options.dryRun;
    this.badRowWidth =
      file.firstRowIsData && kind === 'posts'
        ? Math.max(file.header.length, POSITIONAL_COLUMNS)
        : file.header.length;
    // A file without a header row gets bad rows without one too, to import again the same way.
    this.badRows = options.badRowsPath
      ? new BadRowsFile(options.badRowsPath, file.firstRowIsData ? [] : file.header)
      : null;
    this.importRows = new ImportRows(store, kind, file.header, mapping, source, options);
    const { shop } = this.importRows;
    if (shop) {
      const read = new Set(shop.reads.map((index) => file.header[index ?? -1]));
      this.result.unknownColumns = mapping.unknown
        .filter((header) => !read.has(header))
        .map(shownColumn);
    }
  }

  async run(): Promise<ImportResult> {
    const { store, result } = this;
    if (this.writing) {
      store.imports.abandonStale();
      result.batch = store.imports.createBatch(this.kind, this.path);
    }
    try {
      await this.readAll();
      if (result.batch && this.onError === 'abort' && result.invalid > 0)
        this.abandon(result.batch);
      else if (result.batch) await this.finish(result.batch);
    } catch (error) {
      // Whatever failed (the file, the disk), the import is all or nothing.
      if (result.batch) store.imports.abandonBatch(result.batch);
      throw error;
    } finally {
      this.badRows?.close();
    }
    this.report();
    result.leftOut = [...this.importRows.leftOut].map(([reason, rows]) => ({ reason, rows }));
    return result;
  }

  private async readAll(): Promise<void> {
    let lastYield = performance.now();
    for await (const rows of this.mapped.file.batches) {
      for (const row of rows) {
        this.take(row);
        if (this.progress.rowsRead % PROGRESS_EVERY === 0) this.report();
        // A write is a turn of its own: the app's other calls get one before and after it.
        if (this.pending.length >= this.writeRows.size) {
          await this.store.room();
          this.flush();
          await setImmediate();
          lastYield = performance.now();
        } else if (performance.now() - lastYield >= SLICE_BUDGET_MS) {
          // The stream may hand over chunks it has already read without a turn of the event
          // loop: give the app's other calls theirs, so they wait milliseconds, not the import.
          await setImmediate();
          lastYield = performance.now();
        }
      }
    }
  }

  /** One row checked and counted: bad, left out as a duplicate, or good (and written). */
  private take(row: CsvRow): void {
    const { result, progress, sample } = this;
    if (sample && sample.rows.length < sample.limit) sample.rows.push(row);
    const checked = this.importRows.validate(row);
    if (checked === null) return;
    result.rows++;
    progress.rowsRead++;
    if (Array.isArray(checked)) {
      this.refuse(row, checked);
    } else if ('warning' in checked) {
      result.duplicates++;
      result.warningCount++;
      keepFirst(result.warnings, [checked.warning]);
    } else {
      progress.rowsValid++;
      if (checked.kind === 'posts' && checked.filled && checked.botId && checked.scheduledAt)
        addSlot(result, { row: checked.row, botId: checked.botId, at: checked.scheduledAt });
      if (this.writing && (this.onError === 'skip' || result.invalid === 0)) {
        this.pending.push(checked);
      }
    }
  }

  private refuse(row: CsvRow, errors: ImportResult['errors']): void {
    const { result } = this;
    result.invalid++;
    result.errorCount += errors.length;
    keepFirst(result.errors, errors);
    const width = this.badRowWidth;
    this.badRows?.add(
      // Short rows are filled out, so the error column stays the last one.
      row.cells.length < width
        ? [...row.cells, ...Array<string>(width - row.cells.length).fill('')]
        : row.cells,
      errors.map((e) => `${e.column}: ${e.message}`).join('; '),
    );
    // With on-error abort the import is lost now: stop writing, keep checking for the report.
    if (this.onError === 'abort') this.pending.length = 0;
  }

  private write(items: Valid[]): void {
    const { store, result } = this;
    const started = performance.now();
    store.transactionDurableLater(() => {
      writeRows(store, items, result, this.options, this.toQueue);
      if (result.batch) store.imports.beat(result.batch);
    });
    this.writeRows.took(items.length, performance.now() - started);
    this.lastBeat = Date.now();
    this.progress.rowsWritten = result.inserted + result.updated + result.unchanged;
  }

  private flush(): void {
    if (this.pending.length > 0) this.write(this.pending.splice(0));
  }

  private report(): void {
    const { result, progress } = this;
    progress.bytesRead = this.mapped.file.bytesRead();
    this.options.onProgress?.({ ...progress });
    // Checking on after a bad row (on-error abort), nothing is written: the batch still beats.
    if (result.batch && Date.now() - this.lastBeat > IMPORT_BEAT_MS) {
      this.store.imports.beat(result.batch);
      this.lastBeat = Date.now();
    }
  }

  /** On-error abort with a bad row: only what a user sent out meanwhile stays, with its batch. */
  private abandon(batch: string): void {
    const stayed = this.store.imports.abandonBatch(batch);
    Object.assign(this.result, {
      batch: stayed > 0 ? batch : null,
      inserted: stayed,
      updated: 0,
      unchanged: 0,
    });
    this.progress.rowsWritten = stayed;
  }

  /** The last rows, the queue items (products queued unless held back), and the batch's summary. */
  private async finish(batch: string): Promise<void> {
    const { store, result, options, toQueue } = this;
    this.flush();
    const held = store.imports.productsBySku([...this.importRows.held]).values();
    const keptBack = new Set([...held].map((product) => product.id));
    if (options.queue && this.kind === 'products')
      for (const productId of store.imports.insertedProducts(batch))
        if (!keptBack.has(productId))
          toQueue.push({
            kind: 'create_product',
            productId,
            priority: PRIORITY.due,
            dueAt: options.now,
          });
    // In short transactions, as the rows were written: the app's other work runs between them.
    for (let next = 0; next < toQueue.length;) {
      store.transactionDurableLater(() => {
        const until = performance.now() + SLICE_BUDGET_MS;
        do store.outbox.enqueue(toQueue[next++] as NewOutboxItem);
        while (next < toQueue.length && performance.now() < until);
        store.imports.beat(batch);
      });
      await store.room();
    }
    // A commit that waits for the disk: every write of the import before it is on disk with it.
    const leftOut = [...this.importRows.leftOut.values()].reduce((sum, rows) => sum + rows, 0);
    store.imports.finishBatch(batch, {
      rows: result.rows,
      inserted: result.inserted,
      updated: result.updated,
      unchanged: result.unchanged,
      invalid: result.invalid,
      leftOut: result.duplicates + leftOut,
    });
    result.written = true;
  }
}
