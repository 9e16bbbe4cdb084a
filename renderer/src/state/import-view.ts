// What the import wizard shows of a preview (browser, pure): each bad cell's sentences by cell,
// the columns by field, the slots by row, the progress in percent, and a file too big to send.
import { MAX_UPLOAD_BYTES } from '../../../shared/upload-limits';
import type { ImportPreview, ImportProgress, ImportResult, RowError } from '../../../shared/domain';

/** What a CSV file holds: posts or products. */
export type ImportKind = ImportResult['kind'];

/** Field → the header it is read from, or null when it is not imported. */
export type FieldColumns = Record<string, string | null>;

/** The key of one cell in the error index: its spreadsheet row and its header. */
export const cellKey = (row: number, column: string): string => `${row}\u0000${column}`;

/** Every error's (or warning's) sentence by cell, so the preview table marks the cells. */
export function errorsByCell(errors: readonly RowError[]): Record<string, string> {
  const index: Record<string, string> = {};
  for (const error of errors) {
    const key = cellKey(error.row, error.column);
    index[key] = index[key] ? `${index[key]}; ${error.message}` : error.message;
  }
  return index;
}

/** The preview's header → field answer, turned to the wizard's field → header view. */
export function fieldColumns(preview: ImportPreview): FieldColumns {
  const columns: FieldColumns = Object.fromEntries(
    preview.fields.map((field) => [field.name, null]),
  );
  for (const [header, field] of Object.entries(preview.mapping)) {
    if (field !== null) columns[field] = header;
  }
  return columns;
}

/** The slot fillSlots gives a row, by the row's number. */
export type RowSlots = Record<number, ImportResult['slots'][number]>;

export function slotsByRow(slots: ImportResult['slots']): RowSlots {
  return Object.fromEntries(slots.map((slot) => [slot.row, slot]));
}

/**
 * How far the import is, in percent: it reads every row, then writes the valid ones (in the same
 * pass when skipping bad rows), so the whole is the preview's rows plus its valid rows.
 */
export function progressPercent(progress: ImportProgress, expected: ImportResult | null): number {
  const total = expected ? expected.rows + (expected.rows - expected.invalid) : 0;
  const done = progress.rowsRead + progress.rowsWritten;
  if (total > 0) return Math.min(100, Math.round((done / total) * 100));
  return progress.bytes > 0
    ? Math.min(100, Math.round((progress.bytesRead / progress.bytes) * 100))
    : 0;
}

/** A file too big for the core's upload limit, told before reading it; else null. */
export function tooBig(file: { name: string; size: number }): string | null {
  if (file.size <= MAX_UPLOAD_BYTES) return null;
  const limit = MAX_UPLOAD_BYTES / 1024 / 1024;
  const size = (file.size / 1024 / 1024).toFixed(1);
  return `“${file.name}” is ${size} MiB; files up to ${limit} MiB can be imported here. Split it, or import it with the command line (npm run -s cli -- import).`;
}
