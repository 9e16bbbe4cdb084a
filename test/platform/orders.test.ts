// Orders as the platform lists them: each item priced exactly, in its order's currency when it
// names none. The items' schema is made once per currency (#32), so orders in two currencies one
// after the other must each keep their own.
import { describe, expect, it } from 'vitest';
import { orderReader, orderSchema } from '../../main/platform/normalize/people';

const order = (id: number, currency: string, unitPrice: number) => ({
  id,
  currency,
  total: unitPrice * 2,
  items: [{ product_id: 1, sku: 'A', name: 'a', quantity: 2, unit_price: unitPrice }],
});

describe('orders', () => {
  it('prices each order’s items in that order’s currency, whichever came before', () => {
    const euros = orderSchema.parse(order(1, 'EUR', 2.5));
    const yen = orderSchema.parse(order(2, 'JPY', 250));
    const eurosAgain = orderSchema.parse(order(3, 'EUR', 1.25));
    expect(euros.items[0]).toMatchObject({ unit_price: '2.50', unit_price_minor: 250 });
    expect(euros.items[0]?.currency).toBe('EUR');
    expect(yen.items[0]).toMatchObject({ unit_price: '250', unit_price_minor: 250 });
    expect(yen.items[0]?.currency).toBe('JPY');
    expect(eurosAgain.items[0]).toMatchObject({ unit_price: '1.25', unit_price_minor: 125 });
    expect(eurosAgain.items[0]?.currency).toBe('EUR');
  });

  it('refuses an item whose price its currency cannot hold, naming where', () => {
    const result = orderSchema.safeParse(order(4, 'JPY', 2.5));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['items', 0, 'unit_price']);
  });
});

/** An order as the reference server lists it: the form `orderReader` reads in one copy. */
const listed = {
  id: 'ord_401',
  number: '1401',
  bot_id: 'bot_1',
  subscriber_id: 'sub_134',
  status: 'paid',
  currency: 'EUR',
  total: '91.50',
  items: [
    { product_id: 'prod_11', sku: 'BK-011', name: 'Lemon tart', quantity: 1, unit_price: '4.50' },
    { product_id: null, sku: 'BK-039', name: 'Bread knife', quantity: 3, unit_price: '29.00' },
  ],
  created_at: '2026-11-28T16:11:43.069Z',
  note: 'kept as it came',
};

/** `listed` with one field changed (undefined: left out). */
const variant = (change: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries({ ...listed, ...change }).filter(([, value]) => value !== undefined),
  );
const reversed = (value: object) => Object.fromEntries(Object.entries(value).reverse());
const withItem = (change: Record<string, unknown>) =>
  variant({ items: [{ ...listed.items[0], ...change }] });

describe('an order read by orderReader', () => {
  // Each must read exactly as orderSchema reads it, key order included (the cache stores its JSON).
  const cases: [string, unknown][] = [
    ['as listed', listed],
    ['a number id', variant({ id: 401 })],
    ['a number as a number', variant({ number: 1401 })],
    ['no number', variant({ number: undefined })],
    ['a null number', variant({ number: null })],
    ['an empty bot id', variant({ bot_id: '' })],
    ['no status', variant({ status: undefined })],
    ['a lower-case currency', variant({ currency: 'eur' })],
    ['a total as a number', variant({ total: 91.5 })],
    ['a total with one digit', variant({ total: '91.5' })],
    ['a total too precise', variant({ total: '91.505' })],
    ['a total with spaces', variant({ total: ' 91.50 ' })],
    ['a total with a leading zero', variant({ total: '091.50' })],
    ['a total under one', variant({ total: '0.50' })],
    ['a total of zero', variant({ total: '0.00' })],
    ['a total without its point', variant({ total: '9150' })],
    ['a total with a sign', variant({ total: '-91.50' })],
    ['a total in yen', variant({ currency: 'JPY', total: '9150', items: [] })],
    ['a total in yen with a point', variant({ currency: 'JPY', total: '9150.', items: [] })],
    ['a total in yen with a leading zero', variant({ currency: 'JPY', total: '09150', items: [] })],
    ['a total of zero yen', variant({ currency: 'JPY', total: '0', items: [] })],
    ['a total in dinars', variant({ currency: 'KWD', total: '91.500', items: [] })],
    ['a total in dinars to the cent', variant({ currency: 'KWD', total: '91.50', items: [] })],
    ['a total in minor units', variant({ total: undefined, total_minor: 9150 })],
    ['a stale total_minor', variant({ total_minor: 1 })],
    ['no items', variant({ items: undefined })],
    ['null items', variant({ items: null })],
    ['an offset instant', variant({ created_at: '2026-11-28T17:11:43.069+01:00' })],
    ['an instant without milliseconds', variant({ created_at: '2026-11-28T16:11:43Z' })],
    ['an impossible day', variant({ created_at: '2026-02-30T16:11:43.069Z' })],
    ['epoch seconds', variant({ created_at: 1_790_000_000 })],
    ['an item in its own currency', withItem({ currency: 'USD' })],
    ['an item without quantity', withItem({ quantity: undefined })],
    ['a fractional quantity', withItem({ quantity: 1.5 })],
    ['an item price too precise', withItem({ unit_price: '4.505' })],
    ['an item price as a number', withItem({ unit_price: 4.5 })],
    ['an item that is not an object', variant({ items: ['x'] })],
    ['an unknown currency', variant({ currency: 'EUX' })],
    ['no id', variant({ id: undefined })],
    ['not an object', 'ord_1'],
    ['a __proto__ key', { ...listed, ...JSON.parse('{"__proto__": {"polluted": 1}}') }],
    ['a constructor key', variant({ constructor: 'x', toString: 1 })],
    ['keys in another order', reversed(listed)],
    [
      "an item's keys in another order",
      variant({ items: [reversed({ ...listed.items[0], extra: 1, unit_price_minor: 2 })] }),
    ],
  ];

  it.each(cases)('%s reads as orderSchema reads it', (_, raw) => {
    const fast = orderReader.safeParse(raw);
    const schema = orderSchema.safeParse(raw);
    expect(fast.success).toBe(schema.success);
    expect(JSON.stringify(fast.data)).toBe(JSON.stringify(schema.data));
    expect(fast.error?.issues).toEqual(schema.error?.issues);
  });
});
