import { describe, expect, it } from 'vitest';
import { normaliseDateTime } from '../../main/csv/values';
import { parsePrice } from '../../shared/price-text';
import { minorDigits, minorToDecimal } from '../../shared/money';

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
    // Three-decimal currencies: three digits after the only separator are fils, as export writes.
    ['1.250', 'KWD', 1250],
    ['1,250', 'BHD', 1250],
    ['1,250.500', 'OMR', 1250500],
    ['1.250,500', 'JOD', 1250500],
    ['1.250.000', 'TND', 1250000000],
    ['12.5', 'KWD', 12500],
    ['1.2500', 'CLF', 12500],
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

  it('reads back what export writes, in every ISO 4217 currency', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const amounts = [0, 1, 9, 10, 99, 100, 250, 999, 1000, 1250, 99999, 100000, 123456789];
    for (let i = 0; i < 40; i++) amounts.push(Math.floor(random() * 10 ** (1 + (i % 12))));
    const currencies = Intl.supportedValuesOf('currency');
    expect(currencies.length).toBeGreaterThan(150);
    expect(currencies.filter((code) => minorDigits(code) === 3)).toEqual(
      expect.arrayContaining(['BHD', 'JOD', 'KWD', 'OMR', 'TND']),
    );
    for (const currency of currencies)
      for (const minor of amounts)
        expect([currency, parsePrice(minorToDecimal(minor, currency), currency)]).toEqual([
          currency,
          { ok: true, value: minor },
        ]);
  });

  it('refuses cents for a currency without a minor unit', () => {
    expect(parsePrice('12.50', 'JPY')).toEqual({
      ok: false,
      reason: 'must be a whole number for JPY',
    });
  });
});

describe('normaliseDateTime', () => {
  it.each([
    ['2026-11-23 09:00', undefined, '2026-11-23T09:00:00'],
    ['2026-11-23T09:00:30', undefined, '2026-11-23T09:00:30'],
    ['2026-11-23 9:05 PM', undefined, '2026-11-23T21:05:00'],
    ['2026-11-23 12:00 am', undefined, '2026-11-23T00:00:00'],
    ['2026-11-23T08:00:00Z', undefined, '2026-11-23T08:00:00Z'],
    ['03/04/2026 10:00', 'DD/MM/YYYY', '2026-04-03T10:00:00'],
    ['03/04/2026 10:00', 'MM/DD/YYYY', '2026-03-04T10:00:00'],
  ] as const)('reads %s (%s) as %s', (text, format, iso) => {
    expect(normaliseDateTime(text, format)).toEqual({ ok: true, value: iso });
  });

  it('refuses ambiguous dates without a format, and nonsense', () => {
    expect(normaliseDateTime('03/04/2026 10:00')).toEqual({
      ok: false,
      reason:
        '"03/04/2026" could be day-first or month-first; give the date format (DD/MM/YYYY or MM/DD/YYYY)',
    });
    expect(normaliseDateTime('next friday').ok).toBe(false);
    expect(normaliseDateTime('2026-11-23').ok).toBe(false);
    expect(normaliseDateTime('2026-11-23 13:00 PM').ok).toBe(false);
  });

  it('names the one reading a date has when the other cannot be (13 is no month)', () => {
    expect(normaliseDateTime('12/13/2026 10:00')).toEqual({
      ok: false,
      reason:
        '"12/13/2026" can only be month-first (13 is no month); set the date format to MM/DD/YYYY',
    });
    expect(normaliseDateTime('12/13/2026 10:00', 'DD/MM/YYYY')).toEqual({
      ok: false,
      reason:
        '"12/13/2026" can only be month-first (13 is no month), not DD/MM/YYYY; set the date format to MM/DD/YYYY',
    });
    expect(normaliseDateTime('13.12.2026 10:00', 'MM/DD/YYYY')).toEqual({
      ok: false,
      reason:
        '"13.12.2026" can only be day-first (13 is no month), not MM/DD/YYYY; set the date format to DD/MM/YYYY',
    });
    expect(normaliseDateTime('12/13/2026 10:00', 'MM/DD/YYYY')).toEqual({
      ok: true,
      value: '2026-12-13T10:00:00',
    });
  });

  it('refuses times and dates no clock or calendar has, quoting the cell as typed', () => {
    expect(normaliseDateTime('2027-12-01 25:00')).toEqual({
      ok: false,
      reason: '"2027-12-01 25:00" is not a real date and time of day',
    });
    expect(normaliseDateTime('2027-02-30 10:00')).toEqual({
      ok: false,
      reason: '"2027-02-30 10:00" is not a real date and time of day',
    });
    expect(normaliseDateTime('31/04/2027 10:61', 'DD/MM/YYYY').ok).toBe(false);
  });

  it('calls a date impossible either way round impossible, not ambiguous', () => {
    expect(normaliseDateTime('12/32/2026 10:00')).toEqual({
      ok: false,
      reason: '"12/32/2026" is no such date, day-first or month-first',
    });
    expect(normaliseDateTime('31.31.2026 10:00')).toEqual({
      ok: false,
      reason: '"31.31.2026" is no such date, day-first or month-first',
    });
  });
});
