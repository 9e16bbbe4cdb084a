// Reading spreadsheet cell values (Node, main process; pure): prices as people type them, into
// exact minor units, and URLs. Used by CSV import; every refusal is a sentence for the row's
// error.
import { Temporal } from 'temporal-polyfill';
import { decimalToMinor, minorDigits } from '../../shared/money';
import { isHttpUrl } from '../../shared/url';

export type ValueResult<T> = { ok: true; value: T } | { ok: false; reason: string };

// Currency symbols and codes around a number, and the spaces spreadsheets put in it.
const DECORATION = /[\s\u00a0\u202f$€£¥₹₩₽₺₪₫₴₦₱฿]|[A-Z]{3}|(?:US|CA|AU|NZ|HK|S)\$/g;

// A decimal separator and its fraction at the end of a price, by the most fraction digits read
// as one: two, or the currency's own minor digits where it has more (KWD 1.250 is 1,250 fils).
const DECIMAL_TAIL = new Map(
  [2, 3, 4].map((digits) => [digits, new RegExp(`^(.*?)([.,])(\\d{1,${digits}})$`)] as const),
);

/**
 * A price such as `19.99`, `19,99`, `$1,299.00`, `1.299,00 €` or `1299`, as minor units of
 * `currency`. The last separator is the decimal one when one or two digits follow it (up to the
 * currency's minor digits where it has three or four, so `1.250` is 1.250 KWD, as export writes
 * it) and it appears only once; every other separator groups thousands and must stand between
 * groups of three digits.
 */
export function parsePrice(text: string, currency: string): ValueResult<number> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'is empty' };
  const plain = plainDecimal(trimmed);
  if (plain !== undefined) return minorUnits(plain, currency);
  const bare = trimmed.replace(DECORATION, '');
  if (/^-/.test(bare) || /^\(.*\)$/.test(bare))
    return { ok: false, reason: 'must not be negative' };
  if (!/^\d[\d.,']*$/.test(bare) || /[.,']$/.test(bare)) {
    return { ok: false, reason: `"${text}" is not a price such as 19.99 or 1.299,00` };
  }
  const tail = DECIMAL_TAIL.get(Math.max(2, minorDigits(currency))) ?? DECIMAL_TAIL.get(2);
  const match = tail?.exec(bare);
  // A separator seen twice groups (1.250.000), wherever it stands.
  const decimal = match && !(match[1] ?? '').includes(match[2] ?? '') ? match : null;
  const [whole, point, fraction] = decimal
    ? [decimal[1] ?? '', decimal[2] ?? '', decimal[3] ?? '']
    : [bare, '', ''];
  const groups = whole.split(/[.,']/);
  const wellGrouped =
    groups.length === 1 ||
    (/^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
  const separators = new Set(whole.match(/[.,']/g) ?? []);
  if (!wellGrouped || separators.size > 1 || separators.has(point)) {
    return { ok: false, reason: `"${text}" has thousands separators in the wrong places` };
  }
  return minorUnits(fraction ? `${groups.join('')}.${fraction}` : groups.join(''), currency);
}

function minorUnits(decimal: string, currency: string): ValueResult<number> {
  const minor = decimalToMinor(decimal, currency);
  return minor.ok ? { ok: true, value: minor.minor } : { ok: false, reason: minor.reason };
}

/**
 * The price as a plain decimal when it is written the common way, digits with at most one
 * separator followed by one or two digits (`1299`, `19.99`, `19,99`), else undefined. The rules
 * above read these the same way; a character loop skips their regular expressions, which an
 * import of a million rows would run millions of times.
 */
function plainDecimal(text: string): string | undefined {
  let separator = -1;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x30 && code <= 0x39) continue;
    const decimalPlace = index > 0 && index >= text.length - 3 && index <= text.length - 2;
    if ((code !== 0x2e && code !== 0x2c) || separator !== -1 || !decimalPlace) return undefined;
    separator = index;
  }
  return separator === -1 ? text : `${text.slice(0, separator)}.${text.slice(separator + 1)}`;
}

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
      reason: `"${text}" is not a date and time such as 2026-11-23 09:00 or 2026-11-23T09:00:00Z`,
    };
  }
  const [, datePart = '', hourText, minute = '00', second = '00', meridiem] = match;
  let date = datePart;
  if (!/^\d{4}-/.test(datePart)) {
    if (!dateFormat)
      return {
        ok: false,
        // Asking for the format would not help a date that exists neither way round.
        reason: DATE_FORMATS.some((format) => isCalendarDate(isoDate(datePart, format)))
          ? `"${datePart}" could be day-first or month-first; give the date format (DD/MM/YYYY or MM/DD/YYYY)`
          : `"${datePart}" is no such date, day-first or month-first`,
      };
    date = isoDate(datePart, dateFormat);
  }
  if (hourText === undefined) return { ok: false, reason: `"${text}" has no time of day` };
  let hour = Number(hourText);
  if (meridiem) {
    if (hour < 1 || hour > 12)
      return { ok: false, reason: `"${text}" has a 12-hour time outside 1 to 12` };
    hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  }
  const iso = `${date}T${String(hour).padStart(2, '0')}:${minute}:${second}`;
  // Checked here, so the message quotes the cell as the user typed it.
  if (!isCalendarDateTime(iso))
    return { ok: false, reason: `"${text}" is not a real date and time of day` };
  return { ok: true, value: iso };
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
