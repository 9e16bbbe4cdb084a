// Money as exact integer minor units plus an ISO 4217 currency. Never floats: decimal text is
// split into digits, so "19.99" is 1999 cents exactly.

const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code this runtime knows (upper case, three letters). */
export function isCurrency(code: string): boolean {
  // Intl lists only well-formed codes, three upper-case letters, so the set alone answers.
  return knownCurrencies.has(code);
}

const digitsByCurrency = new Map<string, number>();

/** How many fraction digits the currency's minor unit has: USD 2, JPY 0, KWD 3. */
export function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    // Building a NumberFormat is slow; an import asks this for every row.
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

export type MinorResult = { ok: true; minor: number } | { ok: false; reason: string };

/**
 * Reads a plain decimal ("19.99", "1299", "0.5") as minor units of `currency`.
 * Refuses signs, exponents, grouping separators and more fraction digits than the currency has.
 */
export function decimalToMinor(text: string, currency: string): MinorResult {
  // Read digit by digit rather than by a regular expression and string arithmetic: an import
  // converts a price per row. Every partial value below 2^53 is exact, and once one is not, the
  // value only grows, so the safe-integer check at the end catches every number too large.
  const point = text.indexOf('.');
  const wholeDigits = point === -1 ? text.length : point;
  let minor = 0;
  for (let index = 0; index < text.length; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (digit >= 0 && digit <= 9) minor = minor * 10 + digit;
    else if (index !== point) return { ok: false, reason: NOT_DECIMAL };
  }
  if (wholeDigits === 0 || point === text.length - 1) return { ok: false, reason: NOT_DECIMAL };
  const digits = minorDigits(currency);
  const fractionDigits = point === -1 ? 0 : text.length - point - 1;
  if (fractionDigits > digits) {
    return {
      ok: false,
      reason:
        digits === 0
          ? `must be a whole number for ${currency}`
          : `must have at most ${digits} fraction digits for ${currency}`,
    };
  }
  minor *= 10 ** (digits - fractionDigits);
  if (!Number.isSafeInteger(minor)) return { ok: false, reason: 'is too large' };
  return { ok: true, minor };
}

const NOT_DECIMAL = 'must be a decimal number such as 19.99';

/** The canonical decimal text of minor units: 1999 USD → "19.99", 500 JPY → "500". */
export function minorToDecimal(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const sign = minor < 0 ? '-' : '';
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
