// Prices as people type them (pure, both sides): `19,99`, `$1,299.00`, `1.299,00 €`, into exact
// minor units of a currency. CSV import reads its price column with this, and the catalog grid
// and saveProduct read typed prices with it, so a price means the same wherever it is typed.
import { decimalToMinor, minorDigits } from './money';
import { quoted } from './text';

export type ValueResult<T> = { ok: true; value: T } | { ok: false; reason: string };

// Currency symbols and codes around a number, and the spaces spreadsheets put in it.
const DECORATION = /[\s\u00a0\u202f$€£¥₹₩₽₺₪₫₴₦₱฿]|[A-Z]{3}|(?:US|CA|AU|NZ|HK|S)\$/g;

// A decimal separator and its fraction at the end of a price, by the most fraction digits read
// as one: two, or the currency's own minor digits where it has more (KWD 1.250 is 1,250 fils).
const DECIMAL_TAIL = new Map(
  [2, 3, 4].map((digits) => [digits, new RegExp(`^(.*?)([.,])(\\d{1,${digits}})$`)] as const),
);

/**
 * How a lone separator before three digits (`4.505`) is read: in a file it groups thousands, as
 * spreadsheets write them; typed by a person it is a decimal point in a 3-decimal currency
 * (KWD `1.250`) and unclear in the others, so it is refused with the two ways to write it rather
 * than read as a thousandfold price.
 */
export type PriceReading = 'file' | 'typed';

const LONE_SEPARATOR = /^(\d+)[.,](\d+)$/;

/**
 * A price such as `19.99`, `19,99`, `$1,299.00`, `1.299,00 €` or `1299`, as minor units of
 * `currency`. The last separator is the decimal one when one or two digits follow it (up to the
 * currency's minor digits where it has three or four, so `1.250` is 1.250 KWD, as export writes
 * it) and it appears only once; every other separator groups thousands and must stand between
 * groups of three digits.
 */
export function parsePrice(
  text: string,
  currency: string,
  reading: PriceReading = 'file',
): ValueResult<number> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'is empty' };
  const plain = plainDecimal(trimmed);
  if (plain !== undefined) return minorUnits(plain, currency);
  const bare = trimmed.replace(DECORATION, '');
  const lone = reading === 'typed' ? LONE_SEPARATOR.exec(bare) : null;
  if (lone) {
    const digits = minorDigits(currency);
    if ((lone[2] ?? '').length === 3 && digits < 3) {
      return {
        ok: false,
        reason: `${quoted(text.trim())} is unclear for ${currency}, which has ${digits} decimals: write ${lone[1]}${lone[2]} without the separator, or at most ${digits} decimals`,
      };
    }
    return minorUnits(`${lone[1]}.${lone[2]}`, currency);
  }
  if (/^-/.test(bare) || /^\(.*\)$/.test(bare))
    return { ok: false, reason: 'must not be negative' };
  if (!/^\d[\d.,']*$/.test(bare) || /[.,']$/.test(bare)) {
    return { ok: false, reason: `${quoted(text)} is not a price such as 19.99 or 1.299,00` };
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
    return { ok: false, reason: `${quoted(text)} has thousands separators in the wrong places` };
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
