// Orders as the platform lists them: each item priced exactly, in its order's currency when it
// names none. The items' schema is made once per currency (#32), so orders in two currencies one
// after the other must each keep their own.
import { describe, expect, it } from 'vitest';
import { orderSchema } from '../../main/platform/normalize/people';

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
