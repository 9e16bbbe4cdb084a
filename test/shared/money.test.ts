import { describe, expect, it } from 'vitest';
import { decimalToMinor, isCurrency, minorDigits, minorToDecimal } from '../../shared/money';

describe('money', () => {
  it('knows each currency’s minor digits as ISO 4217 gives them', () => {
    expect([minorDigits('USD'), minorDigits('JPY'), minorDigits('KWD')]).toEqual([2, 0, 3]);
    // Where CLDR's display digits, which ICU answers with, differ from ISO 4217.
    expect([minorDigits('HUF'), minorDigits('IDR'), minorDigits('IQD')]).toEqual([2, 2, 3]);
    expect(minorDigits('CLF')).toBe(4);
    expect(decimalToMinor('1299.50', 'HUF')).toEqual({ ok: true, minor: 129_950 });
    expect(isCurrency('EUR')).toBe(true);
    expect(isCurrency('eur')).toBe(false);
    expect(isCurrency('XYZ')).toBe(false);
  });

  it('reads decimal text exactly', () => {
    expect(decimalToMinor('19.99', 'USD')).toEqual({ ok: true, minor: 1999 });
    expect(decimalToMinor('0.1', 'USD')).toEqual({ ok: true, minor: 10 });
    expect(decimalToMinor('1299', 'JPY')).toEqual({ ok: true, minor: 1299 });
    expect(decimalToMinor('1.250', 'KWD')).toEqual({ ok: true, minor: 1250 });
    expect(decimalToMinor(String(0.1 + 0.2), 'USD')).toMatchObject({ ok: false });
    expect(decimalToMinor('12.5', 'JPY')).toEqual({
      ok: false,
      reason: 'must be a whole number for JPY',
    });
    expect(decimalToMinor('-1', 'USD')).toMatchObject({ ok: false });
    expect(decimalToMinor('1e3', 'USD')).toMatchObject({ ok: false });
    expect(decimalToMinor('99999999999999999', 'USD')).toEqual({
      ok: false,
      reason: 'is too large',
    });
  });

  it('writes canonical decimal text', () => {
    expect(minorToDecimal(1999, 'USD')).toBe('19.99');
    expect(minorToDecimal(5, 'USD')).toBe('0.05');
    expect(minorToDecimal(1299, 'JPY')).toBe('1299');
    expect(minorToDecimal(1250, 'KWD')).toBe('1.250');
    expect(minorToDecimal(-5, 'EUR')).toBe('-0.05');
  });
});
