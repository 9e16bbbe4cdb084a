// The checks of one CSV row (Node, main process): each cell of a post or product row read and
// validated into the row's fields, or into a plain sentence per bad cell, named by the file's header.
import type { RowError } from '../../shared/domain';
import { LIMITS } from '../../shared/limits';
import { isCurrency } from '../../shared/money';
import { parsePrice } from '../../shared/price-text';
import { clipped, quoted } from '../../shared/text';
import { isTimeZone, toInstant } from '../../shared/time';
import type { WorkspaceStore } from '../store';
import type { CatalogFields } from '../store/products';
import type { ColumnMapping, FieldName, ImportKind } from './columns';
import { unescapeFormula } from './formulas';
import type { ImportOptions } from './import-options';
import type { CsvRow } from './read';
import { isHttpUrlCell, normaliseDateTime } from './values';
import { isLocalMedia, picturesProblem } from '../../shared/media';

export type ValidPost = {
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
export type ValidProduct = CatalogFields & { kind: 'products'; row: number };
export type Valid = ValidPost | ValidProduct;

/** How much of a bad cell a row error carries: a cell can be megabytes, and errors are kept and sent. */
const CELL_SHOWN = 100;

/** One row's cells by field, and the problems found in them. */
export class RowChecker<K extends ImportKind> {
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
      value: clipped(this.cell(field), CELL_SHOWN),
      message,
    };
  }

  fail(field: FieldName<K>, message: string): void {
    this.errors.push(this.problem(field, message));
  }
}

export function checkProduct(
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
    check.fail('currency', `${quoted(currency)} is not an ISO 4217 currency code such as USD`);
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

export function checkPost(
  check: RowChecker<'posts'>,
  row: number,
  options: ImportOptions,
  store: WorkspaceStore,
  defaultZone: string,
): ValidPost | null {
  const link = check.cell('link');
  if (link !== '' && !isHttpUrlCell(link))
    check.fail('link', `${quoted(link)} is not an absolute http or https URL`);
  const written = check.cell('text');
  // Posts have no link field: the link goes at the end of the text, unless it is there already.
  const text = link === '' || written.includes(link) ? written : `${written} ${link}`;
  if (written === '') check.fail('text', 'Text is required');
  else if (text.length > LIMITS.postText)
    check.fail('text', `Text must be at most ${LIMITS.postText} characters`);
  const draftText = check.cell('draft').toLowerCase();
  const draft = TRUE_CELLS.has(draftText);
  if (!draft && !FALSE_CELLS.has(draftText))
    check.fail('draft', `${quoted(check.cell('draft'))} is not yes or no (TRUE or FALSE)`);
  const zone = check.cell('timezone') || defaultZone;
  if (!isTimeZone(zone))
    check.fail('timezone', `${quoted(zone)} is not an IANA time zone such as Europe/Berlin`);
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
  // A picture uploaded into this workspace comes back from its export as its reference.
  const badUrl = mediaUrls.find((url) => !isHttpUrlCell(url) && !isLocalMedia(url));
  const goesOut = options.queue && !draft;
  const picturesRefused = picturesProblem(
    mediaUrls,
    (name) => store.media.get(name) !== undefined,
    !goesOut || store.media.host() !== null,
  );
  if (badUrl) check.fail('media_urls', `${quoted(badUrl)} is not an absolute http or https URL`);
  else if (picturesRefused) check.fail('media_urls', picturesRefused);
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
