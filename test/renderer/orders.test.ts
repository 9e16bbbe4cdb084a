import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderSummary, Page, SyncReport } from '../../shared/domain';
import OrdersScreen from '../../renderer/src/screens/OrdersScreen.svelte';
import { formatMoney } from '../../renderer/src/components/orders/money';
import { shellContext } from '../../renderer/src/lib/context';
import { OrdersState } from '../../renderer/src/state/orders.svelte';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { FakeTransport, ok } from './fake-transport';

const order = (id: string, extra: Partial<OrderSummary> = {}): OrderSummary => ({
  id,
  status: 'paid',
  currency: 'EUR',
  totalMinor: 1999,
  createdAt: Date.UTC(2026, 10, 20, 9, 30),
  customer: 'Ada Lovelace',
  items: [
    { name: 'Rye loaf', quantity: 2 },
    { name: 'Croissant', quantity: 1 },
  ],
  ...extra,
});

const report: SyncReport = { bots: 3, posts: 0, products: 0, orders: 2, subscribers: 0 };

function setup(pages: (input: Record<string, unknown>) => Page<OrderSummary>) {
  const transport = new FakeTransport({
    listOrders: (input) => ok(pages(input as Record<string, unknown>)),
    sync: () => ok(report),
  });
  const shell = new Shell(transport);
  return { transport, shell, orders: new OrdersState(shell) };
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('orders state', () => {
  it('filters by status from the first page and keeps the search', async () => {
    const { transport, orders } = setup(() => ({ total: 120, rows: [order('ord_1')] }));
    await orders.load();
    await orders.list.next();
    orders.list.search = 'ada';
    await orders.setStatus('refunded');
    expect(transport.callsOf('listOrders')).toEqual([
      { offset: 0, limit: 50 },
      { offset: 50, limit: 50 },
      { offset: 0, limit: 50, search: 'ada', status: 'refunded' },
    ]);
    expect(orders.narrowed).toBe(true);
  });

  it('searches once typing pauses, not on every keystroke', async () => {
    vi.useFakeTimers();
    const { transport, orders } = setup(() => ({ total: 0, rows: [] }));
    orders.list.search = 'a';
    orders.list.restartSoon();
    vi.advanceTimersByTime(100);
    orders.list.search = 'ad';
    orders.list.restartSoon();
    vi.advanceTimersByTime(249);
    expect(transport.callsOf('listOrders')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(transport.callsOf('listOrders')).toEqual([{ offset: 0, limit: 50, search: 'ad' }]);
  });

  it('refreshes through a sync and says when the platform’s orders could not be read', async () => {
    const { transport, orders } = setup(() => ({ total: 1, rows: [order('ord_1')] }));
    await orders.refresh();
    expect(transport.callsOf('sync')).toEqual([{}]);
    expect(orders.refreshError).toBeNull();
    transport.answer('sync', () => ok({ ...report, orders: { error: 'HTTP 503' } }));
    await orders.refresh();
    expect(orders.refreshError).toContain('HTTP 503');
    transport.answer('sync', () =>
      ok({ ...report, orders: { fetched: 3, notPruned: 'page 2 repeats items already read' } }),
    );
    await orders.refresh();
    expect(orders.refreshError).toBe(
      "The platform's orders could not be read to the end (page 2 repeats items already read); nothing was removed.",
    );
    transport.answer('sync', () => ({
      ok: false,
      error: { kind: 'not_connected', message: 'Connect an account in Settings first' },
    }));
    await orders.refresh();
    expect(orders.refreshError).toBe('Connect an account in Settings first');
    expect(transport.callsOf('listOrders')).toHaveLength(4);
  });

  it('formats totals exactly from minor units', () => {
    expect(formatMoney(1999, 'EUR')).toContain('19.99');
    expect(formatMoney(500, 'JPY')).toContain('500');
    expect(formatMoney(500, 'JPY')).not.toContain('500.');
    // ICU would show HUF without its fillér and round this to 1,300.
    expect(formatMoney(129_950, 'HUF')).toContain('1,299.50');
    expect(formatMoney(1_234_567_890_123_45, 'USD')).toContain('1,234,567,890,123.45');
  });
});

describe('the orders screen', () => {
  it('lists orders and opens one with its items, total and customer', async () => {
    const { shell } = setup(() => ({
      total: 2,
      rows: [order('ord_1'), order('ord_2', { customer: null, totalMinor: 500, currency: 'JPY' })],
    }));
    render(OrdersScreen, { context: shellContext(shell) });
    const table = await screen.findByRole('table', { name: 'Orders' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain('€19.99');
    expect(rows[1]?.textContent).toContain('Ada Lovelace');
    expect(screen.getByText('1–2 of 2')).toBeTruthy();

    await fireEvent.click(screen.getByRole('button', { name: 'Open order ord_1' }));
    const detail = screen.getByRole('complementary', { name: 'Order ord_1' });
    expect(within(detail).getByText('Rye loaf')).toBeTruthy();
    expect(within(detail).getByText('€19.99')).toBeTruthy();
    expect(within(detail).getByText('Ada Lovelace')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Order ord_1');

    await fireEvent.click(within(detail).getByRole('button', { name: 'Close the order' }));
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Open order ord_1');
  });

  it('filters by status and pages on the core', async () => {
    const { transport, shell } = setup((input) => ({
      total: 75,
      rows: [order(`ord_${String(input.offset)}`)],
    }));
    render(OrdersScreen, { context: shellContext(shell) });
    await screen.findByRole('table', { name: 'Orders' });
    await fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), {
      target: { value: 'shipped' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('button', { name: 'Open order ord_50' });
    expect(transport.callsOf('listOrders').slice(1)).toEqual([
      { offset: 0, limit: 50, status: 'shipped' },
      { offset: 50, limit: 50, status: 'shipped' },
    ]);
  });

  it('says how to get orders when there are none, and shows the core’s error', async () => {
    const { transport, shell } = setup(() => ({ total: 0, rows: [] }));
    render(OrdersScreen, { context: shellContext(shell) });
    const empty = await screen.findByText(/No orders yet/);
    expect(empty.textContent?.replace(/\s+/g, ' ')).toContain('choose “Refresh from the platform”');
    transport.answer('sync', () => ({
      ok: false,
      error: { kind: 'platform', message: 'The platform is not answering; try again later' },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Refresh from the platform' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The platform is not answering; try again later',
    );
  });
});
