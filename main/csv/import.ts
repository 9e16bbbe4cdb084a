// CSV import of posts and products (Node, main process): streams the file, validates every row
// into a plain sentence per bad cell, and writes the good ones as one undoable batch. With
// on-error "abort" (the default) a file with any bad row writes nothing: it is read once to
// validate and once more to write, so the app's other writes never share a long transaction.
import { PRIORITY } from '../../shared/domain';
import { isCurrency } from '../../shared/money';
import { toInstant, isTimeZone } from '../../shared/time';
import { isHttpUrl } from '../../shared/validation';
import type { WorkspaceStore } from '../store';
import type { CatalogFields } from '../store/products';
import { mapColumns } from './columns';
import type { ColumnMapping, FieldName, ImportKind } from './columns';
import { openCsv, UnusableFile } from './read';
import type { CsvRow } from './read';
import { normaliseDateTime, parsePrice } from './values';
import type { DateFormat } from './values';

export { UnusableFile };

export interface RowError {
  row: number;
  column: string;
  value: string;
  message: string;
}

export interface ImportOptions {
  dryRun?: boolean;
  onError?: 'abort' | 'skip';
  /** Posts with a time are scheduled and products queued, instead of staying drafts. */
  queue?: boolean;
  /** What a scheduled time in the past is: a row error, or "publish now". */
  past?: 'error' | 'publish-now';
  timezone: string;
  dateFormat?: DateFormat;
  defaultCurrency: string;
  now: number;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportProgress {
  rowsRead: number;
  rowsValid: number;
  rowsWritten: number;
  bytesRead: number;
  bytes: number;
}

export interface ImportResult {
  kind: ImportKind;
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  invalid: number;
  errors: RowError[];
  warnings: RowError[];
  /** The header and every invalid row as read, for a file of bad rows to fix and import again. */
  badRows: { header: string[]; rows: { cells: string[]; message: string }[] };
  unknownColumns: string[];
  encoding: string;
  delimiter: string;
  batch: string | null;
  written: boolean;
}

type ValidPost = {
  kind: 'posts';
  row: number;
  text: string;
  botId: string | null;
  scheduledAt: number | null;
  zone: string;
  mediaUrls: string[];
  publishNow: boolean;
};
type ValidProduct = CatalogFields & { kind: 'products'; row: number };
type Valid = ValidPost | ValidProduct;

const WRITE_BATCH = 2_000;
const PROGRESS_EVERY = 5_000;

class RowChecker<K extends ImportKind> {
  readonly errors: RowError[] = [];
  constructor(
    private readonly mapping: ColumnMapping<K>,
    private readonly header: string[],
    private readonly row: CsvRow,
  ) {}

  cell(field: FieldName<K>): string {
    const index = this.mapping.columns[field];
    return index === undefined ? '' : (this.row.cells[index] ?? '').trim();
  }

  fail(field: FieldName<K>, message: string): void {
    const index = this.mapping.columns[field];
    this.errors.push({
      row: this.row.row,
      column: index === undefined ? field : (this.header[index] ?? field),
      value: this.cell(field),
      message,
    });
  }
}

function checkProduct(
  check: RowChecker<'products'>,
  row: number,
  options: ImportOptions,
): ValidProduct | null {
  const sku = check.cell('sku');
  const name = check.cell('name');
  if (sku === '') check.fail('sku', 'SKU is required');
  else if (sku.length > 64) check.fail('sku', 'SKU must be at most 64 characters');
  if (name === '') check.fail('name', 'Name is required');
  else if (name.length > 200) check.fail('name', 'Name must be at most 200 characters');
  const currency = (check.cell('currency') || options.defaultCurrency).toUpperCase();
  if (!isCurrency(currency))
    check.fail('currency', `"${currency}" is not an ISO 4217 currency code such as USD`);
  const price = parsePrice(check.cell('price'), isCurrency(currency) ? currency : 'USD');
  if (!price.ok) check.fail('price', `Price ${price.reason}`);
  const stockText = check.cell('stock');
  const stock = stockText === '' ? null : Number(stockText);
  if (stock !== null && (!Number.isInteger(stock) || stock < 0))
    check.fail('stock', 'Stock must be a whole number, 0 or more');
  const description = check.cell('description') || null;
  if (description && description.length > 10_000)
    check.fail('description', 'Description must be at most 10000 characters');
  const imageUrl = check.cell('image_url') || null;
  if (imageUrl && !isHttpUrl(imageUrl))
    check.fail('image_url', 'Image URL must be an absolute http or https URL');
  if (check.errors.length > 0 || !price.ok) return null;
  return {
    kind: 'products',
    row,
    sku,
    name,
    description,
    priceMinor: price.value,
    currency,
    stock,
    imageUrl,
  };
}

function checkPost(
  check: RowChecker<'posts'>,
  row: number,
  options: ImportOptions,
  store: WorkspaceStore,
): ValidPost | null {
  const text = check.cell('text');
  if (text === '') check.fail('text', 'Text is required');
  else if (text.length > 4096) check.fail('text', 'Text must be at most 4096 characters');
  const zone = check.cell('timezone') || options.timezone;
  if (!isTimeZone(zone))
    check.fail('timezone', `"${zone}" is not an IANA time zone such as Europe/Berlin`);
  const when =
    check.cell('scheduled_at') ||
    [check.cell('date'), check.cell('time')].filter(Boolean).join(' ');
  let scheduledAt: number | null = null;
  let publishNow = false;
  if (when !== '') {
    const field = check.cell('scheduled_at') ? 'scheduled_at' : 'date';
    const iso = normaliseDateTime(when, options.dateFormat);
    const instant = iso.ok && isTimeZone(zone) ? toInstant(iso.value, zone) : null;
    if (!iso.ok) check.fail(field, iso.reason);
    else if (instant && !instant.ok) check.fail(field, instant.reason);
    else if (instant?.ok) {
      scheduledAt = instant.ms;
      if (options.queue && scheduledAt <= options.now) {
        if (options.past === 'publish-now') publishNow = true;
        else
          check.fail(field, 'This time is in the past; fix it, or import with --past publish-now');
      }
    }
  }
  const botText = check.cell('bot');
  const botId = botText === '' ? null : (store.cache.findBot(botText) ?? botText);
  const mediaUrls = check
    .cell('media_urls')
    .split(/[|\s]+/)
    .filter(Boolean);
  const badUrl = mediaUrls.find((url) => !isHttpUrl(url));
  if (badUrl) check.fail('media_urls', `"${badUrl}" is not an absolute http or https URL`);
  else if (mediaUrls.length > 10) check.fail('media_urls', 'A post can have at most 10 media URLs');
  if (check.errors.length > 0) return null;
  return { kind: 'posts', row, text, botId, scheduledAt, zone, mediaUrls, publishNow };
}

export async function importCsv(
  store: WorkspaceStore,
  kind: ImportKind,
  path: string,
  options: ImportOptions,
): Promise<ImportResult> {
  const onError = options.onError ?? 'abort';
  const first = await openCsv(path);
  const mapping = mapColumns(kind, first.header);
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
    errors: [],
    warnings: [],
    badRows: { header: first.header, rows: [] },
    unknownColumns: mapping.unknown,
    encoding: first.encoding,
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
  const report = (file: typeof first) => {
    progress.bytesRead = file.bytesRead();
    options.onProgress?.({ ...progress });
  };

  const seenSkus = new Map<string, number>();
  /** Shopify's product-level cells, carried from a handle's first row to its variant rows. */
  const handles = new Map<string, { name: string; description: string }>();
  const productMapping = mapping as ColumnMapping<'products'>;
  const inheritFromHandle = (row: CsvRow): CsvRow | null => {
    const at = (field: 'handle' | 'name' | 'description' | 'sku' | 'price') => {
      const index = productMapping.columns[field];
      return index === undefined ? '' : (row.cells[index] ?? '').trim();
    };
    const handle = at('handle');
    if (handle === '') return row;
    // An image-only row adds a picture to the product above: nothing to import.
    if (at('sku') === '' && at('price') === '' && at('name') === '') return null;
    if (at('name') !== '') {
      handles.set(handle, { name: at('name'), description: at('description') });
      return row;
    }
    const parent = handles.get(handle);
    if (!parent) return row;
    const cells = [...row.cells];
    const nameIndex = productMapping.columns.name;
    const descriptionIndex = productMapping.columns.description;
    if (nameIndex !== undefined) cells[nameIndex] = parent.name;
    if (descriptionIndex !== undefined && at('description') === '')
      cells[descriptionIndex] = parent.description;
    return { row: row.row, cells };
  };
  /** Validates one row; the same rules on both reads of the file. */
  const validate = (raw: CsvRow): Valid | RowError[] | null => {
    if (kind === 'products') {
      const row = inheritFromHandle(raw);
      if (!row) return null;
      const check = new RowChecker(productMapping, first.header, row);
      const valid = checkProduct(check, row.row, options);
      if (valid) {
        const earlier = seenSkus.get(valid.sku);
        if (earlier !== undefined && earlier !== row.row) {
          check.fail('sku', `SKU "${valid.sku}" appears already in row ${earlier}`);
          return check.errors;
        }
        seenSkus.set(valid.sku, row.row);
      }
      return valid ?? check.errors;
    }
    const check = new RowChecker(mapping as ColumnMapping<'posts'>, first.header, raw);
    return checkPost(check, raw.row, options, store) ?? check.errors;
  };

  const writeAll = onError === 'skip' && !options.dryRun;
  const pending: Valid[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    store.transaction(() => {
      for (const item of pending.splice(0)) writeOne(store, item, result, options);
    });
    progress.rowsWritten = result.inserted + result.updated + result.unchanged;
  };
  if (writeAll) result.batch = store.imports.createBatch(kind, path);

  for await (const row of first.rows) {
    const checked = validate(row);
    if (checked === null) continue;
    result.rows++;
    progress.rowsRead++;
    if (Array.isArray(checked)) {
      result.invalid++;
      result.errors.push(...checked);
      result.badRows.rows.push({
        cells: row.cells,
        message: checked.map((e) => `${e.column}: ${e.message}`).join('; '),
      });
    } else {
      progress.rowsValid++;
      if (writeAll) {
        pending.push(checked);
        if (pending.length >= WRITE_BATCH) flush();
      }
    }
    if (progress.rowsRead % PROGRESS_EVERY === 0) report(first);
  }
  if (writeAll) flush();
  report(first);

  if (!writeAll && !options.dryRun && (result.invalid === 0 || onError === 'skip')) {
    // Second read: validation passed, so every row is written (in short transactions).
    const second = await openCsv(path);
    seenSkus.clear();
    handles.clear();
    result.batch = store.imports.createBatch(kind, path);
    let reread = 0;
    for await (const row of second.rows) {
      const checked = validate(row);
      if (checked !== null && !Array.isArray(checked)) {
        pending.push(checked);
        if (pending.length >= WRITE_BATCH) flush();
      }
      if (++reread % PROGRESS_EVERY === 0) report(second);
    }
    flush();
    report(second);
  }
  if (result.batch) {
    result.written = true;
    store.imports.finishBatch(result.batch, {
      rows: result.rows,
      inserted: result.inserted,
      updated: result.updated,
      unchanged: result.unchanged,
      invalid: result.invalid,
    });
  }
  return result;
}

function writeOne(
  store: WorkspaceStore,
  item: Valid,
  result: ImportResult,
  options: ImportOptions,
): void {
  const batchId = result.batch;
  if (item.kind === 'products') {
    const existing = store.imports.productBySku(item.sku);
    const fields = {
      name: item.name,
      description: item.description,
      priceMinor: item.priceMinor,
      currency: item.currency,
      stock: item.stock,
      imageUrl: item.imageUrl,
    };
    if (!existing) {
      const productId = store.products.insert({ sku: item.sku, ...fields, batchId });
      result.inserted++;
      if (options.queue)
        store.outbox.enqueue({
          kind: 'create_product',
          productId,
          priority: PRIORITY.due,
          dueAt: options.now,
        });
    } else if (existing.origin === 'remote' || existing.status !== 'draft') {
      result.unchanged++;
      result.warnings.push({
        row: item.row,
        column: 'sku',
        value: item.sku,
        message: `SKU "${item.sku}" is already on the platform; API v1 cannot change it, so the row was left out`,
      });
    } else if (
      Object.entries(fields).every(([key, value]) => existing[key as keyof typeof fields] === value)
    ) {
      result.unchanged++;
    } else {
      store.imports.updateProductDraft(existing.id, fields, batchId ?? '');
      result.updated++;
    }
    return;
  }
  if (store.imports.identicalPost(item) !== undefined) {
    result.unchanged++;
    return;
  }
  const post = store.posts.create({
    botId: item.botId,
    text: item.text,
    mediaUrls: item.mediaUrls,
    scheduledAt: item.scheduledAt,
    zone: item.zone,
    batchId,
  });
  result.inserted++;
  if (options.queue && (item.scheduledAt !== null || item.publishNow)) {
    store.outbox.enqueue({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.due,
      dueAt: item.publishNow ? options.now : (item.scheduledAt ?? options.now),
    });
  }
}
