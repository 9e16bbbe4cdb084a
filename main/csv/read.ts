// Reading a CSV file as rows (Node, main process): streamed end to end, in its own encoding,
// with its delimiter (comma, semicolon or tab) found from the header line. Each row carries its
// number as a spreadsheet shows it: the header is row 1, blank lines count, and a quoted field
// with line breaks stays one row. A file whose first row is data (Hootsuite's bulk file has no
// header) gets the headers "Column 1", "Column 2", ... and its data starts at row 1.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createDecoder, detectEncoding } from './decode';
import type { EncodingAlternative } from './decode';
import type { TextEncoding } from './decode';

export class UnusableFile extends Error {}

export interface CsvRow {
  row: number;
  cells: string[];
}

export interface CsvFile {
  encoding: TextEncoding;
  /** The encodings the file may be in when the detector was unsure (decode.ts); else null. */
  encodingGuess: EncodingAlternative[] | null;
  /** The first row is data: `header` is "Column 1", "Column 2", ... */
  firstRowIsData: boolean;
  delimiter: ',' | ';' | '\t';
  header: string[];
  /**
   * The data rows after the header, blank ones left out, a chunk of the file at a time: a
   * caller checking a million rows pays one await per chunk instead of one per row. Read either
   * this or `rows`, once.
   */
  batches: AsyncIterable<CsvRow[]>;
  /** The same rows one at a time. */
  rows: AsyncIterable<CsvRow>;
  /** Bytes read so far, for progress. */
  bytesRead(): number;
  size: number;
}

const SAMPLE_BYTES = 64 * 1024;
/**
 * Rows go to the caller a read at a time. Reads bigger than 64 KiB made no import faster, but
 * kept more rows alive across garbage collections: with 1 MiB reads a 1,000,000-row import
 * peaked about 200 MB higher.
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * The longest row read, in characters: far past any row a tool writes (a shop's HTML description
 * included), and short of what an open quote makes of a file. A field that starts with a quote runs
 * to the next one, so a quote left open turns the rest of the file into one field, held whole and
 * scanned again at every read: a 60 MB file took 15 s and 660 MB that way.
 */
const MAX_ROW_CHARS = 4 * 1024 * 1024;

/** The most columns a file may have: every tool's export has a few dozen. */
const MAX_COLUMNS = 1_000;

export type Newline = '\n' | '\r\n' | '\r';

/** The delimiter that splits the header line into the most fields, quotes respected. */
function detectDelimiter(firstLine: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char in counts) counts[char as keyof typeof counts]++;
  }
  const best = (Object.entries(counts) as [',' | ';' | '\t', number][]).sort(
    (a, b) => b[1] - a[1],
  )[0];
  return best && best[1] > 0 ? best[0] : ',';
}

/**
 * The line ending from the start of the file, guessed as papaparse guesses it (its
 * `guessLineEndings`): mostly LF, mostly CRLF, or old Mac CR.
 */
function detectNewline(sample: string): Newline {
  const outsideQuotes = sample.slice(0, 1024 * 1024).replace(/"[^]*?"/g, '');
  const byCr = outsideQuotes.split('\r');
  const byLf = outsideQuotes.split('\n');
  const lfFirst = byLf.length > 1 && (byLf[0]?.length ?? 0) < (byCr[0]?.length ?? 0);
  if (byCr.length === 1 || lfFirst) return '\n';
  const crLf = byCr.filter((part) => part.startsWith('\n')).length;
  return crLf >= byCr.length / 2 ? '\r\n' : '\r';
}

const QUOTE = 0x22;

/** How many characters of `text` from `from` up to `to` are all white space (0 if any is not). */
function spacesBetween(text: string, from: number, to: number): number {
  return to > from && text.slice(from, to).trim() === '' ? to - from : 0;
}

/**
 * The records of `text`, read exactly as papaparse reads them (its parser was the reference; a
 * test compares the two on random files): a field that starts with a quote runs to a quote
 * followed, after optional spaces, by the delimiter or a line ending, and doubled quotes in it
 * are one; any other quote is text, and a quoted field never closed runs to the end as typed.
 * Unless `final`, the last record may be cut off by the chunk's end, so it is left out and
 * `end` says where it starts. Written out rather than calling papaparse's stream reader, which
 * costs an event per row and a slow start before the JIT warms up.
 */
export function parseRecords(
  text: string,
  delimiter: string,
  newline: Newline,
  final: boolean,
): { records: string[][]; end: number } {
  const records: string[][] = [];
  const length = text.length;
  let cursor = 0;
  let recordStart = 0;
  let record: string[] = [];
  let nextDelimiter = text.indexOf(delimiter);
  let nextNewline = text.indexOf(newline);
  const endRecord = (next: number) => {
    records.push(record);
    record = [];
    cursor = recordStart = next;
    nextNewline = text.indexOf(newline, cursor);
    if (nextDelimiter !== -1 && nextDelimiter < cursor)
      nextDelimiter = text.indexOf(delimiter, cursor);
  };
  for (;;) {
    if (text.charCodeAt(cursor) === QUOTE) {
      let search = cursor + 1;
      let doubled = false;
      for (;;) {
        const quote = text.indexOf('"', search);
        if (quote === -1 || quote === length - 1) {
          if (!final) return { records, end: recordStart };
          record.push(
            quote === -1 ? text.slice(cursor + 1) : unquote(text.slice(cursor + 1, quote), doubled),
          );
          records.push(record);
          return { records, end: length };
        }
        if (text.charCodeAt(quote + 1) === QUOTE) {
          doubled = true;
          search = quote + 2;
          continue;
        }
        if (nextDelimiter !== -1 && nextDelimiter <= quote)
          nextDelimiter = text.indexOf(delimiter, quote + 1);
        if (nextNewline !== -1 && nextNewline <= quote)
          nextNewline = text.indexOf(newline, quote + 1);
        const upTo = nextNewline === -1 ? nextDelimiter : Math.min(nextDelimiter, nextNewline);
        const atDelimiter = quote + 1 + spacesBetween(text, quote + 1, upTo);
        if (text.startsWith(delimiter, atDelimiter)) {
          record.push(unquote(text.slice(cursor + 1, quote), doubled));
          cursor = atDelimiter + delimiter.length;
          if (nextDelimiter !== -1 && nextDelimiter < cursor)
            nextDelimiter = text.indexOf(delimiter, cursor);
          if (nextNewline !== -1 && nextNewline < cursor)
            nextNewline = text.indexOf(newline, cursor);
          break;
        }
        const atNewline = quote + 1 + spacesBetween(text, quote + 1, nextNewline);
        if (text.startsWith(newline, atNewline)) {
          record.push(unquote(text.slice(cursor + 1, quote), doubled));
          endRecord(atNewline + newline.length);
          break;
        }
        // A quote followed by anything else is part of the field.
        search = quote + 2;
      }
    } else if (nextDelimiter !== -1 && (nextDelimiter < nextNewline || nextNewline === -1)) {
      record.push(text.slice(cursor, nextDelimiter));
      cursor = nextDelimiter + delimiter.length;
      nextDelimiter = text.indexOf(delimiter, cursor);
    } else if (nextNewline !== -1) {
      record.push(text.slice(cursor, nextNewline));
      endRecord(nextNewline + newline.length);
    } else {
      if (!final) return { records, end: recordStart };
      record.push(text.slice(cursor));
      records.push(record);
      return { records, end: length };
    }
  }
}

function unquote(field: string, doubled: boolean): string {
  return doubled ? field.replaceAll('""', '"') : field;
}

/**
 * The file's records, a chunk at a time: each chunk is parsed up to its last complete record
 * and the rest carried into the next, so a quoted field may span chunks.
 */
async function* records(
  path: string,
  start: number,
  encoding: TextEncoding,
  delimiter: string,
  newline: Newline,
  onBytes: (bytes: number) => void,
): AsyncGenerator<string[][]> {
  const decoder = createDecoder(encoding);
  let carried = '';
  let recordsRead = 0;
  for await (const chunk of createReadStream(path, { start, highWaterMark: CHUNK_BYTES })) {
    onBytes((chunk as Buffer).length);
    const text = carried + decoder.write(chunk as Buffer);
    const parsed = parseRecords(text, delimiter, newline, false);
    carried = text.slice(parsed.end);
    recordsRead += parsed.records.length;
    if (carried.length > MAX_ROW_CHARS) {
      const row = recordsRead + 1;
      throw new UnusableFile(
        `${path}: row ${row} goes on for over ${MAX_ROW_CHARS / 1024 / 1024} million characters, so a quote in it is probably left open (a field that starts with " runs to the next "); close it, or check the file is a CSV file`,
      );
    }
    if (parsed.records.length > 0) yield parsed.records;
  }
  const rest = carried + decoder.end();
  if (rest !== '') yield parseRecords(rest, delimiter, newline, true).records;
}

export interface OpenOptions {
  /** The file's encoding as the user named it, over the detection. */
  encoding?: TextEncoding;
  /** Whether the first row is data, or a test of its cells that says so; else it is the header. */
  firstRowIsData?: boolean | ((cells: string[]) => boolean);
}

/** "Column 1", "Column 2", ...: the headers of a file without a header row. */
export const positionalHeader = (columns: number): string[] =>
  Array.from({ length: columns }, (_, index) => `Column ${index + 1}`);

/** The file's first row, when it is one Pressroom reads. */
function firstRow(path: string, row: string[] | undefined): string[] {
  if (!row) throw new UnusableFile(`${path} is empty: it has no header row`);
  if (row.length > MAX_COLUMNS) {
    throw new UnusableFile(
      `${path} has ${row.length.toLocaleString('en')} columns in its first row; Pressroom reads files of at most ${MAX_COLUMNS.toLocaleString('en')}: check it is a CSV file of posts or products`,
    );
  }
  return row;
}

export async function openCsv(path: string, options: OpenOptions = {}): Promise<CsvFile> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnusableFile(
      code === 'ENOENT' ? `${path} does not exist` : `${path} cannot be read (${code ?? 'error'})`,
    );
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new UnusableFile(
      `${path} is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}: choose a CSV file`,
    );
  }
  const { size } = stats;
  const sample = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
  await handle.read(sample, 0, sample.length, 0);
  await handle.close();
  const detected = detectEncoding(sample, sample.length === size);
  const encoding = options.encoding ?? detected.encoding;
  const bomLength = encoding === detected.encoding ? detected.bomLength : 0;
  const sampleText = createDecoder(encoding).write(sample.subarray(bomLength));
  const firstLine = sampleText.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  if (firstLine.trim() === '') throw new UnusableFile(`${path} is empty: it has no header row`);
  const delimiter = detectDelimiter(firstLine);

  let bytesRead = 0;
  const chunks = records(
    path,
    bomLength,
    encoding,
    delimiter,
    detectNewline(sampleText),
    (bytes) => (bytesRead += bytes),
  );
  const first = await chunks.next();
  const header = firstRow(path, first.done ? undefined : first.value[0]);
  const firstRecords = first.done ? [] : first.value;
  const test = options.firstRowIsData;
  const firstRowIsData = typeof test === 'function' ? test(header) : test === true;

  let row = firstRowIsData ? 0 : 1;
  /** Numbers a chunk's records and drops the blank ones. */
  const toRows = (chunk: string[][], from: number): CsvRow[] => {
    const rows: CsvRow[] = [];
    for (let index = from; index < chunk.length; index++) {
      row++;
      const record = chunk[index] ?? [];
      // A file that mixes line endings leaves a carriage return on the last cell.
      const last = record.length - 1;
      const lastCell = record[last];
      if (lastCell?.endsWith('\r')) record[last] = lastCell.slice(0, -1);
      if (record.every((cell) => cell.trim() === '')) continue;
      rows.push({ row, cells: record });
    }
    return rows;
  };
  const batches = async function* (): AsyncGenerator<CsvRow[]> {
    yield toRows(firstRecords, firstRowIsData ? 0 : 1);
    for await (const chunk of chunks) yield toRows(chunk, 0);
  };
  const rowBatches = batches();
  const rows = async function* (): AsyncGenerator<CsvRow> {
    for await (const batch of rowBatches) yield* batch;
  };
  const columns = firstRecords.reduce((most, record) => Math.max(most, record.length), 0);
  return {
    encoding,
    encodingGuess: options.encoding ? null : detected.guess,
    firstRowIsData,
    delimiter,
    header: firstRowIsData ? positionalHeader(columns) : header.map((cell) => cell.trim()),
    batches: rowBatches,
    rows: rows(),
    bytesRead: () => bytesRead,
    size,
  };
}
