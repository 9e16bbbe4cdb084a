// The workspace store (Node, main process): one object holding every table family's module over
// one database. Nothing outside main/store/ writes SQL.
import { CacheStore } from './cache';
import { CatalogStore } from './catalog';
import { WalCheckpoints } from './checkpoints';
import { durableLater, openWorkspaceDb } from './db';
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
import { loopTurn } from '../../shared/slices';

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
    /** The log's checkpoints off the main thread; none for a database in memory. */
    private readonly checkpoints: WalCheckpoints | null = null,
  ) {
    this.lease = new LeaseStore(db, now, monotonic);
    this.posts = new PostsStore(db, now);
    this.products = new ProductsStore(db, now);
    this.outbox = new OutboxStore(db, now, this.lease);
    this.settings = new SettingsStore(db);
    this.cache = new CacheStore(db, now, () => this.room());
    this.imports = new ImportsStore(db, now);
    this.catalog = new CatalogStore(db, now);
    this.webhooks = new WebhooksStore(db, now);
    this.schedules = new SchedulesStore(db, now);
    this.media = new MediaStore(db, now);
  }

  static open(file?: string, now?: () => number, monotonic?: () => number): WorkspaceStore {
    const db = openWorkspaceDb(file);
    return new WorkspaceStore(db, now, monotonic, file ? WalCheckpoints.start(db, file) : null);
  }

  /**
   * What a long job (an import, a sync) awaits between its transactions: a turn of the event
   * loop, and, when the write-ahead log has grown long, the checkpoint that lets it start over.
   */
  room(): Promise<void> {
    return this.checkpoints?.room() ?? loopTurn(setImmediate);
  }

  /**
   * Takes the write lock at the start: a deferred transaction that read first fails at once with
   * "database is locked" when another process (the app beside `publish --watch`) wrote meanwhile,
   * while one begun immediately waits its turn (busy_timeout).
   */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  /** A transaction whose commit does not wait for the disk: see durableLater in ./db.ts. */
  transactionDurableLater<T>(work: () => T): T {
    return durableLater(this.db, () => this.transaction(work));
  }

  close(): void {
    this.checkpoints?.close();
    this.db.close();
  }
}
