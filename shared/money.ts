// Money as exact integer minor units plus an ISO 4217 currency. Never floats: decimal text is
// split into digits, so "19.99" is 1999 cents exactly.

const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code this runtime knows (upper case, three letters). */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && knownCurrencies.has(code);
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
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { ok: false, reason: 'must be a decimal number such as 19.99' };
  const digits = minorDigits(currency);
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > digits) {
    return {
      ok: false,
      reason:
        digits === 0
          ? `must be a whole number for ${currency}`
          : `must have at most ${digits} fraction digits for ${currency}`,
    };
  }
  const minor = Number(whole + fraction.padEnd(digits, '0'));
  if (!Number.isSafeInteger(minor)) return { ok: false, reason: 'is too large' };
  return { ok: true, minor };
}

/** The canonical decimal text of minor units: 1999 USD → "19.99", 500 JPY → "500". */
export function minorToDecimal(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const sign = minor < 0 ? '-' : '';
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
