import { describe, expect, it } from 'vitest';
import { parsePrice } from '../../main/csv/values';

describe('parsePrice', () => {
  it.each([
    ['19.99', 'USD', 1999],
    ['19,99', 'EUR', 1999],
    ['$1,299.00', 'USD', 129900],
    ['1.299,00 €', 'EUR', 129900],
    ['1299', 'USD', 129900],
    ['1,299', 'USD', 129900],
    ['1 299,5', 'EUR', 129950],
    ["1'299.95", 'CHF', 129995],
    ['0.5', 'USD', 50],
    ['USD 12', 'USD', 1200],
    ['1299', 'JPY', 1299],
    ['¥1,299', 'JPY', 1299],
    ['1.250', 'KWD', 1250000],
  ])('reads %s in %s as %i minor units', (text, currency, minor) => {
    expect(parsePrice(text, currency)).toEqual({ ok: true, value: minor });
  });

  it.each([
    ['', 'is empty'],
    ['abc', '"abc" is not a price such as 19.99 or 1.299,00'],
    ['-5', 'must not be negative'],
    ['12,34,56', '"12,34,56" has thousands separators in the wrong places'],
    ['1.299.5', '"1.299.5" has thousands separators in the wrong places'],
    ['1,299.999', '"1,299.999" has thousands separators in the wrong places'],
    ['19.', '"19." is not a price such as 19.99 or 1.299,00'],
  ])('refuses %j: %s', (text, reason) => {
    expect(parsePrice(text, 'USD')).toEqual({ ok: false, reason });
  });

  it('refuses cents for a currency without a minor unit', () => {
    expect(parsePrice('12.50', 'JPY')).toEqual({
      ok: false,
      reason: 'must be a whole number for JPY',
    });
  });
});
