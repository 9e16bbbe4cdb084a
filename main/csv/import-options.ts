// What a CSV import is asked to do (Node, main process): the options the run, the row checks, the
// slot planner and the writer all read. Its own module so none of them imports another for it.
import { IMPORT_LIST_LIMIT } from '../../shared/domain';
import type { ImportProgress } from '../../shared/domain';
import type { TextEncoding } from '../../shared/encodings';
import type { ColumnOverrides } from './columns';
import type { DateFormat } from './values';

/** Adds `items` to an answer's list of errors or warnings while it is under its limit. */
export function keepFirst<T>(list: T[], items: readonly T[]): void {
  for (const item of items) {
    if (list.length >= IMPORT_LIST_LIMIT) return;
    list.push(item);
  }
}

export interface ImportOptions {
  dryRun?: boolean;
  onError?: 'abort' | 'skip';
  /** Posts with a time are scheduled and products queued, instead of staying drafts. */
  queue?: boolean;
  /** What a scheduled time in the past is: a row error, or "publish now". */
  past?: 'error' | 'publish-now';
  /** The zone of post rows' wall times without one of their own; else the system's. */
  timezone?: string;
  dateFormat?: DateFormat;
  /** The user's column choices (field → header, or null), over the matching by name. */
  mapping?: ColumnOverrides;
  /** The file's encoding, over the detection. */
  encoding?: TextEncoding;
  /** Whether the first row is data (its columns are "Column 1", ...); found from it if not given. */
  firstRowIsData?: boolean;
  /** Posts: the bot of rows without one (an id, or a name the cache knows). */
  bot?: string;
  /**
   * Post rows without a time are scheduled in the next free slot of their bot (the row's, else
   * `defaultBotId`), the schedules read in `zone`. Implies `queue`: a slot is a place in the queue.
   */
  fillSlots?: { zone: string; defaultBotId: string | null };
  /**
   * The duplicate-content guard: a post row that would go out with the text of a counted post of
   * its bot, or of an earlier row, within `windowDays` is left out with a warning, unless `allow`.
   */
  duplicates?: { windowDays: number; allow: boolean };
  defaultCurrency: string;
  now: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Where to write the bad rows, as CSV, if there are any (the file is made at the first). */
  badRowsPath?: string;
}
