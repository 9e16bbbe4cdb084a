// Amounts stored while Pressroom took each currency's minor digits from ICU, rescaled to ISO
// 4217's (Node, main process; one migration of the workspace and one of the reference server use
// it). ICU gave CLDR's display digits: 0 for these, where ISO 4217 has 2, and 0 for IQD, where it
// has 3. So 1299 HUF meant 1,299 forints and now means 12.99: it becomes 129900. Frozen, as a
// released migration's SQL is: a later change of the money rules needs a migration of its own.
const RESCALED: readonly (readonly [factor: number, currencies: string])[] = [
  [100, 'AFN ALL COP HUF IDR IRR KPW LAK LBP MGA MMK PKR SLL SOS SYP YER'],
  [1000, 'IQD'],
];

/** A column of minor units, and the SQL expression giving each row's currency. */
export interface MinorAmounts {
  table: string;
  amount: string;
  currency: string;
}

/** SQL that rescales every given column of minor units from ICU's digits to ISO 4217's. */
export function rescaleToIsoMinorUnits(columns: readonly MinorAmounts[]): string {
  return columns
    .flatMap(({ table, amount, currency }) =>
      RESCALED.map(([factor, codes]) => {
        const list = codes
          .split(' ')
          .map((code) => `'${code}'`)
          .join(', ');
        return `UPDATE ${table} SET ${amount} = ${amount} * ${factor} WHERE ${currency} IN (${list});`;
      }),
    )
    .join('\n');
}
