// Money as exact integer minor units plus an ISO 4217 currency. Never floats: decimal text is
// split into digits, so "19.99" is 1999 cents exactly.

const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

/** True for an ISO 4217 code this runtime knows (upper case, three letters). */
export function isCurrency(code: string): boolean {
  // Intl lists only well-formed codes, three upper-case letters, so the set alone answers.
  return knownCurrencies.has(code);
}

/**
 * ISO 4217's minor units (List One) where they are not 2. ECMA-402 has Intl answer from this list,
 * but V8's ICU answers with CLDR's display digits instead (HUF 0, IDR 0, IQD 0), which would refuse
 * prices a shop rightly has, and read a platform's minor-unit amounts in them a hundredfold wrong;
 * its first answer also cost an import's first row about 10 ms.
 */
const ISO_MINOR_DIGITS = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
  3: 'BHD IQD JOD KWD LYD OMR TND',
  4: 'CLF UYW',
};
const minorDigitsNot2 = new Map(
  Object.entries(ISO_MINOR_DIGITS).flatMap(([digits, codes]) =>
    codes.split(' ').map((code) => [code, Number(digits)] as const),
  ),
);

/** How many fraction digits the currency's minor unit has: USD 2, JPY 0, KWD 3. */
export function minorDigits(currency: string): number {
  return minorDigitsNot2.get(currency) ?? 2;
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
