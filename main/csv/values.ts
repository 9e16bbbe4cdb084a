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
