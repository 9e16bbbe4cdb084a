// Orders name their customer: the cached subscriber's name for the order's subscriber_id, found
// by a search for that name; the id only when the subscriber is not cached (yet).
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';

const order = (id: string, subscriberId: string | null) => ({
  id,
  status: 'paid',
  currency: 'EUR',
  totalMinor: 100,
  createdAt: null,
  raw: { id, subscriber_id: subscriberId },
});

async function storeWithOrders(): Promise<WorkspaceStore> {
  const store = WorkspaceStore.open(':memory:');
  const subscribers = store.cache.beginRead('subscribers');
  store.cache.putSubscribers(
    [
      {
        id: 'sub_107',
        botId: 'bot_1',
        name: 'Ada Lovelace',
        tags: [],
        status: 'active',
        raw: { id: 'sub_107' },
      },
    ],
    subscribers,
  );
  await store.cache.finishRead('subscribers', subscribers, true);
  const orders = store.cache.beginRead('orders');
  store.cache.putOrders(
    [order('ord_1', 'sub_107'), order('ord_2', 'sub_999'), order('ord_3', null)],
    orders,
  );
  await store.cache.finishRead('orders', orders, true);
  return store;
}

const customers = (store: WorkspaceStore, search?: string) =>
  Object.fromEntries(
    store.cache
      .orders({ offset: 0, limit: 100, ...(search === undefined ? {} : { search }) })
      .rows.map((row) => [row.id, row.customer]),
  );

describe('the customers of cached orders', () => {
  it('names the customer by the subscriber’s name, and falls back to the id only when unknown', async () => {
    const store = await storeWithOrders();
    expect(customers(store)).toEqual({ ord_1: 'Ada Lovelace', ord_2: 'sub_999', ord_3: null });
    store.close();
  });

  it('finds orders by the customer’s name, in any case, and still by the order id', async () => {
    const store = await storeWithOrders();
    expect(customers(store, 'lovelace')).toEqual({ ord_1: 'Ada Lovelace' });
    expect(store.cache.orders({ offset: 0, limit: 100, search: 'lovelace' }).total).toBe(1);
    expect(customers(store, 'ord_2')).toEqual({ ord_2: 'sub_999' });
    expect(customers(store, 'nobody')).toEqual({});
    store.close();
  });
});
