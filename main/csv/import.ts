// CSV import of posts and products (Node, main process): the run. It streams the file, maps its
// columns, has each row checked (./import-rows.ts) and writes the good ones as one undoable batch
// (./import-writes.ts). It writes as it reads, in short transactions, so the app's other writes
// never share a long one and memory stays flat however big the file. With on-error "abort" (the
// default) a file with any bad row writes nothing: the rows written before it are taken back
// (ImportsStore.abandonBatch), and queue items are only made once the whole file is in, so
// nothing goes out of an import a bad row stops.
import { setImmediate } from 'node:timers/promises';
import { PRIORITY } from '../../shared/domain';
import type { ImportProgress, ImportResult } from '../../shared/domain';
import type { WorkspaceStore } from '../store';
import { IMPORT_BEAT_MS } from '../store/imports';
import type { NewOutboxItem } from '../store/outbox';
import { mapColumns } from './columns';
import type { ImportKind } from './columns';
import { BadRowsFile } from './export';
import { keepFirst } from './import-options';
import type { ImportOptions } from './import-options';
import { ImportRows } from './import-rows';
import { writeRows } from './import-writes';
import { openCsv, UnusableFile } from './read';
import type { CsvFile } from './read';
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
 * Rows per write transaction. Each commit waits for the disk (synchronous = FULL), so fewer,
 * bigger ones are faster; 10,000 rows commit in tens of milliseconds on an idle computer. A write
 * holds the app's other calls until it is done, though: the first takes MIN_WRITE_BATCH rows, and
 * each next one as many as the last one's pace fits in WRITE_BUDGET_MS, up to WRITE_BATCH (a
 * busy or slow computer takes fewer).
 */
const WRITE_BATCH = 10_000;
const MIN_WRITE_BATCH = 1_000;
const WRITE_BUDGET_MS = 50;
const PROGRESS_EVERY = 5_000;
/** The longest the run works without letting other calls in. */
const YIELD_EVERY_MS = 10;

/** Counts a row's slot into the result, listing it among the first. */
function addSlot(result: ImportResult, slot: ImportResult['slots'][number]): void {
  result.slotCount++;
  keepFirst(result.slots, [slot]);
  const span = result.slotSpan;
  result.slotSpan = span
    ? { first: Math.min(span.first, slot.at), last: Math.max(span.last, slot.at) }
    : { first: slot.at, last: slot.at };
}

export async function importCsv(
  store: WorkspaceStore,
  kind: ImportKind,
  path: string,
  given: ImportOptions,
): Promise<ImportResult> {
  const options = { ...given, queue: given.queue === true || given.fillSlots !== undefined };
  const onError = options.onError ?? 'abort';
  const first = await openCsv(path, {
    ...(options.encoding ? { encoding: options.encoding } : {}),
    firstRowIsData: options.firstRowIsData ?? ((cells) => looksLikeData(kind, cells)),
  });
  const source = detectSource(kind, first.header, first.firstRowIsData);
  const mapping = mapColumns(
    kind,
    first.header,
    first.firstRowIsData && kind === 'posts'
      ? positionalMapping(first.header, options.mapping)
      : options.mapping,
  );
  if (mapping.missing.length > 0 && first.firstRowIsData) {
    throw new UnusableFile(
      `${path} has no header row, and no column is chosen for ${mapping.missing.map((field) => `"${field}"`).join(' or ')}: choose its column (${first.header.join(', ')})`,
    );
  }
  if (mapping.missing.length > 0) {
    throw new UnusableFile(
      `${path} has no ${mapping.missing.map((field) => `"${field}"`).join(' or ')} column (the header row has: ${first.header.join(', ')})`,
    );
  }
  const result: ImportResult = {
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
    unknownColumns: mapping.unknown,
    source: source ? SOURCE_LABELS[source] : null,
    firstRowIsData: first.firstRowIsData,
    leftOut: [],
    encoding: first.encoding,
    encodingGuess: first.encodingGuess,
    delimiter: first.delimiter,
    batch: null,
    written: false,
  };
  const progress: ImportProgress = {
    rowsRead: 0,
    rowsValid: 0,
    rowsWritten: 0,
    bytesRead: 0,
    bytes: first.size,
  };
  /** Bad rows are filled out to this many cells, so the error column is never read as data. */
  const badRowWidth =
    first.firstRowIsData && kind === 'posts'
      ? Math.max(first.header.length, POSITIONAL_COLUMNS)
      : first.header.length;
  // A file without a header row gets bad rows without one too, to import again the same way.
  const badRows = options.badRowsPath
    ? new BadRowsFile(options.badRowsPath, first.firstRowIsData ? [] : first.header)
    : null;
  const importRows = new ImportRows(store, kind, first.header, mapping, source, options);
  const { leftOut, held, shop } = importRows;
  if (shop) {
    const read = new Set(shop.reads.map((index) => first.header[index ?? -1]));
    result.unknownColumns = mapping.unknown.filter((header) => !read.has(header));
  }

  const writing = !options.dryRun;
  const pending: Valid[] = [];
  /** Queue items wait for the end: until then, nothing of the import has to be taken back. */
  const toQueue: NewOutboxItem[] = [];
  // Real time, not options.now: it spaces the beats out while the import runs.
  let lastBeat = Date.now();
  let writeBatch = MIN_WRITE_BATCH;
  const write = (items: Valid[]) => {
    const started = performance.now();
    store.transaction(() => {
      writeRows(store, items, result, options, toQueue);
      if (result.batch) store.imports.beat(result.batch);
    });
    const perRow = (performance.now() - started) / items.length;
    writeBatch = Math.max(
      MIN_WRITE_BATCH,
      Math.min(WRITE_BATCH, Math.floor(WRITE_BUDGET_MS / Math.max(perRow, 1e-6))),
    );
    lastBeat = Date.now();
    progress.rowsWritten = result.inserted + result.updated + result.unchanged;
  };
  const flush = () => {
    if (pending.length > 0) write(pending.splice(0));
  };
  const report = (file: CsvFile) => {
    progress.bytesRead = file.bytesRead();
    options.onProgress?.({ ...progress });
    // Checking on after a bad row (on-error abort), nothing is written: the batch still beats.
    if (result.batch && Date.now() - lastBeat > IMPORT_BEAT_MS) {
      store.imports.beat(result.batch);
      lastBeat = Date.now();
    }
  };

  if (writing) {
    store.imports.abandonStale();
    result.batch = store.imports.createBatch(kind, path);
  }
  try {
    let lastYield = Date.now();
    for await (const rows of first.batches) {
      // The stream may hand over chunks it has already read without a turn of the event loop:
      // give the app's other calls theirs, so they wait a few milliseconds, not the whole import.
      if (Date.now() - lastYield >= YIELD_EVERY_MS) {
        await setImmediate();
        lastYield = Date.now();
      }
      for (const row of rows) {
        const checked = importRows.validate(row);
        if (checked === null) continue;
        result.rows++;
        progress.rowsRead++;
        if (Array.isArray(checked)) {
          result.invalid++;
          result.errorCount += checked.length;
          keepFirst(result.errors, checked);
          badRows?.add(
            // Short rows are filled out, so the error column stays the last one.
            row.cells.length < badRowWidth
              ? [...row.cells, ...Array<string>(badRowWidth - row.cells.length).fill('')]
              : row.cells,
            checked.map((e) => `${e.column}: ${e.message}`).join('; '),
          );
          // With on-error abort the import is lost now: stop writing, keep checking for the report.
          if (onError === 'abort') pending.length = 0;
        } else if ('warning' in checked) {
          result.duplicates++;
          result.warningCount++;
          keepFirst(result.warnings, [checked.warning]);
        } else {
          progress.rowsValid++;
          if (checked.kind === 'posts' && checked.filled && checked.botId && checked.scheduledAt)
            addSlot(result, { row: checked.row, botId: checked.botId, at: checked.scheduledAt });
          if (writing && (onError === 'skip' || result.invalid === 0)) {
            pending.push(checked);
            if (pending.length >= writeBatch) flush();
          }
        }
        if (progress.rowsRead % PROGRESS_EVERY === 0) report(first);
      }
    }
    if (result.batch && onError === 'abort' && result.invalid > 0) {
      // Only what a user sent out while the import ran can stay; its batch then stays with it.
      const stayed = store.imports.abandonBatch(result.batch);
      Object.assign(result, {
        batch: stayed > 0 ? result.batch : null,
        inserted: stayed,
        updated: 0,
        unchanged: 0,
      });
      progress.rowsWritten = stayed;
    } else if (result.batch) {
      flush();
      const batch = result.batch;
      const keptBack = new Set(
        [...store.imports.productsBySku([...held]).values()].map((product) => product.id),
      );
      if (options.queue && kind === 'products')
        for (const productId of store.imports.insertedProducts(batch))
          if (!keptBack.has(productId))
            toQueue.push({
              kind: 'create_product',
              productId,
              priority: PRIORITY.due,
              dueAt: options.now,
            });
      // In short transactions, as the rows were written: the app's other work runs between them.
      for (let from = 0; from < toQueue.length; from += WRITE_BATCH) {
        store.transaction(() => {
          for (const item of toQueue.slice(from, from + WRITE_BATCH)) store.outbox.enqueue(item);
          store.imports.beat(batch);
        });
        await setImmediate();
      }
      store.imports.finishBatch(batch, {
        rows: result.rows,
        inserted: result.inserted,
        updated: result.updated,
        unchanged: result.unchanged,
        invalid: result.invalid,
        leftOut: result.duplicates + [...leftOut.values()].reduce((sum, rows) => sum + rows, 0),
      });
      result.written = true;
    }
  } catch (error) {
    // Whatever failed (the file, the disk), the import is all or nothing.
    if (result.batch) store.imports.abandonBatch(result.batch);
    throw error;
  } finally {
    badRows?.close();
  }
  report(first);
  result.leftOut = [...leftOut].map(([reason, rows]) => ({ reason, rows }));
  return result;
}
