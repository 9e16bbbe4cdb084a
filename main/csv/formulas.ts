// Spreadsheet formula injection (OWASP "CSV Injection"), both ways (Node, main process; pure). A
// cell that starts with = + - @, a tab or a carriage return runs as a formula when the CSV is
// opened in Excel, LibreOffice or Sheets; every CSV Pressroom writes prefixes such a cell with a
// single quote, which spreadsheets show as text, and import takes that quote off again, so
// export → import round-trips. Every cell is treated alike, "-5" in a text column included (OWASP
// asks for no exception, and "-2+3" runs): the only numbers Pressroom writes, price and stock, are
// never negative, so they are never prefixed.

/** The start of a cell that a spreadsheet would run (papaparse's escapeFormulae test). */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as it was before a writer escaped it: the single quote in front of a formula start is
 * dropped. A quote before anything else is the cell's own text and stays.
 */
export function unescapeFormula(cell: string): string {
  return cell.charCodeAt(0) === 0x27 && FORMULA_START.test(cell.slice(1, 2)) ? cell.slice(1) : cell;
}
