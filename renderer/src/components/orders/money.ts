// Money as the orders screen shows it (browser): exact minor units formatted in the user's
// locale without ever passing through a float.
import { minorToDecimal } from '../../../../shared/money';

const formatters = new Map<string, Intl.NumberFormat>();

/** 1999 EUR → "€19.99" (in the user's locale). */
export function formatMoney(minor: number, currency: string): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    formatters.set(currency, formatter);
  }
  // Intl formats decimal text exactly, so large totals keep every cent.
  return formatter.format(minorToDecimal(minor, currency) as Intl.StringNumericLiteral);
}
