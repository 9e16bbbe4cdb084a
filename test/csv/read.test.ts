// The CSV reader against papaparse, the parser it replaced on the import path: the same records
// from random files full of quotes, delimiters and line endings, whole or cut into chunks.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../../main/reference-server/random';
import { openCsv, parseRecords } from '../../main/csv/read';
import type { CsvRow, Newline } from '../../main/csv/read';
import { csvFiles } from '../support/csv-files';

const { fixture } = csvFiles('read');

/** Text made of the pieces that matter to a CSV parser, quotes and spaces near delimiters most. */
function randomCsv(next: () => number, delimiter: string, newline: Newline, length: number) {
  const pieces = [
    'a',
    'bc',
    ' ',
    '  ',
    '"',
    '""',
    delimiter,
    newline,
    newline,
    '\n',
    '\r',
    'é',
    '€',
  ];
  let text = '';
  while (text.length < length) text += pieces[Math.floor(next() * pieces.length)];
  return text;
}

const papa = (text: string, delimiter: string, newline: Newline) =>
  Papa.parse<string[]>(text, { delimiter, newline }).data;

/** What openCsv should make of a file papaparse reads whole. */
function expectedRows(text: string, delimiter: string, newline: Newline) {
  const [header = [], ...records] = papa(text, delimiter, newline);
  const rows: CsvRow[] = [];
  records.forEach((cells, index) => {
    const last = cells.length - 1;
    if (cells[last]?.endsWith('\r')) cells[last] = cells[last].slice(0, -1);
    if (cells.some((cell) => cell.trim() !== '')) rows.push({ row: index + 2, cells });
  });
  return { header: header.map((cell) => cell.trim()), rows };
}

async function readAll(path: string) {
  const file = await openCsv(path);
  const rows: CsvRow[] = [];
  for await (const batch of file.batches) rows.push(...batch);
  return { file, rows };
}

describe('parseRecords', () => {
  it.each([
    [',', '\n'],
    [';', '\r\n'],
    ['\t', '\r'],
  ] as const)(
    'reads random text with %j and %j exactly as papaparse does',
    (delimiter, newline) => {
      const next = random(delimiter.charCodeAt(0));
      for (let round = 0; round < 3000; round++) {
        const text = randomCsv(next, delimiter, newline, 1 + Math.floor(next() * 40));
        expect(parseRecords(text, delimiter, newline, true).records, JSON.stringify(text)).toEqual(
          papa(text, delimiter, newline),
        );
      }
    },
  );

  it('leaves out a record the chunk may have cut off, and says where it starts', () => {
    expect(parseRecords('a,b\nc,"d\ne', ',', '\n', false)).toEqual({
      records: [['a', 'b']],
      end: 4,
    });
    expect(parseRecords('a,b\nc,d', ',', '\n', false)).toEqual({ records: [['a', 'b']], end: 4 });
    expect(parseRecords('a,"b ""x"""\n', ',', '\n', false)).toEqual({
      records: [['a', 'b "x"']],
      end: 12,
    });
  });
});

describe('openCsv', () => {
  it('numbers rows as a spreadsheet does: quoted line breaks stay one row, blank lines count', async () => {
    const path = fixture('sku,name\r\n\r\nA,"two\r\nlines"\r\n  ,  \r\nB,x\r\n');
    const { file, rows } = await readAll(path);
    expect(file.header).toEqual(['sku', 'name']);
    expect(rows).toEqual([
      { row: 3, cells: ['A', 'two\r\nlines'] },
      { row: 5, cells: ['B', 'x'] },
    ]);
  });

  it('stops at a row of over 4 million characters, naming it: a quote left open', async () => {
    const open = fixture(`sku,name\nA,fine\nB,"${'x'.repeat(6_000_000)}\nC,never closed\n`);
    await expect(readAll(open)).rejects.toThrow(
      /: row 3 goes on for over 4 million characters, so a quote in it is probably left open/,
    );
    // A long row that ends is read.
    const long = fixture(`sku,name\nA,"${'y'.repeat(3_000_000)}"\nB,x\n`);
    const { rows } = await readAll(long);
    expect(rows.map((row) => [row.row, row.cells[1]?.length])).toEqual([
      [2, 3_000_000],
      [3, 1],
    ]);
  });

  it('refuses a first row of over 1,000 columns, saying how many it has', async () => {
    const wide = Array.from({ length: 1_001 }, (_, i) => `c${i}`).join(',');
    await expect(openCsv(fixture(`${wide}\n`))).rejects.toThrow(
      /has 1,001 columns in its first row; Pressroom reads files of at most 1,000/,
    );
    const widest = Array.from({ length: 1_000 }, (_, i) => `c${i}`).join(',');
    expect((await openCsv(fixture(`${widest}\n`))).header).toHaveLength(1_000);
  });

  it('gives the same rows one at a time', async () => {
    const file = await openCsv(fixture('a;b\n1;2\n\n3;4'));
    const rows: CsvRow[] = [];
    for await (const row of file.rows) rows.push(row);
    expect(file.delimiter).toBe(';');
    expect(rows).toEqual([
      { row: 2, cells: ['1', '2'] },
      { row: 4, cells: ['3', '4'] },
    ]);
  });

  it.each([
    [',', '\n', 'utf8'],
    [';', '\r\n', 'utf16le'],
    ['\t', '\r', 'utf8'],
  ] as const)(
    'reads a file of several chunks (%j, %j, %s) as papaparse reads it whole',
    async (delimiter, newline, encoding) => {
      // Big enough for several reads, so quoted fields and characters straddle chunk ends.
      const next = random(encoding.length + newline.length);
      const text = `sku${delimiter}name${newline}${randomCsv(next, delimiter, newline, 1_500_000)}`;
      const bytes =
        encoding === 'utf8'
          ? Buffer.from(text, 'utf8')
          : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      const { file, rows } = await readAll(fixture(bytes));
      const expected = expectedRows(text, delimiter, newline);
      expect(file.header).toEqual(expected.header);
      expect(rows.length).toBe(expected.rows.length);
      expect(rows).toEqual(expected.rows);
      expect(file.bytesRead()).toBe(bytes.length - (encoding === 'utf8' ? 0 : 2));
    },
  );
});
