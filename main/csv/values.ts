// Reading spreadsheet cell values (Node, main process; pure): prices as people type them, into
// exact minor units. Used by CSV import; every refusal is a sentence for the row's error.
import { decimalToMinor } from '../../shared/money';

export type ValueResult<T> = { ok: true; value: T } | { ok: false; reason: string };

// Currency symbols and codes around a number, and the spaces spreadsheets put in it.
const DECORATION = /[\s\u00a0\u202f$€£¥₹₩₽₺₪₫₴₦₱฿]|[A-Z]{3}|(?:US|CA|AU|NZ|HK|S)\$/g;

/**
 * A price such as `19.99`, `19,99`, `$1,299.00`, `1.299,00 €` or `1299`, as minor units of
 * `currency`. The last separator is the decimal one when one or two digits follow it; every
 * other separator groups thousands and must stand between groups of three digits.
 */
export function parsePrice(text: string, currency: string): ValueResult<number> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'is empty' };
  const bare = trimmed.replace(DECORATION, '');
  if (/^-/.test(bare) || /^\(.*\)$/.test(bare))
    return { ok: false, reason: 'must not be negative' };
  if (!/^\d[\d.,']*$/.test(bare) || /[.,']$/.test(bare)) {
    return { ok: false, reason: `"${text}" is not a price such as 19.99 or 1.299,00` };
  }
  const decimal = /^(.*?)([.,])(\d{1,2})$/.exec(bare);
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
  const minor = decimalToMinor(
    fraction ? `${groups.join('')}.${fraction}` : groups.join(''),
    currency,
  );
  return minor.ok ? { ok: true, value: minor.minor } : { ok: false, reason: minor.reason };
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
        reason: `"${datePart}" could be day-first or month-first; give the date format (DD/MM/YYYY or MM/DD/YYYY)`,
      };
    const [first = '', second2 = '', year = ''] = datePart.split(/[/.]/);
    const [day, month] = dateFormat === 'DD/MM/YYYY' ? [first, second2] : [second2, first];
    date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  }
  if (hourText === undefined) return { ok: false, reason: `"${text}" has no time of day` };
  let hour = Number(hourText);
  if (meridiem) {
    if (hour < 1 || hour > 12)
      return { ok: false, reason: `"${text}" has a 12-hour time outside 1 to 12` };
    hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  }
  return { ok: true, value: `${date}T${String(hour).padStart(2, '0')}:${minute}:${second}` };
}
