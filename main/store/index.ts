// The workspace store (Node, main process): one object holding every table family's module over
// one database. Nothing outside main/store/ writes SQL.
import { CacheStore } from './cache';
import { CatalogStore } from './catalog';
import { openWorkspaceDb } from './db';
import { ImportsStore } from './imports';
import { LeaseStore } from './lease';
import { MediaStore } from './media';
import type { WorkspaceDb } from './db';
import { OutboxStore } from './outbox';
import { PostsStore } from './posts';
import { ProductsStore } from './products';
import { SchedulesStore } from './schedules';
import { SettingsStore } from './settings';
import { WebhooksStore } from './webhooks';

export class WorkspaceStore {
  readonly posts: PostsStore;
  readonly products: ProductsStore;
  readonly outbox: OutboxStore;
  readonly settings: SettingsStore;
  readonly cache: CacheStore;
  readonly imports: ImportsStore;
  readonly catalog: CatalogStore;
  readonly webhooks: WebhooksStore;
  readonly schedules: SchedulesStore;
  readonly lease: LeaseStore;
  readonly media: MediaStore;

  constructor(
    readonly db: WorkspaceDb,
    now: () => number = Date.now,
    /** This process's elapsed time, by which the lease judges another holder's silence. */
    monotonic?: () => number,
  ) {
    this.lease = new LeaseStore(db, now, monotonic);
    this.posts = new PostsStore(db, now);
    this.products = new ProductsStore(db, now);
    this.outbox = new OutboxStore(db, now, this.lease);
    this.settings = new SettingsStore(db);
    this.cache = new CacheStore(db, now);
    this.imports = new ImportsStore(db, now);
    this.catalog = new CatalogStore(db, now);
    this.webhooks = new WebhooksStore(db, now);
    this.schedules = new SchedulesStore(db, now);
    this.media = new MediaStore(db, now);
  }

  static open(file?: string, now?: () => number, monotonic?: () => number): WorkspaceStore {
    return new WorkspaceStore(openWorkspaceDb(file), now, monotonic);
  }

  /**
   * Takes the write lock at the start: a deferred transaction that read first fails at once with
   * "database is locked" when another process (the app beside `publish --watch`) wrote meanwhile,
   * while one begun immediately waits its turn (busy_timeout).
   */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  /**
   * A transaction whose commit does not wait for the disk (synchronous = NORMAL for it alone),
   * for a long job's many short writes (an import's): the write-ahead log is appended in order,
   * so the next commit that waits for the disk (the job's last, or any other) makes this one
   * durable too. A crash before then loses only writes the job itself takes back at the next
   * start (an unfinished import batch).
   */
  transactionDurableLater<T>(work: () => T): T {
    const synchronous = this.db.pragma('synchronous', { simple: true }) as number;
    this.db.pragma('synchronous = NORMAL');
    try {
      return this.transaction(work);
    } finally {
      this.db.pragma(`synchronous = ${synchronous}`);
    }
  }

  close(): void {
    this.db.close();
  }
}
