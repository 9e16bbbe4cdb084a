// Data access of the reference server (Node, main process): one store per resource over one
// database, each in data/. Every SQL statement of the reference server lives there, and rows leave it
// already in the wire format of docs/platform-api.md.
import type { ReferenceServerDb } from './db';
import { AccountStore } from './data/accounts';
import { AiUsageStore } from './data/ai-usage';
import { BotStore } from './data/bots';
import { IdempotencyStore } from './data/idempotency';
import { OrderStore } from './data/orders';
import { PostStore } from './data/posts';
import { ProductStore } from './data/products';
import { Sql } from './data/sql';
import { SubscriberStore } from './data/subscribers';
import { WebhookStore } from './data/webhooks';

export class ReferenceServerStore {
  readonly accounts: AccountStore;
  readonly bots: BotStore;
  readonly subscribers: SubscriberStore;
  readonly posts: PostStore;
  readonly products: ProductStore;
  readonly orders: OrderStore;
  readonly aiUsage: AiUsageStore;
  readonly webhooks: WebhookStore;
  readonly idempotency: IdempotencyStore;

  constructor(
    private readonly db: ReferenceServerDb,
    now: () => number,
  ) {
    const sql = new Sql(db);
    this.accounts = new AccountStore(sql, now);
    this.bots = new BotStore(sql, now);
    this.subscribers = new SubscriberStore(sql, now);
    this.posts = new PostStore(sql, now);
    this.products = new ProductStore(sql, now);
    this.orders = new OrderStore(sql);
    this.aiUsage = new AiUsageStore(sql);
    this.webhooks = new WebhookStore(sql, now);
    this.idempotency = new IdempotencyStore(sql, now);
  }

  /** Runs `work` as one SQLite transaction, across any of the resource stores. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }
}
