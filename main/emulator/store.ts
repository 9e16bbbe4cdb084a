// Data access of the reference server (Node, main process): every SQL statement of the emulator
// lives here, and rows leave it already in the wire format of docs/platform-api.md.
import { createHash, randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { minorToDecimal } from '../../shared/money';
import type {
  Bot,
  Comment,
  EventType,
  ListEnvelope,
  Message,
  Order,
  OrderStatus,
  Plan,
  Post,
  Product,
  Subscriber,
  WebhookSubscription,
} from '../platform/wire';
import type { EmulatorDb } from './db';
import { formatId, formatOptionalId, iso, isoOrNull } from './ids';

export interface PageQuery {
  page: number;
  perPage: number;
}

export interface AccountRow {
  id: number;
  name: string;
  plan: Plan;
  rate_limit: number | null;
  suspended: number;
  created_at: number;
}

interface BotRow {
  id: number;
  name: string;
  description: string | null;
  channel: string;
  status: 'active' | 'paused';
  client_reference: string | null;
  created_at: number;
  updated_at: number;
  subscriber_count: number;
}

interface SubscriberRow {
  id: number;
  bot_id: number;
  name: string;
  handle: string | null;
  language: string | null;
  status: 'active' | 'unsubscribed';
  created_at: number;
  last_seen_at: number | null;
  tags: string;
}

interface PostRow {
  id: number;
  bot_id: number;
  text: string;
  media_urls: string;
  status: 'scheduled' | 'published';
  scheduled_at: number | null;
  published_at: number | null;
  client_reference: string | null;
  created_at: number;
}

interface ProductRow {
  id: number;
  sku: string;
  name: string;
  description: string | null;
  price_minor: number;
  currency: string;
  stock: number | null;
  image_url: string | null;
  client_reference: string | null;
  created_at: number;
  updated_at: number;
}

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

interface MessageRow {
  id: number;
  subscriber_id: number;
  bot_id: number;
  text: string;
  client_reference: string | null;
  created_at: number;
}

interface WebhookRow {
  id: number;
  url: string;
  events: string;
  secret: string;
  active: number;
  created_at: number;
}

export interface IdempotencyRow {
  fingerprint: string;
  status: number | null;
  body: string | null;
}

export interface BotInput {
  name: string;
  description?: string | null | undefined;
  channel: string;
  status: 'active' | 'paused';
  client_reference?: string | undefined;
}

export interface PostInput {
  botId: number;
  text: string;
  mediaUrls: string[];
  scheduledAt: number | null;
  clientReference: string | null;
}

export interface ProductInput {
  sku: string;
  name: string;
  description: string | null;
  priceMinor: number;
  currency: string;
  stock: number | null;
  imageUrl: string | null;
  clientReference: string | null;
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

export interface UsageRecord {
  accountId: number;
  date: string;
  provider: string;
  promptTokens: number;
  completionTokens: number;
  costMicroUsd: number;
}

export interface UsageRow {
  date: string;
  provider: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_micro_usd: number;
}

/** A filter clause and its parameters, joined with AND. */
type Where = [clause: string, ...params: unknown[]];

const BOT_SELECT = `b.*, (SELECT COUNT(*) FROM subscribers s WHERE s.bot_id = b.id) AS subscriber_count`;
const SUBSCRIBER_SELECT = `s.*, (SELECT json_group_array(tag) FROM (SELECT tag FROM subscriber_tags t
  WHERE t.subscriber_id = s.id ORDER BY t.rowid)) AS tags`;
const ORDER_SELECT = `o.*, (SELECT json_group_array(json_object('product_id', i.product_id, 'sku', i.sku,
  'name', i.name, 'quantity', i.quantity, 'unit_price_minor', i.unit_price_minor))
  FROM (SELECT * FROM order_items i WHERE i.order_id = o.id ORDER BY i.position) i) AS items`;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** `%` and `_` typed by a user are literal characters, not LIKE wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toBot(row: BotRow): Bot {
  return {
    id: formatId('bot', row.id),
    name: row.name,
    description: row.description,
    channel: row.channel,
    status: row.status,
    subscriber_count: row.subscriber_count,
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function toSubscriber(row: SubscriberRow): Subscriber {
  return {
    id: formatId('subscriber', row.id),
    bot_id: formatId('bot', row.bot_id),
    name: row.name,
    handle: row.handle,
    language: row.language,
    tags: JSON.parse(row.tags) as string[],
    status: row.status,
    created_at: iso(row.created_at),
    last_seen_at: isoOrNull(row.last_seen_at),
  };
}

function toPost(row: PostRow): Post {
  return {
    id: formatId('post', row.id),
    bot_id: formatId('bot', row.bot_id),
    text: row.text,
    media_urls: JSON.parse(row.media_urls) as string[],
    status: row.status,
    scheduled_at: isoOrNull(row.scheduled_at),
    published_at: isoOrNull(row.published_at),
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
  };
}

function toProduct(row: ProductRow): Product {
  return {
    id: formatId('product', row.id),
    sku: row.sku,
    name: row.name,
    description: row.description,
    price: minorToDecimal(row.price_minor, row.currency),
    currency: row.currency,
    stock: row.stock,
    image_url: row.image_url,
    status: 'active',
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

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

function toMessage(row: MessageRow): Message {
  return {
    id: formatId('message', row.id),
    subscriber_id: formatId('subscriber', row.subscriber_id),
    bot_id: formatId('bot', row.bot_id),
    text: row.text,
    status: 'sent',
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
  };
}

function toWebhook(row: WebhookRow): WebhookSubscription {
  return {
    id: formatId('webhook', row.id),
    url: row.url,
    events: JSON.parse(row.events) as EventType[],
    secret: row.secret,
    active: row.active === 1,
    created_at: iso(row.created_at),
  };
}

export class EmulatorStore {
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly db: EmulatorDb,
    private readonly now: () => number,
  ) {}

  /** Prepared once per distinct SQL text: preparing is the costly part of a query here. */
  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  private list<Row, T>(
    table: string,
    select: string,
    accountId: number,
    filters: (Where | null)[],
    page: PageQuery,
    map: (row: Row) => T,
  ): ListEnvelope<T> {
    const where: Where[] = [['account_id = ?', accountId], ...filters.filter((f) => f !== null)];
    const clause = where.map(([sql]) => sql).join(' AND ');
    const params = where.flatMap(([, ...values]) => values);
    const total = (
      this.stmt(`SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`).get(...params) as {
        n: number;
      }
    ).n;
    const rows = this.stmt(
      `SELECT ${select} FROM ${table} WHERE ${clause} ORDER BY id LIMIT ? OFFSET ?`,
    ).all(...params, page.perPage, (page.page - 1) * page.perPage) as Row[];
    const totalPages = Math.ceil(total / page.perPage);
    return {
      data: rows.map(map),
      meta: {
        page: page.page,
        per_page: page.perPage,
        total,
        total_pages: totalPages,
        next_page: page.page < totalPages ? page.page + 1 : null,
      },
    };
  }

  // Accounts and tokens

  createAccount(name: string, plan: Plan): number {
    return Number(
      this.stmt('INSERT INTO accounts (name, plan, created_at) VALUES (?, ?, ?)').run(
        name,
        plan,
        this.now(),
      ).lastInsertRowid,
    );
  }

  accounts(): AccountRow[] {
    return this.stmt('SELECT * FROM accounts ORDER BY id').all() as AccountRow[];
  }

  account(id: number): AccountRow | undefined {
    return this.stmt('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  }

  updateAccount(
    id: number,
    patch: { plan?: Plan; rateLimit?: number | null; suspended?: boolean },
  ): void {
    const current = this.account(id);
    if (!current) return;
    this.stmt('UPDATE accounts SET plan = ?, rate_limit = ?, suspended = ? WHERE id = ?').run(
      patch.plan ?? current.plan,
      patch.rateLimit === undefined ? current.rate_limit : patch.rateLimit,
      patch.suspended === undefined ? current.suspended : Number(patch.suspended),
      id,
    );
  }

  /** A new token for the account. Only its hash is stored, so it is shown once. */
  mintToken(accountId: number): string {
    const token = `pk_${randomBytes(24).toString('base64url')}`;
    this.stmt('INSERT INTO tokens (hash, account_id, created_at) VALUES (?, ?, ?)').run(
      hashToken(token),
      accountId,
      this.now(),
    );
    return token;
  }

  accountForTokenHash(hash: string): AccountRow | undefined {
    return this.stmt(
      `SELECT a.* FROM tokens t JOIN accounts a ON a.id = t.account_id
       WHERE t.hash = ? AND t.revoked_at IS NULL`,
    ).get(hash) as AccountRow | undefined;
  }

  revokeToken(token: string): boolean {
    return (
      this.stmt('UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL').run(
        this.now(),
        hashToken(token),
      ).changes > 0
    );
  }

  // Bots

  listBots(
    accountId: number,
    filter: { status?: string | undefined },
    page: PageQuery,
  ): ListEnvelope<Bot> {
    return this.list<BotRow, Bot>(
      'bots b',
      BOT_SELECT,
      accountId,
      [filter.status ? ['status = ?', filter.status] : null],
      page,
      toBot,
    );
  }

  getBot(accountId: number, id: number): Bot | undefined {
    const row = this.stmt(`SELECT ${BOT_SELECT} FROM bots b WHERE account_id = ? AND id = ?`).get(
      accountId,
      id,
    ) as BotRow | undefined;
    return row && toBot(row);
  }

  createBot(accountId: number, input: BotInput): Bot {
    const now = this.now();
    const id = this.stmt(
      `INSERT INTO bots (account_id, name, description, channel, status, client_reference, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      accountId,
      input.name,
      input.description ?? null,
      input.channel,
      input.status,
      input.client_reference ?? null,
      now,
      now,
    ).lastInsertRowid;
    return this.getBot(accountId, Number(id)) as Bot;
  }

  updateBot(
    accountId: number,
    id: number,
    patch: {
      name?: string | undefined;
      description?: string | null | undefined;
      status?: string | undefined;
    },
  ): Bot | undefined {
    const current = this.getBot(accountId, id);
    if (!current) return undefined;
    this.stmt(
      'UPDATE bots SET name = ?, description = ?, status = ?, updated_at = ? WHERE id = ?',
    ).run(
      patch.name ?? current.name,
      patch.description === undefined ? current.description : patch.description,
      patch.status ?? current.status,
      this.now(),
      id,
    );
    return this.getBot(accountId, id);
  }

  deleteBot(accountId: number, id: number): boolean {
    return (
      this.stmt('DELETE FROM bots WHERE account_id = ? AND id = ?').run(accountId, id).changes > 0
    );
  }

  botRowIds(accountId: number): number[] {
    return (
      this.stmt('SELECT id FROM bots WHERE account_id = ? ORDER BY id').all(accountId) as {
        id: number;
      }[]
    ).map((row) => row.id);
  }

  // Subscribers, messages, tags

  listSubscribers(
    accountId: number,
    filter: {
      botId?: number | undefined;
      tag?: string | undefined;
      status?: string | undefined;
      q?: string | undefined;
    },
    page: PageQuery,
  ): ListEnvelope<Subscriber> {
    return this.list<SubscriberRow, Subscriber>(
      'subscribers s',
      SUBSCRIBER_SELECT,
      accountId,
      [
        filter.botId === undefined ? null : ['bot_id = ?', filter.botId],
        filter.status ? ['status = ?', filter.status] : null,
        filter.tag
          ? [
              'EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id AND t.tag_key = ?)',
              filter.tag.trim().toLowerCase(),
            ]
          : null,
        filter.q
          ? [
              "(name LIKE ? ESCAPE '\\' OR handle LIKE ? ESCAPE '\\')",
              likePattern(filter.q),
              likePattern(filter.q),
            ]
          : null,
      ],
      page,
      toSubscriber,
    );
  }

  getSubscriber(accountId: number, id: number): Subscriber | undefined {
    const row = this.stmt(
      `SELECT ${SUBSCRIBER_SELECT} FROM subscribers s WHERE account_id = ? AND id = ?`,
    ).get(accountId, id) as SubscriberRow | undefined;
    return row && toSubscriber(row);
  }

  createSubscriber(
    accountId: number,
    input: {
      botId: number;
      name: string;
      handle: string | null;
      language: string | null;
      status: string;
      createdAt: number;
    },
  ): number {
    return Number(
      this.stmt(
        `INSERT INTO subscribers (account_id, bot_id, name, handle, language, status, created_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        accountId,
        input.botId,
        input.name,
        input.handle,
        input.language,
        input.status,
        input.createdAt,
        input.createdAt,
      ).lastInsertRowid,
    );
  }

  /** True when the tag was added, false when the subscriber had it already (in any letter case). */
  addTag(subscriberId: number, tag: string): boolean {
    return (
      this.stmt(
        'INSERT OR IGNORE INTO subscriber_tags (subscriber_id, tag, tag_key) VALUES (?, ?, ?)',
      ).run(subscriberId, tag, tag.toLowerCase()).changes > 0
    );
  }

  addMessage(
    accountId: number,
    input: {
      subscriberId: number;
      botId: number;
      direction: 'in' | 'out';
      text: string;
      clientReference: string | null;
      createdAt?: number;
    },
  ): Message {
    const createdAt = input.createdAt ?? this.now();
    const id = Number(
      this.stmt(
        `INSERT INTO messages (account_id, subscriber_id, bot_id, direction, text, client_reference, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        accountId,
        input.subscriberId,
        input.botId,
        input.direction,
        input.text,
        input.clientReference,
        createdAt,
      ).lastInsertRowid,
    );
    if (input.direction === 'in') {
      this.stmt('UPDATE subscribers SET last_seen_at = ? WHERE id = ?').run(
        createdAt,
        input.subscriberId,
      );
    }
    return toMessage({
      id,
      subscriber_id: input.subscriberId,
      bot_id: input.botId,
      text: input.text,
      client_reference: input.clientReference,
      created_at: createdAt,
    });
  }

  subscriberRowIds(accountId: number, status = 'active'): number[] {
    return (
      this.stmt('SELECT id FROM subscribers WHERE account_id = ? AND status = ? ORDER BY id').all(
        accountId,
        status,
      ) as {
        id: number;
      }[]
    ).map((row) => row.id);
  }

  // Posts

  /** The platform publishes scheduled posts when due; doing it before every read is equivalent. */
  publishDuePosts(accountId: number): number {
    const now = this.now();
    // A read first: most reads find nothing due, and a write transaction per GET would cost more.
    const due = this.stmt(
      "SELECT 1 FROM posts WHERE status = 'scheduled' AND scheduled_at <= ? AND account_id = ? LIMIT 1",
    ).get(now, accountId);
    if (!due) return 0;
    return this.stmt(
      `UPDATE posts SET status = 'published', published_at = scheduled_at
       WHERE account_id = ? AND status = 'scheduled' AND scheduled_at <= ?`,
    ).run(accountId, now).changes;
  }

  listPosts(
    accountId: number,
    filter: {
      botId?: number | undefined;
      status?: string | undefined;
      clientReference?: string | undefined;
      from?: number | undefined;
      to?: number | undefined;
    },
    page: PageQuery,
  ): ListEnvelope<Post> {
    this.publishDuePosts(accountId);
    return this.list<PostRow, Post>(
      'posts',
      '*',
      accountId,
      [
        filter.botId === undefined ? null : ['bot_id = ?', filter.botId],
        filter.status ? ['status = ?', filter.status] : null,
        filter.clientReference ? ['client_reference = ?', filter.clientReference] : null,
        filter.from === undefined
          ? null
          : ['COALESCE(scheduled_at, published_at) >= ?', filter.from],
        filter.to === undefined ? null : ['COALESCE(scheduled_at, published_at) <= ?', filter.to],
      ],
      page,
      toPost,
    );
  }

  createPost(accountId: number, input: PostInput, createdAt = this.now()): Post {
    const due = input.scheduledAt !== null && input.scheduledAt > createdAt;
    const row: Omit<PostRow, 'id'> = {
      bot_id: input.botId,
      text: input.text,
      media_urls: JSON.stringify(input.mediaUrls),
      status: due ? 'scheduled' : 'published',
      scheduled_at: due ? input.scheduledAt : null,
      published_at: due ? null : createdAt,
      client_reference: input.clientReference,
      created_at: createdAt,
    };
    const id = Number(
      this.stmt(
        `INSERT INTO posts (account_id, bot_id, text, media_urls, status, scheduled_at, published_at, client_reference, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        accountId,
        row.bot_id,
        row.text,
        row.media_urls,
        row.status,
        row.scheduled_at,
        row.published_at,
        row.client_reference,
        row.created_at,
      ).lastInsertRowid,
    );
    return toPost({ id, ...row });
  }

  publishedPostRowIds(accountId: number): { id: number; bot_id: number }[] {
    this.publishDuePosts(accountId);
    return this.stmt(
      "SELECT id, bot_id FROM posts WHERE account_id = ? AND status = 'published' ORDER BY id DESC LIMIT 50",
    ).all(accountId) as { id: number; bot_id: number }[];
  }

  // Products

  listProducts(
    accountId: number,
    filter: {
      sku?: string | undefined;
      clientReference?: string | undefined;
      q?: string | undefined;
    },
    page: PageQuery,
  ): ListEnvelope<Product> {
    return this.list<ProductRow, Product>(
      'products',
      '*',
      accountId,
      [
        filter.sku ? ['sku = ?', filter.sku] : null,
        filter.clientReference ? ['client_reference = ?', filter.clientReference] : null,
        filter.q
          ? [
              "(name LIKE ? ESCAPE '\\' OR sku LIKE ? ESCAPE '\\')",
              likePattern(filter.q),
              likePattern(filter.q),
            ]
          : null,
      ],
      page,
      toProduct,
    );
  }

  productIdBySku(accountId: number, sku: string): number | undefined {
    const row = this.stmt('SELECT id FROM products WHERE account_id = ? AND sku = ?').get(
      accountId,
      sku,
    ) as { id: number } | undefined;
    return row?.id;
  }

  createProduct(accountId: number, input: ProductInput): Product {
    const now = this.now();
    const row: Omit<ProductRow, 'id'> = {
      sku: input.sku,
      name: input.name,
      description: input.description,
      price_minor: input.priceMinor,
      currency: input.currency,
      stock: input.stock,
      image_url: input.imageUrl,
      client_reference: input.clientReference,
      created_at: now,
      updated_at: now,
    };
    const id = Number(
      this.stmt(
        `INSERT INTO products (account_id, sku, name, description, price_minor, currency, stock, image_url,
           client_reference, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        accountId,
        row.sku,
        row.name,
        row.description,
        row.price_minor,
        row.currency,
        row.stock,
        row.image_url,
        row.client_reference,
        row.created_at,
        row.updated_at,
      ).lastInsertRowid,
    );
    return toProduct({ id, ...row });
  }

  productsForOrders(
    accountId: number,
  ): { id: number; sku: string; name: string; price_minor: number; currency: string }[] {
    return this.stmt(
      'SELECT id, sku, name, price_minor, currency FROM products WHERE account_id = ? ORDER BY id LIMIT 200',
    ).all(accountId) as {
      id: number;
      sku: string;
      name: string;
      price_minor: number;
      currency: string;
    }[];
  }

  // Orders

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
    return this.list<OrderRow, Order>(
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
    const count = (
      this.stmt('SELECT COUNT(*) AS n FROM orders WHERE account_id = ?').get(accountId) as {
        n: number;
      }
    ).n;
    const total = input.items.reduce((sum, item) => sum + item.quantity * item.unitPriceMinor, 0);
    const id = Number(
      this.stmt(
        `INSERT INTO orders (account_id, number, bot_id, subscriber_id, status, currency, total_minor, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        accountId,
        String(1001 + count),
        input.botId,
        input.subscriberId,
        input.status,
        input.currency,
        total,
        input.createdAt,
      ).lastInsertRowid,
    );
    const insertItem = this.stmt(
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
    const row = this.stmt(`SELECT ${ORDER_SELECT} FROM orders o WHERE id = ?`).get(id) as OrderRow;
    return toOrder(row);
  }

  // Comments

  createComment(
    accountId: number,
    input: { postId: number | null; botId: number; authorName: string; text: string },
  ): Comment {
    const createdAt = this.now();
    const id = Number(
      this.stmt(
        'INSERT INTO comments (account_id, post_id, bot_id, author_name, text, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(accountId, input.postId, input.botId, input.authorName, input.text, createdAt)
        .lastInsertRowid,
    );
    return {
      id: formatId('comment', id),
      post_id: formatOptionalId('post', input.postId),
      bot_id: formatId('bot', input.botId),
      author_name: input.authorName,
      text: input.text,
      created_at: iso(createdAt),
    };
  }

  // AI usage

  recordUsage(record: UsageRecord): void {
    this.stmt(
      `INSERT INTO ai_usage (account_id, date, provider, requests, prompt_tokens, completion_tokens, cost_micro_usd)
       VALUES (?, ?, ?, 1, ?, ?, ?)
       ON CONFLICT (account_id, date, provider) DO UPDATE SET
         requests = requests + 1,
         prompt_tokens = prompt_tokens + excluded.prompt_tokens,
         completion_tokens = completion_tokens + excluded.completion_tokens,
         cost_micro_usd = cost_micro_usd + excluded.cost_micro_usd`,
    ).run(
      record.accountId,
      record.date,
      record.provider,
      record.promptTokens,
      record.completionTokens,
      record.costMicroUsd,
    );
  }

  usage(accountId: number, from: string, to: string): UsageRow[] {
    return this.stmt(
      `SELECT date, provider, requests, prompt_tokens, completion_tokens, cost_micro_usd FROM ai_usage
       WHERE account_id = ? AND date BETWEEN ? AND ? ORDER BY date, provider`,
    ).all(accountId, from, to) as UsageRow[];
  }

  // Webhooks and events

  createWebhook(
    accountId: number,
    input: { url: string; events: EventType[]; secret: string },
  ): WebhookSubscription {
    const createdAt = this.now();
    const id = Number(
      this.stmt(
        'INSERT INTO webhooks (account_id, url, events, secret, active, created_at) VALUES (?, ?, ?, ?, 1, ?)',
      ).run(accountId, input.url, JSON.stringify(input.events), input.secret, createdAt)
        .lastInsertRowid,
    );
    return toWebhook({
      id,
      url: input.url,
      events: JSON.stringify(input.events),
      secret: input.secret,
      active: 1,
      created_at: createdAt,
    });
  }

  activeWebhooks(accountId: number, type: EventType): WebhookSubscription[] {
    return (
      this.stmt('SELECT * FROM webhooks WHERE account_id = ? AND active = 1 ORDER BY id').all(
        accountId,
      ) as WebhookRow[]
    )
      .map(toWebhook)
      .filter((webhook) => webhook.events.includes(type));
  }

  deactivateWebhook(id: number): void {
    this.stmt('UPDATE webhooks SET active = 0 WHERE id = ?').run(id);
  }

  createEvent(accountId: number, type: EventType): { id: string; createdAt: number } {
    const createdAt = this.now();
    const id = this.stmt('INSERT INTO events (account_id, type, created_at) VALUES (?, ?, ?)').run(
      accountId,
      type,
      createdAt,
    ).lastInsertRowid;
    return { id: formatId('event', id), createdAt };
  }

  // Idempotency keys

  idempotency(accountId: number, key: string): IdempotencyRow | undefined {
    return this.stmt(
      'SELECT fingerprint, status, body FROM idempotency WHERE account_id = ? AND key = ?',
    ).get(accountId, key) as IdempotencyRow | undefined;
  }

  beginIdempotency(accountId: number, key: string, fingerprint: string): void {
    this.stmt(
      'INSERT INTO idempotency (account_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)',
    ).run(accountId, key, fingerprint, this.now());
  }

  finishIdempotency(accountId: number, key: string, status: number, body: string): void {
    this.stmt('UPDATE idempotency SET status = ?, body = ? WHERE account_id = ? AND key = ?').run(
      status,
      body,
      accountId,
      key,
    );
  }

  forgetIdempotency(accountId: number, key: string): void {
    this.stmt('DELETE FROM idempotency WHERE account_id = ? AND key = ?').run(accountId, key);
  }

  purgeIdempotency(olderThan: number): void {
    this.stmt('DELETE FROM idempotency WHERE created_at < ?').run(olderThan);
  }

  counts(
    accountId: number,
  ): Record<'bots' | 'subscribers' | 'posts' | 'products' | 'orders' | 'webhooks', number> {
    const count = (table: string) =>
      (
        this.stmt(`SELECT COUNT(*) AS n FROM ${table} WHERE account_id = ?`).get(accountId) as {
          n: number;
        }
      ).n;
    return {
      bots: count('bots'),
      subscribers: count('subscribers'),
      posts: count('posts'),
      products: count('products'),
      orders: count('orders'),
      webhooks: count('webhooks'),
    };
  }
}
