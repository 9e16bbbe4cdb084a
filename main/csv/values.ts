// Reading spreadsheet cell values (Node, main process; pure): prices as people type them, into
// exact minor units, and URLs. Used by CSV import; every refusal is a sentence for the row's
// error.
import { Temporal } from 'temporal-polyfill';
import type { ValueResult } from '../../shared/price-text';
import { isHttpUrl } from '../../shared/url';
import { quoted } from '../../shared/text';

// The shape nearly every URL in a spreadsheet has: http or https, a host name of plain labels
// whose last one starts with a letter (so it is not an IP address), no port or user, then any
// visible ASCII. The URL standard accepts every such text; "xn--" labels are left to the full
// parser, which checks their Punycode.
const PLAIN_HTTP_URL =
  /^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*(?:[/?#][!-~]*)?$/i;

/**
 * The same answer as `isHttpUrl`, with plain URLs recognised by one regular expression instead
 * of two runs of the URL parser: an image column of a million rows is a million URLs.
 */
export function isHttpUrlCell(text: string): boolean {
  return PLAIN_HTTP_URL.test(text) || isHttpUrl(text);
}

export type DateFormat = 'DD/MM/YYYY' | 'MM/DD/YYYY';
export const DATE_FORMATS: readonly DateFormat[] = ['DD/MM/YYYY', 'MM/DD/YYYY'];

/**
 * A date and time cell (or a date and a time cell joined by a space) as the ISO text that
 * `toInstant` reads: ISO 8601 as is; `YYYY-MM-DD HH:mm[:ss]`; 12-hour `h:mm AM/PM`; and
 * day-first or month-first dates only when the import names the format, since 03/04 is either.
 */
export function normaliseDateTime(text: string, dateFormat?: DateFormat): ValueResult<string> {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const match =
    /^(\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?([AaPp])\.?[Mm]\.?)?)?$/.exec(
      trimmed,
    );
  if (!match) {
    // An ISO instant with its offset passes through for toInstant to read.
    if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed))
      return { ok: true, value: trimmed };
    return {
      ok: false,
      reason: `${quoted(text)} is not a date and time such as 2026-11-23 09:00 or 2026-11-23T09:00:00Z`,
    };
  }
  const [, datePart = '', hourText, minute = '00', second = '00', meridiem] = match;
  let date = datePart;
  if (!/^\d{4}-/.test(datePart)) {
    const unread = unreadDate(datePart, dateFormat);
    if (unread) return { ok: false, reason: unread };
    date = isoDate(datePart, dateFormat ?? 'DD/MM/YYYY');
  }
  if (hourText === undefined) return { ok: false, reason: `${quoted(text)} has no time of day` };
  let hour = Number(hourText);
  if (meridiem) {
    if (hour < 1 || hour > 12)
      return { ok: false, reason: `${quoted(text)} has a 12-hour time outside 1 to 12` };
    hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  }
  const iso = `${date}T${String(hour).padStart(2, '0')}:${minute}:${second}`;
  // Checked here, so the message quotes the cell as the user typed it.
  if (!isCalendarDateTime(iso))
    return { ok: false, reason: `${quoted(text)} is not a real date and time of day` };
  return { ok: true, value: iso };
}

/**
 * Why a day-first or month-first date cannot be read with the date format given (or none), naming
 * the one reading it has when only one exists (12/13/2026 is month-first: 13 is no month); null
 * when it reads.
 */
function unreadDate(datePart: string, dateFormat: DateFormat | undefined): string | null {
  if (dateFormat && isCalendarDate(isoDate(datePart, dateFormat))) return null;
  const fits = DATE_FORMATS.filter((format) => isCalendarDate(isoDate(datePart, format)));
  const [only] = fits;
  // A date that exists neither way round: with a format given, the whole cell is quoted below.
  if (fits.length === 0)
    return dateFormat ? null : `"${datePart}" is no such date, day-first or month-first`;
  if (fits.length > 1)
    return `"${datePart}" could be day-first or month-first; give the date format (DD/MM/YYYY or MM/DD/YYYY)`;
  const [first = '', second = ''] = datePart.split(/[/.]/);
  const notMonth = only === 'MM/DD/YYYY' ? second : first;
  const reads = `"${datePart}" can only be ${only === 'MM/DD/YYYY' ? 'month' : 'day'}-first (${Number(notMonth)} is no month)`;
  return dateFormat
    ? `${reads}, not ${dateFormat}; set the date format to ${only}`
    : `${reads}; set the date format to ${only}`;
}

/** A day-first or month-first date as YYYY-MM-DD, read as `format` says (not checked). */
function isoDate(datePart: string, format: DateFormat): string {
  const [first = '', second = '', year = ''] = datePart.split(/[/.]/);
  const [day, month] = format === 'DD/MM/YYYY' ? [first, second] : [second, first];
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

function isCalendarDate(iso: string): boolean {
  return isCalendarDateTime(`${iso}T00:00:00`);
}

function isCalendarDateTime(iso: string): boolean {
  try {
    Temporal.PlainDateTime.from(iso, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}
