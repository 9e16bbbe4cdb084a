// CSV export of posts and products (Node, main process), in the columns import reads, so that
// exporting and importing again changes nothing. UTF-8, with a byte-order mark on request (Excel
// needs one to read UTF-8). A cell that would run as a formula in a spreadsheet is written inert
// (formulas.ts).
import { closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import Papa from 'papaparse';
import { Temporal } from 'temporal-polyfill';
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

function rowsOf(store: WorkspaceStore, kind: ImportKind): string[][] {
  if (kind === 'products') {
    return store.products
      .list()
      .map((p) => [
        p.sku,
        p.name,
        minorToDecimal(p.priceMinor, p.currency),
        p.currency,
        p.description ?? '',
        p.stock === null ? '' : String(p.stock),
        p.imageUrl ?? '',
      ]);
  }
  // Posts made on the platform are not ours to import again.
  return store.posts
    .list()
    .filter((post) => post.origin === 'local')
    .map((post) => [
      post.text,
      post.scheduledAt === null ? '' : isoWithOffset(post.scheduledAt, post.zone ?? 'UTC'),
      post.zone ?? '',
      post.botId ?? '',
      post.mediaUrls.join('|'),
    ]);
}

export async function writeCsv(
  path: string,
  header: string[],
  rows: string[][],
  bom: boolean,
): Promise<void> {
  const out = createWriteStream(path, { mode: PRIVATE_FILE_MODE });
  if (bom) out.write('\ufeff');
  out.write(`${Papa.unparse([header], UNPARSE)}\r\n`);
  for (let start = 0; start < rows.length; start += 1_000) {
    const chunk = Papa.unparse(rows.slice(start, start + 1_000), UNPARSE);
    if (!out.write(`${chunk}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
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

export async function exportCsv(
  store: WorkspaceStore,
  kind: ImportKind,
  path: string,
  bom = false,
): Promise<number> {
  const rows = rowsOf(store, kind);
  await writeCsv(path, HEADERS[kind], rows, bom);
  return rows.length;
}
