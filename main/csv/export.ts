// CSV export of posts and products (Node, main process), in the columns import reads, so that
// exporting and importing again changes nothing. UTF-8, with a byte-order mark on request (Excel
// needs one to read UTF-8). A cell that would run as a formula in a spreadsheet is written inert
// (formulas.ts).
import { closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import Papa from 'papaparse';
import { Temporal } from 'temporal-polyfill';
import type { LocalPost, LocalProduct } from '../../shared/domain';
import { minorToDecimal } from '../../shared/money';
import type { WorkspaceStore } from '../store';
import type { ImportKind } from './columns';
import { PRIVATE_FILE_MODE } from '../sqlite/private-files';
import { FORMULA_START } from './formulas';

/** How every CSV Pressroom writes is written: CRLF lines, formula cells made inert. */
export const UNPARSE = { newline: '\r\n', escapeFormulae: FORMULA_START };

const HEADERS: Record<ImportKind, string[]> = {
  posts: ['text', 'scheduled_at', 'timezone', 'bot', 'media_urls'],
  products: ['sku', 'name', 'price', 'currency', 'description', 'stock', 'image_url'],
};

/** An instant as ISO 8601 with the zone's offset: exact on re-import, and readable. */
function isoWithOffset(ms: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .toString({ timeZoneName: 'never', smallestUnit: 'second' });
}

/** Rows read and written per step: each a few milliseconds, with the app's other calls between. */
const PAGE_ROWS = 1_000;

const productCells = (p: LocalProduct): string[] => [
  p.sku,
  p.name,
  minorToDecimal(p.priceMinor, p.currency),
  p.currency,
  p.description ?? '',
  p.stock === null ? '' : String(p.stock),
  p.imageUrl ?? '',
];

const postCells = (post: LocalPost): string[] => [
  post.text,
  post.scheduledAt === null ? '' : isoWithOffset(post.scheduledAt, post.zone ?? 'UTC'),
  post.zone ?? '',
  post.botId ?? '',
  post.mediaUrls.join('|'),
];

/**
 * The rows to export, a page at a time, so that memory stays flat however long the catalog: a
 * million products held at once took the process past 1 GB. Products go in id order; posts in
 * time order as the ids stood at the start, so one rescheduled meanwhile is written once. Posts
 * made on the platform are not ours to import again.
 */
async function* pagesOf(store: WorkspaceStore, kind: ImportKind): AsyncGenerator<string[][]> {
  if (kind === 'products') {
    for (let afterId = 0; ;) {
      const products = store.products.listAfter(afterId, PAGE_ROWS);
      if (products.length === 0) return;
      afterId = products[products.length - 1]?.id ?? afterId;
      yield products.map(productCells);
      await setImmediate();
    }
  }
  const ids = store.posts.localIdsByTime();
  for (let start = 0; start < ids.length; start += PAGE_ROWS) {
    yield store.posts.getMany(ids.slice(start, start + PAGE_ROWS)).map(postCells);
    await setImmediate();
  }
}

/** Writes a CSV file of `header` and the rows of `pages`; says how many rows it wrote. */
export async function writeCsv(
  path: string,
  header: string[],
  pages: AsyncIterable<string[][]>,
  bom: boolean,
): Promise<number> {
  const out = createWriteStream(path, { mode: PRIVATE_FILE_MODE });
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined);
  let rows = 0;
  try {
    if (bom) out.write('\ufeff');
    out.write(`${Papa.unparse([header], UNPARSE)}\r\n`);
    for await (const page of pages) {
      if (page.length === 0) continue;
      rows += page.length;
      if (!out.write(`${Papa.unparse(page, UNPARSE)}\r\n`))
        await Promise.race([once(out, 'drain'), failed]);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    return rows;
  } catch (error) {
    out.destroy();
    throw error;
  }
}

/**
 * The bad rows of an import as a CSV file, written as they are found: their cells as read plus an
 * `error` column, so the user can fix them in a spreadsheet and import the file again (the extra
 * column is ignored then). The file is made at the first row; `header` is left out when empty.
 */
export class BadRowsFile {
  private file: number | null = null;
  private pending: string[][] = [];

  constructor(
    private readonly path: string,
    private readonly header: string[],
  ) {}

  add(cells: string[], message: string): void {
    this.pending.push([...cells, message]);
    if (this.pending.length >= 1_000) this.flush();
  }

  /** Writes what is pending and closes the file. */
  close(): void {
    this.flush();
    if (this.file !== null) closeSync(this.file);
    this.file = null;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    if (this.file === null) {
      this.file = openSync(this.path, 'w', PRIVATE_FILE_MODE);
      if (this.header.length > 0)
        writeSync(this.file, `${Papa.unparse([[...this.header, 'error']], UNPARSE)}\r\n`);
    }
    writeSync(this.file, `${Papa.unparse(this.pending, UNPARSE)}\r\n`);
    this.pending = [];
  }
}

export function exportCsv(
  store: WorkspaceStore,
  kind: ImportKind,
  path: string,
  bom = false,
): Promise<number> {
  return writeCsv(path, HEADERS[kind], pagesOf(store, kind), bom);
}
