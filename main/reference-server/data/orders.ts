// Orders of the reference server (Node, main process) and their line items.
import { minorToDecimal } from '../../../shared/money';
import type { ListEnvelope, Order, OrderStatus } from '../../platform/wire';
import { formatId, formatOptionalId, iso } from '../ids';
import type { PageQuery, Sql } from './sql';

interface OrderRow {
  id: number;
  number: string;
  bot_id: number | null;
  subscriber_id: number | null;
  status: OrderStatus;
  currency: string;
  total_minor: number;
  created_at: number;
  items: string;
}

export interface OrderInput {
  botId: number | null;
  subscriberId: number | null;
  status: OrderStatus;
  currency: string;
  createdAt: number;
  items: {
    productId: number | null;
    sku: string;
    name: string;
    quantity: number;
    unitPriceMinor: number;
  }[];
}

const ORDER_SELECT = `o.*, (SELECT json_group_array(json_object('product_id', i.product_id, 'sku', i.sku,
  'name', i.name, 'quantity', i.quantity, 'unit_price_minor', i.unit_price_minor))
  FROM (SELECT * FROM order_items i WHERE i.order_id = o.id ORDER BY i.position) i) AS items`;

function toOrder(row: OrderRow): Order {
  const items = JSON.parse(row.items) as {
    product_id: number | null;
    sku: string;
    name: string;
    quantity: number;
    unit_price_minor: number;
  }[];
  return {
    id: formatId('order', row.id),
    number: row.number,
    bot_id: formatOptionalId('bot', row.bot_id),
    subscriber_id: formatOptionalId('subscriber', row.subscriber_id),
    status: row.status,
    currency: row.currency,
    total: minorToDecimal(row.total_minor, row.currency),
    items: items.map((item) => ({
      product_id: formatOptionalId('product', item.product_id),
      sku: item.sku,
      name: item.name,
      quantity: item.quantity,
      unit_price: minorToDecimal(item.unit_price_minor, row.currency),
    })),
    created_at: iso(row.created_at),
  };
}

export class OrderStore {
  constructor(private readonly sql: Sql) {}

  listOrders(
    accountId: number,
    filter: {
      status?: string | undefined;
      botId?: number | undefined;
      since?: number | undefined;
      until?: number | undefined;
    },
    page: PageQuery,
  ): ListEnvelope<Order> {
    return this.sql.list<OrderRow, Order>(
      'orders o',
      ORDER_SELECT,
      accountId,
      [
        filter.status ? ['status = ?', filter.status] : null,
        filter.botId === undefined ? null : ['bot_id = ?', filter.botId],
        filter.since === undefined ? null : ['created_at >= ?', filter.since],
        filter.until === undefined ? null : ['created_at <= ?', filter.until],
      ],
      page,
      toOrder,
    );
  }

  createOrder(accountId: number, input: OrderInput): Order {
    // One past the newest order's number, found by the (account_id, id) index: counting the
    // account's orders took a scan each (seeding 100,000 took minutes), and after a deletion gave
    // a number another order has.
    const newest = this.sql
      .stmt('SELECT number FROM orders WHERE account_id = ? ORDER BY id DESC LIMIT 1')
      .get(accountId) as { number: string } | undefined;
    const number = newest === undefined ? 1001 : Number(newest.number) + 1;
    const total = input.items.reduce((sum, item) => sum + item.quantity * item.unitPriceMinor, 0);
    const id = Number(
      this.sql
        .stmt(
          `INSERT INTO orders (account_id, number, bot_id, subscriber_id, status, currency, total_minor, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          accountId,
          String(number),
          input.botId,
          input.subscriberId,
          input.status,
          input.currency,
          total,
          input.createdAt,
        ).lastInsertRowid,
    );
    const insertItem = this.sql.stmt(
      `INSERT INTO order_items (order_id, position, product_id, sku, name, quantity, unit_price_minor)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    input.items.forEach((item, position) =>
      insertItem.run(
        id,
        position,
        item.productId,
        item.sku,
        item.name,
        item.quantity,
        item.unitPriceMinor,
      ),
    );
    const row = this.sql
      .stmt(`SELECT ${ORDER_SELECT} FROM orders o WHERE id = ?`)
      .get(id) as OrderRow;
    return toOrder(row);
  }

  /** Gone as if the shop removed it (the admin API's way to change a list while it is read). */
  deleteOrder(accountId: number, id: number): boolean {
    return (
      this.sql.stmt('DELETE FROM orders WHERE account_id = ? AND id = ?').run(accountId, id)
        .changes > 0
    );
  }
}
