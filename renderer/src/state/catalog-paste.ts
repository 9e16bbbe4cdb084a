// Pasting rows into the catalog (browser, pure): reading what a spreadsheet puts on the
// clipboard, whether a paste must ask before it overwrites products, and what it says it did.
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

/** What a paste at the active row would do, for the question asked before it. */
export interface PasteQuestion {
  /** Editable products (drafts, failed ones) the pasted rows would overwrite. */
  replaceable: number;
  /** Products the rows land on that cannot be changed (from the platform, published, queued). */
  locked: number;
  /** Rows past the last one, which become new drafts either way. */
  added: number;
}

export type PasteChoice = 'replace' | 'new' | 'cancel';

/**
 * Whether to ask first: rows landing on locked products (which would save nothing), or rows
 * replacing whole products, SKU included, or more than one. Pasting into a few cells of one row
 * is an edit like typing, and is undone the same way.
 */
export function needsQuestion(question: PasteQuestion, rows: number, firstCol: number): boolean {
  if (question.locked > 0) return true;
  return question.replaceable > 0 && (rows > 1 || firstCol === 0);
}

/** "Replaced 3 products", "Added 3 new drafts", or both, and how many rows were not saved. */
export function pasteSummary(saved: { before: unknown }[], notSaved: number): string {
  const replaced = saved.filter((change) => change.before !== null).length;
  const added = saved.length - replaced;
  const parts = [
    replaced > 0 ? `replaced ${plural(replaced, 'product')}` : '',
    added > 0 ? `added ${plural(added, 'new draft')}` : '',
    notSaved > 0 ? `${plural(notSaved, 'row')} not saved` : '',
  ].filter(Boolean);
  const text = parts.length > 0 ? parts.join('; ') : 'nothing pasted';
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** "1 row", "1,234 rows". */
export function plural(count: number, word: string): string {
  return `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`;
}
