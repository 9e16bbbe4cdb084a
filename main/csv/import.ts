// CSV import of posts and products (Node, main process): streams the file, validates every row
// into a plain sentence per bad cell, and writes the good ones as one undoable batch. It writes as
// it reads, in short transactions, so the app's other writes never share a long one and memory
// stays flat however big the file. With on-error "abort" (the default) a file with any bad row
// writes nothing: the rows written before it are taken back (ImportsStore.abandonBatch), and
// queue items are only made once the whole file is in, so nothing goes out of an import a bad
// row stops.
// Post rows can fill their bots' free posting slots, and a row repeating a post of its bot is
// left out with a warning (docs/planning.md).
import { PRIORITY } from '../../shared/domain';
import type { ImportProgress, ImportResult, RowError } from '../../shared/domain';
import {
  comparableText,
  describeDuplicate,
  findDuplicate,
  outgoingAt,
} from '../../shared/duplicates';
import type { DuplicateSubject } from '../../shared/duplicates';
import { LIMITS } from '../../shared/limits';
import { isCurrency } from '../../shared/money';
import { isTimeZone, systemTimeZone, toInstant } from '../../shared/time';
import type { WorkspaceStore } from '../store';
import { SlotCursor } from '../store/planning';
import { IMPORT_BEAT_MS } from '../store/imports';
import type { NewOutboxItem } from '../store/outbox';
import type { CatalogFields } from '../store/products';
import type { TextEncoding } from '../../shared/encodings';
import { mapColumns } from './columns';
import type { ColumnMapping, ColumnOverrides, FieldName, ImportKind } from './columns';
import { badRowsCsv } from './export';
import { unescapeFormula } from './formulas';
import { openCsv, UnusableFile } from './read';
import type { CsvFile, CsvRow } from './read';
import { shopRows } from './shops';
import {
  detectSource,
  looksLikeData,
  POSITIONAL_COLUMNS,
  positionalMapping,
  SOURCE_LABELS,
} from './sources';
import { parsePrice } from '../../shared/price-text';
import { isHttpUrlCell, normaliseDateTime } from './values';
import type { DateFormat } from './values';

export { UnusableFile };

export interface ImportOptions {
  dryRun?: boolean;
  onError?: 'abort' | 'skip';
  /** Posts with a time are scheduled and products queued, instead of staying drafts. */
  queue?: boolean;
  /** What a scheduled time in the past is: a row error, or "publish now". */
  past?: 'error' | 'publish-now';
  /** The zone of post rows' wall times without one of their own; else the system's. */
  timezone?: string;
  dateFormat?: DateFormat;
  /** The user's column choices (field → header, or null), over the matching by name. */
  mapping?: ColumnOverrides;
  /** The file's encoding, over the detection. */
  encoding?: TextEncoding;
  /** Whether the first row is data (its columns are "Column 1", ...); found from it if not given. */
  firstRowIsData?: boolean;
  /** Posts: the bot of rows without one (an id, or a name the cache knows). */
  bot?: string;
  /**
   * Post rows without a time are scheduled in the next free slot of their bot (the row's, else
   * `defaultBotId`), the schedules read in `zone`. Implies `queue`: a slot is a place in the queue.
   */
  fillSlots?: { zone: string; defaultBotId: string | null };
  /**
   * The duplicate-content guard: a post row that would go out with the text of a counted post of
   * its bot, or of an earlier row, within `windowDays` is left out with a warning, unless `allow`.
   */
  duplicates?: { windowDays: number; allow: boolean };
  defaultCurrency: string;
  now: number;
  onProgress?: (progress: ImportProgress) => void;
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
  /** The file marks it a draft: it is imported, never queued. */
  draft: boolean;
  /** Its time is a posting slot fillSlots gave it. */
  filled: boolean;
};
type ValidProduct = CatalogFields & { kind: 'products'; row: number };
type Valid = ValidPost | ValidProduct;
/** A valid row left out, and why. */
type LeftOut = { warning: RowError };
type Checked = Valid | LeftOut | RowError[] | null;

const DAY_MS = 86_400_000;

/**
 * Rows per write transaction. Each commit waits for the disk (synchronous = FULL), so fewer,
 * bigger ones are faster; 10,000 rows still commit in tens of milliseconds, a pause the app's
 * other work barely notices.
 */
const WRITE_BATCH = 10_000;
const PROGRESS_EVERY = 5_000;

class RowChecker<K extends ImportKind> {
  readonly errors: RowError[] = [];
  constructor(
    readonly mapping: ColumnMapping<K>,
    private readonly header: string[],
    private readonly row: CsvRow,
  ) {}

  cell(field: FieldName<K>): string {
    const index = this.mapping.columns[field];
    return index === undefined ? '' : unescapeFormula((this.row.cells[index] ?? '').trim()).trim();
  }

  /** The field's further numbered columns' cells, in file order. */
  extraCells(field: FieldName<K>): string[] {
    return (this.mapping.extra[field] ?? []).map((index) => (this.row.cells[index] ?? '').trim());
  }

  /** A problem with a cell, named by the file's header. */
  problem(field: FieldName<K>, message: string): RowError {
    const index = this.mapping.columns[field];
    return {
      row: this.row.row,
      column: index === undefined ? field : (this.header[index] ?? field),
      value: this.cell(field),
      message,
    };
  }

  fail(field: FieldName<K>, message: string): void {
    this.errors.push(this.problem(field, message));
  }
}

function checkProduct(
  check: RowChecker<'products'>,
  row: number,
  options: ImportOptions,
  missingSku = 'SKU is required',
): ValidProduct | null {
  const sku = check.cell('sku');
  const name = check.cell('name');
  if (sku === '') check.fail('sku', missingSku);
  else if (sku.length > LIMITS.productSku)
    check.fail('sku', `SKU must be at most ${LIMITS.productSku} characters`);
  if (name === '') check.fail('name', 'Name is required');
  else if (name.length > LIMITS.productName)
    check.fail('name', `Name must be at most ${LIMITS.productName} characters`);
  const currency = (check.cell('currency') || options.defaultCurrency).toUpperCase();
  const knownCurrency = isCurrency(currency);
  if (!knownCurrency)
    check.fail('currency', `"${currency}" is not an ISO 4217 currency code such as USD`);
  const price = parsePrice(check.cell('price'), knownCurrency ? currency : 'USD');
  if (!price.ok) check.fail('price', `Price ${price.reason}`);
  const stockText = check.cell('stock');
  const stock = stockText === '' ? null : Number(stockText);
  if (stock !== null && (!Number.isInteger(stock) || stock < 0))
    check.fail('stock', 'Stock must be a whole number, 0 or more');
  const description = check.cell('description') || null;
  if (description && description.length > LIMITS.productDescription)
    check.fail(
      'description',
      `Description must be at most ${LIMITS.productDescription} characters`,
    );
  const imageUrl = check.cell('image_url') || null;
  if (imageUrl && !isHttpUrlCell(imageUrl))
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
  defaultZone: string,
): ValidPost | null {
  const link = check.cell('link');
  if (link !== '' && !isHttpUrlCell(link))
    check.fail('link', `"${link}" is not an absolute http or https URL`);
  const written = check.cell('text');
  // Posts have no link field: the link goes at the end of the text, unless it is there already.
  const text = link === '' || written.includes(link) ? written : `${written} ${link}`;
  if (written === '') check.fail('text', 'Text is required');
  else if (text.length > LIMITS.postText)
    check.fail('text', `Text must be at most ${LIMITS.postText} characters`);
  const draftText = check.cell('draft').toLowerCase();
  const draft = TRUE_CELLS.has(draftText);
  if (!draft && !FALSE_CELLS.has(draftText))
    check.fail('draft', `"${check.cell('draft')}" is not yes or no (TRUE or FALSE)`);
  const zone = check.cell('timezone') || defaultZone;
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
      if (options.queue && !draft && scheduledAt <= options.now) {
        if (options.past === 'publish-now') publishNow = true;
        else
          check.fail(field, 'This time is in the past; fix it, or import with --past publish-now');
      }
    }
  }
  const botText = check.cell('bot') || options.bot || '';
  const botId = botText === '' ? null : (store.cache.findBot(botText) ?? botText);
  const mediaCell = check.cell('media_urls');
  // Several picture columns (Metricool's Picture Url 1..N) are one list, in column order.
  const mediaUrls = (
    check.mapping.extra.media_urls ? [mediaCell, ...check.extraCells('media_urls')] : [mediaCell]
  )
    .flatMap((cell) => cell.split(/[|,\s]+/))
    .filter(Boolean);
  const badUrl = mediaUrls.find((url) => !isHttpUrlCell(url));
  if (badUrl) check.fail('media_urls', `"${badUrl}" is not an absolute http or https URL`);
  else if (mediaUrls.length > LIMITS.postMediaUrls)
    check.fail('media_urls', `A post can have at most ${LIMITS.postMediaUrls} media URLs`);
  if (check.errors.length > 0) return null;
  return {
    kind: 'posts',
    row,
    text,
    botId,
    scheduledAt,
    zone,
    mediaUrls,
    publishNow,
    draft,
    filled: false,
  };
}

/** How the schedulers' Draft columns say yes and no. */
const TRUE_CELLS = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE_CELLS = new Set(['', 'false', 'no', 'n', '0']);

/** A row accepted earlier in this import, as the duplicate guard compares it. */
type EarlierRow = DuplicateSubject & { row: number };

/**
 * What fillSlots and the duplicate guard make of each valid post row, in file order: the row with
 * its slot, or left out with a warning. Rows are remembered until written, so no slot is given
 * twice and a file repeating itself is caught as well.
 */
class PostPlanner {
  private readonly cursor: SlotCursor | null;
  private readonly earlier = new Map<string, EarlierRow[]>();

  constructor(
    private readonly store: WorkspaceStore,
    private readonly options: ImportOptions,
  ) {
    const fill = options.fillSlots;
    this.cursor = fill ? new SlotCursor(store, fill.zone, options.now) : null;
  }

  plan(post: ValidPost, check: RowChecker<'posts'>): ValidPost | LeftOut | RowError[] {
    const fill = this.options.fillSlots;
    let { botId, scheduledAt, zone } = post;
    let filled = false;
    if (this.cursor && fill && scheduledAt === null && !post.publishNow && !post.draft) {
      botId ??= fill.defaultBotId;
      if (botId === null) {
        check.fail(
          'bot',
          'A row without a time needs a bot to fill a posting slot: give it one, or set a default bot',
        );
        return check.errors;
      }
      const next = this.cursor.next(botId);
      if (!next.ok) {
        check.fail('bot', next.reason);
        return check.errors;
      }
      [scheduledAt, zone, filled] = [next.at, fill.zone, true];
    }
    if (!this.options.queue || post.draft || (scheduledAt === null && !post.publishNow))
      return { ...post, botId, scheduledAt, zone, filled };
    if (botId === null) {
      // It would wait in the queue for a bot it can never get.
      check.fail(
        'bot',
        'A post to be queued needs a bot: add a bot column, or choose a bot for rows without one (--bot)',
      );
      return check.errors;
    }
    const at = post.publishNow ? this.options.now : (scheduledAt ?? this.options.now);
    const guard = this.options.duplicates;
    const guarded = guard !== undefined && !guard.allow && guard.windowDays > 0;
    const key = `${botId ?? ''}\u0000${comparableText(post.text)}`;
    if (guarded) {
      const windowMs = guard.windowDays * DAY_MS;
      // The post an earlier import made of this very row (same text, bot and time) is the same
      // post, which the write finds "unchanged"; it is no repeat.
      const other = findDuplicate<DuplicateSubject & { row?: number }>(
        { botId, text: post.text, at },
        [
          ...this.store.posts.goingOut(botId, at - windowMs, at + windowMs),
          ...(this.earlier.get(key) ?? []),
        ].filter((earlier) => earlier.text !== post.text || earlier.scheduledAt !== scheduledAt),
        windowMs,
      );
      if (other) {
        const what =
          other.row === undefined
            ? `post ${other.id}${botId ? ` of ${botId}` : ''}`
            : `row ${other.row}`;
        const message = describeDuplicate(
          what,
          other.status === 'published',
          outgoingAt(other) ?? at,
          zone,
          guard.windowDays,
        );
        return {
          // Worded for every caller: the CLI names its flag, the wizard its option.
          warning: check.problem('text', `${message}; left out`),
        };
      }
    }
    if (botId !== null && scheduledAt !== null) this.cursor?.take(botId, scheduledAt);
    if (guarded) {
      const row: EarlierRow = {
        id: 0, // never stored, so never the candidate itself
        row: post.row,
        botId,
        text: post.text,
        status: 'scheduled',
        scheduledAt,
        publishedAt: post.publishNow ? at : null,
      };
      const same = this.earlier.get(key);
      if (same) same.push(row);
      else this.earlier.set(key, [row]);
    }
    return { ...post, botId, scheduledAt, zone, filled };
  }
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
  const seenSkus = new Map<string, number>();
  const productMapping = mapping as ColumnMapping<'products'>;
  const shop = kind === 'products' ? shopRows(source, first.header, productMapping) : null;
  if (shop) {
    const read = new Set(shop.reads.map((index) => first.header[index ?? -1]));
    result.unknownColumns = mapping.unknown.filter((header) => !read.has(header));
  }
  /** Rows left out but not invalid, by why: archived products, shops' container rows. */
  const leftOut = new Map<string, number>();
  const leave = (reason: string) => leftOut.set(reason, (leftOut.get(reason) ?? 0) + 1);
  /** SKUs the file marks as drafts of their shop: imported, never queued. */
  const held = new Set<string>();
  const planner = new PostPlanner(store, options);
  /** Found on the first post row: the system's zone costs Intl's first use (~10 ms). */
  let postZone: string | undefined;
  /** Validates one row. */
  const validate = (raw: CsvRow): Checked => {
    if (kind === 'products') {
      let row = raw;
      let hold: string | undefined;
      // A plain file goes straight to the checks: nothing made per row for shops' layouts.
      if (shop) {
        const prepared = shop.prepare(raw);
        if (prepared === null) return null;
        if ('leftOut' in prepared) {
          leave(prepared.leftOut);
          return null;
        }
        ({ row, hold } = prepared);
      }
      const check = new RowChecker(productMapping, first.header, row);
      const valid = checkProduct(check, row.row, options, shop?.missingSku);
      if (valid && hold !== undefined && options.queue) {
        held.add(valid.sku);
        leave(hold);
      }
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
    const valid = checkPost(
      check,
      raw.row,
      options,
      store,
      (postZone ??= options.timezone ?? systemTimeZone()),
    );
    return valid ? planner.plan(valid, check) : check.errors;
  };

  const writing = !options.dryRun;
  const pending: Valid[] = [];
  /** Queue items wait for the end: until then, nothing of the import has to be taken back. */
  const toQueue: NewOutboxItem[] = [];
  // Real time, not options.now: it spaces the beats out while the import runs.
  let lastBeat = Date.now();
  const write = (items: Valid[]) => {
    store.transaction(() => {
      writeProducts(store, items.filter(isProduct), result);
      for (const item of items)
        if (item.kind === 'posts') writePost(store, item, result, options, toQueue);
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
        const checked = validate(row);
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

const isProduct = (item: Valid): item is ValidProduct => item.kind === 'products';

/**
 * Writes one batch of valid products: new SKUs go straight in, in multi-row inserts; the few
 * already in the catalog come back from the insert and are looked up in one query.
 */
function writeProducts(store: WorkspaceStore, items: ValidProduct[], result: ImportResult): void {
  if (items.length === 0) return;
  const batchId = result.batch;
  const taken = store.products.insertNew(items, batchId);
  result.inserted += items.length - taken.length;
  if (taken.length === 0) return;
  const existingBySku = store.imports.productsBySku(taken.map((item) => item.sku));
  for (const item of taken) {
    const existing = existingBySku.get(item.sku);
    if (!existing)
      throw new Error(`SKU ${item.sku} was refused as taken but is not in the catalog`);
    const fields = {
      name: item.name,
      description: item.description,
      priceMinor: item.priceMinor,
      currency: item.currency,
      stock: item.stock,
      imageUrl: item.imageUrl,
    };
    if (existing.origin === 'remote' || existing.status !== 'draft') {
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
  }
}

function writePost(
  store: WorkspaceStore,
  item: ValidPost,
  result: ImportResult,
  options: ImportOptions,
  toQueue: NewOutboxItem[],
): void {
  const batchId = result.batch;
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
  if (options.queue && !item.draft && (item.scheduledAt !== null || item.publishNow)) {
    toQueue.push({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.due,
      dueAt: item.publishNow ? options.now : (item.scheduledAt ?? options.now),
    });
  }
}
