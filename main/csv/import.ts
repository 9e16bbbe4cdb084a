// CSV import of posts and products (Node, main process): the run. It streams the file, maps its
// columns, has each row checked (./import-rows.ts) and writes the good ones as one undoable batch
// (./import-writes.ts). It writes as it reads, in short transactions, so the app's other writes
// never share a long one and memory stays flat however big the file. With on-error "abort" (the
// default) a file with any bad row writes nothing: the rows written before it are taken back
// (ImportsStore.abandonBatch), and queue items are only made once the whole file is in, so
// nothing goes out of an import a bad row stops.
import { PRIORITY } from '../../shared/domain';
import type { ImportProgress, ImportResult } from '../../shared/domain';
import type { WorkspaceStore } from '../store';
import { IMPORT_BEAT_MS } from '../store/imports';
import type { NewOutboxItem } from '../store/outbox';
import { mapColumns } from './columns';
import type { ImportKind } from './columns';
import { badRowsCsv } from './export';
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
 * bigger ones are faster; 10,000 rows still commit in tens of milliseconds, a pause the app's
 * other work barely notices.
 */
const WRITE_BATCH = 10_000;
const PROGRESS_EVERY = 5_000;

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
    warnings: [],
    slots: [],
    // A file without a header row gets bad rows without one too, to import again the same way.
    badRows: { header: first.firstRowIsData ? [] : first.header, rows: [] },
    badRowsCsv: null,
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
  const write = (items: Valid[]) => {
    store.transaction(() => {
      writeRows(store, items, result, options, toQueue);
      if (result.batch) store.imports.beat(result.batch);
    });
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
    for await (const rows of first.batches) {
      for (const row of rows) {
        const checked = importRows.validate(row);
        if (checked === null) continue;
        result.rows++;
        progress.rowsRead++;
        if (Array.isArray(checked)) {
          result.invalid++;
          result.errors.push(...checked);
          result.badRows.rows.push({
            // Short rows are filled out, so the error column stays the last one.
            cells:
              row.cells.length < badRowWidth
                ? [...row.cells, ...Array<string>(badRowWidth - row.cells.length).fill('')]
                : row.cells,
            message: checked.map((e) => `${e.column}: ${e.message}`).join('; '),
          });
          // With on-error abort the import is lost now: stop writing, keep checking for the report.
          if (onError === 'abort') pending.length = 0;
        } else if ('warning' in checked) {
          result.duplicates++;
          result.warnings.push(checked.warning);
        } else {
          progress.rowsValid++;
          if (checked.kind === 'posts' && checked.filled && checked.botId && checked.scheduledAt)
            result.slots.push({ row: checked.row, botId: checked.botId, at: checked.scheduledAt });
          if (writing && (onError === 'skip' || result.invalid === 0)) {
            pending.push(checked);
            if (pending.length >= WRITE_BATCH) flush();
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
        await new Promise((resolve) => setImmediate(resolve));
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
  }
  report(first);
  result.leftOut = [...leftOut].map(([reason, rows]) => ({ reason, rows }));
  if (result.badRows.rows.length > 0) result.badRowsCsv = badRowsCsv(result.badRows);
  return result;
}
