// Money as the orders screen shows it (browser): exact minor units formatted in the user's
// locale without ever passing through a float.
import { minorDigits, minorToDecimal } from '../../../../shared/money';

const formatters = new Map<string, Intl.NumberFormat>();

/** 1999 EUR → "€19.99" (in the user's locale). */
export function formatMoney(minor: number, currency: string): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    // The currency's own minor digits: ICU's display default rounds some (1299.50 HUF → 1,300).
    const digits = minorDigits(currency);
    formatter = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(currency, formatter);
  }
  // Intl formats decimal text exactly, so large totals keep every cent.
  return formatter.format(minorToDecimal(minor, currency) as Intl.StringNumericLiteral);
}
