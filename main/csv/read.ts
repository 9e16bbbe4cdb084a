// Reading a CSV file as rows (Node, main process): streamed end to end, in its own encoding,
// with its delimiter (comma, semicolon or tab) found from the header line. Each row carries its
// number as a spreadsheet shows it: the header is row 1, blank lines count, and a quoted field
// with line breaks stays one row.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import Papa from 'papaparse';
import { createDecoder, detectEncoding } from './decode';
import type { TextEncoding } from './decode';

export class UnusableFile extends Error {}

export interface CsvRow {
  row: number;
  cells: string[];
}

export interface CsvFile {
  encoding: TextEncoding;
  delimiter: ',' | ';' | '\t';
  header: string[];
  /** The data rows after the header, blank ones left out. */
  rows: AsyncIterable<CsvRow>;
  /** Bytes read so far, for progress. */
  bytesRead(): number;
  size: number;
}

const SAMPLE_BYTES = 64 * 1024;

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

export async function openCsv(path: string): Promise<CsvFile> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnusableFile(
      code === 'ENOENT' ? `${path} does not exist` : `${path} cannot be read (${code ?? 'error'})`,
    );
  }
  const { size } = await handle.stat();
  const sample = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
  await handle.read(sample, 0, sample.length, 0);
  await handle.close();
  const { encoding, bomLength } = detectEncoding(sample);
  const sampleText = createDecoder(encoding).write(sample.subarray(bomLength));
  const firstLine = sampleText.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  if (firstLine.trim() === '') throw new UnusableFile(`${path} is empty: it has no header row`);
  const delimiter = detectDelimiter(firstLine);

  let bytesRead = 0;
  const decoder = createDecoder(encoding);
  const decode = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytesRead += chunk.length;
      done(null, decoder.write(chunk));
    },
    flush(done) {
      done(null, decoder.end());
    },
  });
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    delimiter,
    skipEmptyLines: false,
  }) as NodeJS.ReadWriteStream;
  createReadStream(path, { start: bomLength }).pipe(decode).pipe(parser);

  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const header = await records.next();
  if (header.done) throw new UnusableFile(`${path} is empty: it has no header row`);
  const rows = async function* (): AsyncGenerator<CsvRow> {
    let row = 1;
    for (;;) {
      const next = await records.next();
      if (next.done) return;
      row++;
      const cells = next.value;
      // A file that mixes line endings leaves a carriage return on the last cell.
      const last = cells.length - 1;
      if (last >= 0 && cells[last]?.endsWith('\r')) cells[last] = cells[last].slice(0, -1);
      if (cells.every((cell) => cell.trim() === '')) continue;
      yield { row, cells };
    }
  };
  return {
    encoding,
    delimiter,
    header: header.value.map((cell) => cell.trim()),
    rows: rows(),
    bytesRead: () => bytesRead,
    size,
  };
}
