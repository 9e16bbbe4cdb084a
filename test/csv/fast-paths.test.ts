// The shortcuts in cell reading give the answers of the full rules they skip, on random input.
import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../../main/reference-server/random';
import { isHttpUrlCell } from '../../main/csv/values';
import { parsePrice } from '../../shared/price-text';
import { decimalToMinor, minorDigits } from '../../shared/money';
import type { MinorResult } from '../../shared/money';
import { isHttpUrl } from '../../shared/url';

function randomText(next: () => number, pieces: readonly string[], count: number): string {
  let text = '';
  for (let index = 0; index < count; index++) text += pieces[Math.floor(next() * pieces.length)];
  return text;
}

describe('parsePrice on plain numbers', () => {
  it.each(['USD', 'EUR', 'JPY', 'KWD'])('reads them as the full rules do, in %s', (currency) => {
    const next = random(currency.charCodeAt(0));
    const pieces = ['0', '1', '2', '5', '9', '.', ','];
    for (let round = 0; round < 5000; round++) {
      const text = randomText(next, pieces, 1 + Math.floor(next() * 9));
      // A currency code around the number sends it through every rule; the answer must agree.
      const full = parsePrice(`${text} USD`, currency);
      const expected = full.ok
        ? full
        : { ok: false, reason: full.reason.replace(`"${text} USD"`, `"${text}"`) };
      expect(parsePrice(text, currency), text).toEqual(expected);
    }
  });
});

/** decimalToMinor as a regular expression and string arithmetic read it before its digit loop. */
function decimalByPattern(text: string, currency: string): MinorResult {
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
  return Number.isSafeInteger(minor) ? { ok: true, minor } : { ok: false, reason: 'is too large' };
}

describe('decimalToMinor', () => {
  it.each(['USD', 'JPY', 'KWD'])('reads digits as the full pattern does, in %s', (currency) => {
    const next = random(currency.charCodeAt(1));
    const pieces = ['0', '1', '7', '9', '.', '9999', '-', 'e', ' '];
    let accepted = 0;
    for (let round = 0; round < 20_000; round++) {
      // Up to 24 characters: around 2^53 as well, where "is too large" begins.
      const text = randomText(next, pieces, Math.floor(next() * 9));
      const expected = decimalByPattern(text, currency);
      if (expected.ok) accepted++;
      expect(decimalToMinor(text, currency), text).toEqual(expected);
    }
    expect(accepted).toBeGreaterThan(2_000);
    for (const edge of [
      '9007199254740991',
      '9007199254740992',
      '90071992547409.91',
      '1'.repeat(400),
    ])
      expect(decimalToMinor(edge, currency), edge).toEqual(decimalByPattern(edge, currency));
  });
});

describe('isHttpUrlCell', () => {
  it('answers as the URL parser does', () => {
    const next = random(7);
    const starts = ['http://', 'https://', 'HTTPS://', 'ftp://', 'http:/', 'http://user@', ''];
    const pieces = [
      ...['a', 'Z', 'shop', 'xn--', 'xn--bcher-kva', 'XN--', '0', '1', '255', '999', '0x1f', '-'],
      ...['.', '.', '/', '?', '#', ':', ':8080', '%', '%zz', ' ', 'é', '[', ']', '\\', '_'],
    ];
    let accepted = 0;
    for (let round = 0; round < 20_000; round++) {
      const start = starts[Math.floor(next() * starts.length)] ?? '';
      const text = start + randomText(next, pieces, 1 + Math.floor(next() * 6));
      const expected = isHttpUrl(text);
      if (expected) accepted++;
      expect(isHttpUrlCell(text), text).toBe(expected);
    }
    // Both answers occur often, so the comparison means something.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  });

  it('takes the URLs a catalog has', () => {
    expect(isHttpUrlCell('https://cdn.example.com/p/1.jpg?w=200#top')).toBe(true);
    expect(isHttpUrlCell('http://localhost')).toBe(true);
    expect(isHttpUrlCell('https://1.2.3.4/a.jpg')).toBe(true);
    expect(isHttpUrlCell('https://999.1.1.1/a.jpg')).toBe(false);
    expect(isHttpUrlCell('ftp://example.com/a.jpg')).toBe(false);
    expect(isHttpUrlCell('example.com/a.jpg')).toBe(false);
  });
});
