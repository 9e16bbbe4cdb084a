// Reads what a spreadsheet puts on the clipboard (browser, pure): rows of tab-separated cells.
// Spreadsheets quote a cell that holds a tab, a newline or a quote, and double its quotes, so
// a cell is not simply a piece between tabs.

/** The rows and cells of copied spreadsheet text; a trailing line break adds no empty row. */
export function parseClipboardTable(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let index = 0;
  // Whether the text ended a row itself (a trailing newline), so no empty row is added.
  let rowClosed = false;
  const endRow = (): void => {
    row.push(cell);
    rows.push(row);
    row = [];
    cell = '';
    rowClosed = true;
  };
  while (index < text.length) {
    rowClosed = false;
    if (cell === '' && text[index] === '"') {
      // A quoted cell runs to the quote not followed by another one.
      let end = index + 1;
      let value = '';
      while (end < text.length) {
        if (text[end] === '"') {
          if (text[end + 1] === '"') {
            value += '"';
            end += 2;
            continue;
          }
          break;
        }
        value += text[end];
        end += 1;
      }
      // Unclosed: the spreadsheet did not quote it, so the quote is part of the text.
      if (end >= text.length) {
        cell += text[index];
        index += 1;
        continue;
      }
      cell = value;
      index = end + 1;
      continue;
    }
    const char = text[index];
    if (char === '\t') {
      row.push(cell);
      cell = '';
      index += 1;
    } else if (char === '\r' || char === '\n') {
      endRow();
      index += char === '\r' && text[index + 1] === '\n' ? 2 : 1;
    } else {
      cell += char;
      index += 1;
    }
  }
  if (!rowClosed && (cell !== '' || row.length > 0)) endRow();
  return rows;
}
