// The core facade (Node, main process): the single object the Electron IPC layer, the web host
// and the CLI call. It validates every input against the contract in shared/, and owns the store,
// the platform client, the rate-limit governor, the publisher and the scheduler of one workspace.
import { z } from 'zod';
import { operations } from '../../shared/contract';
import type { OperationInput, Operations } from '../../shared/contract';
import type { LocalPost, OutboxItem } from '../../shared/domain';
import { PRIORITY } from '../../shared/domain';
import { isCurrency } from '../../shared/money';
import { systemTimeZone, toInstant } from '../../shared/time';
import { exportCsv } from '../csv/export';
import { importCsv } from '../csv/import';
import type { ImportProgress, ImportResult } from '../csv/import';
import { describeIssues } from '../../shared/validation';
import { randomUUID } from 'node:crypto';
import { createPlatformClient, paginate } from '../platform/client';
import type { PlatformClient } from '../platform/client';
import type { Plan } from '../platform/wire';
import { PLANS } from '../platform/wire';
import { RateGovernor } from '../queue/governor';
import type { GovernorState } from '../queue/governor';
import { Publisher } from '../queue/publisher';
import type { RetryRules } from '../queue/retry';
import type { DrainReport, PublisherEvent } from '../queue/publisher';
import { Scheduler } from '../queue/scheduler';
import { WorkspaceStore } from '../store';
import { PullSync } from '../sync/pull';
import type { SyncProgress, SyncReport } from '../sync/pull';
import { InvalidInput, NotAllowed, NotConnected } from './errors';

const graceMinutes = z
  .number()
  .int()
  .min(0)
  .max(24 * 60);
const defaultBot = z.string().min(1).nullable();
const currencyCode = z.string().refine(isCurrency);

export interface PressroomConfig {
  dbFile: string;
  apiBase?: string | undefined;
  token?: string | undefined;
  plan?: Plan;
  windowMs?: number;
  graceMs?: number;
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  onEvent?: (event: PublisherEvent) => void;
  retryRules?: RetryRules;
}

export interface Status {
  outbox: Record<OutboxItem['state'], number>;
  posts: Record<LocalPost['status'], number>;
  products: ReturnType<WorkspaceStore['products']['counts']>;
  rateLimit: GovernorState;
  paused: string | null;
  requests: number;
  rateLimited: number;
}

export class Pressroom {
  readonly store: WorkspaceStore;
  readonly governor: RateGovernor;
  private readonly client: PlatformClient | null;
  private readonly publisher: Publisher | null;
  private readonly scheduler: Scheduler | null;
  private readonly puller: PullSync | null;
  private readonly now: () => number;
  readonly stats = { requests: 0, rateLimited: 0 };
  private readonly listeners = new Set<(event: PublisherEvent) => void>();

  constructor(private readonly config: PressroomConfig) {
    this.now = config.now ?? Date.now;
    this.store = WorkspaceStore.open(config.dbFile, this.now);
    this.store.outbox.recoverInterrupted();
    const plan = config.plan ?? 'free';
    this.governor = new RateGovernor({
      limit: PLANS[plan],
      windowMs: config.windowMs ?? 60_000,
      now: this.now,
    });
    this.client =
      config.apiBase && config.token
        ? createPlatformClient({
            baseUrl: config.apiBase,
            token: config.token,
            now: this.now,
            ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
            ...(config.fetch ? { fetch: config.fetch } : {}),
            onResponse: (info) => {
              this.stats.requests++;
              if (info.status === 429) this.stats.rateLimited++;
              this.governor.observe(info.status, info.rateLimit);
            },
          })
        : null;
    this.publisher = this.client
      ? new Publisher({
          store: this.store,
          client: this.client,
          governor: this.governor,
          now: this.now,
          graceMs:
            config.graceMs ?? this.store.settings.get('grace_minutes', graceMinutes, 30) * 60_000,
          onEvent: (event) => {
            config.onEvent?.(event);
            for (const listener of this.listeners) listener(event);
          },
          ...(config.retryRules ? { rules: config.retryRules } : {}),
        })
      : null;
    this.puller = this.client ? new PullSync(this.store, this.client, this.governor) : null;
    this.scheduler = this.publisher
      ? new Scheduler({ publisher: this.publisher, store: this.store, now: this.now })
      : null;
  }

  private validate<K extends keyof Operations>(
    operation: K,
    input: unknown,
  ): z.output<Operations[K]> {
    const result = operations[operation].safeParse(input);
    if (!result.success) throw new InvalidInput(describeIssues(result.error.issues));
    return result.data as z.output<Operations[K]>;
  }

  addPost(input: OperationInput<'addPost'>): LocalPost {
    const request = this.validate('addPost', input);
    const zone = request.zone ?? systemTimeZone();
    let scheduledAt: number | null = null;
    if (request.at !== undefined) {
      const instant = toInstant(request.at, zone);
      if (!instant.ok) throw new InvalidInput([{ field: 'at', message: instant.reason }]);
      scheduledAt = instant.ms;
    }
    const needsTime = request.mode === 'schedule' || request.mode === 'hand_off';
    if (needsTime && scheduledAt === null) {
      throw new InvalidInput([
        {
          field: 'at',
          message: `is required to ${request.mode === 'hand_off' ? 'hand off' : 'schedule'} a post`,
        },
      ]);
    }
    if (needsTime && scheduledAt !== null && scheduledAt <= this.now()) {
      throw new InvalidInput([
        { field: 'at', message: 'is in the past; publish now instead, or pick a later time' },
      ]);
    }
    return this.store.transaction(() => {
      const post = this.store.posts.create({
        botId: request.botId ?? this.store.settings.get('default_bot_id', defaultBot, null),
        text: request.text,
        mediaUrls: request.mediaUrls,
        scheduledAt,
        zone,
      });
      if (request.mode !== 'draft') this.enqueuePost(post, request.mode);
      return this.store.posts.require(post.id);
    });
  }

  private enqueuePost(post: LocalPost, mode: 'schedule' | 'publish_now' | 'hand_off'): void {
    const now = this.now();
    this.store.outbox.enqueue({
      kind: 'create_post',
      postId: post.id,
      priority:
        mode === 'publish_now'
          ? PRIORITY.user
          : mode === 'hand_off'
            ? PRIORITY.handOff
            : PRIORITY.due,
      dueAt: mode === 'schedule' ? (post.scheduledAt ?? now) : now,
      payload: mode === 'hand_off' ? { handOff: true } : {},
    });
    void this.scheduler?.wake();
  }

  /** Why a post cannot be changed any more, or null while it can. */
  private lockedReason(post: LocalPost): string | null {
    if (post.origin === 'remote') return 'It was made on the platform; API v1 cannot change it';
    if (post.status === 'published')
      return 'It is published; API v1 has no way to change a published post';
    if (post.status === 'handed_off')
      return 'It was handed off: the platform publishes it, and API v1 cannot change it';
    if (post.status === 'sending') return 'It is being sent right now';
    return null;
  }

  private editablePost(id: number): LocalPost {
    const post = this.store.posts.get(id);
    if (!post) throw new InvalidInput([{ field: 'id', message: `no post ${id}` }]);
    const locked = this.lockedReason(post);
    if (locked) throw new NotAllowed(`Post ${id} cannot be changed. ${locked}.`);
    return post;
  }

  /** Edits a post that has not gone out; a scheduled one keeps its place, at its new time. */
  updatePost(input: OperationInput<'updatePost'>): LocalPost {
    const request = this.validate('updatePost', input);
    return this.store.transaction(() => {
      const post = this.editablePost(request.id);
      const zone = request.zone ?? post.zone ?? systemTimeZone();
      let scheduledAt = post.scheduledAt;
      if (request.at === null) scheduledAt = null;
      else if (request.at !== undefined) {
        const instant = toInstant(request.at, zone);
        if (!instant.ok) throw new InvalidInput([{ field: 'at', message: instant.reason }]);
        scheduledAt = instant.ms;
      }
      const open = this.store.outbox.openFor({ postId: post.id });
      if (open && open.priority === PRIORITY.due) {
        if (scheduledAt === null)
          throw new InvalidInput([
            { field: 'at', message: 'a scheduled post needs a time; unschedule it first' },
          ]);
        if (scheduledAt !== post.scheduledAt) this.store.outbox.reschedule(open.id, scheduledAt);
      }
      const updated = this.store.posts.update(post.id, {
        ...(request.text !== undefined ? { text: request.text } : {}),
        ...(request.botId !== undefined ? { botId: request.botId } : {}),
        ...(request.mediaUrls !== undefined ? { mediaUrls: request.mediaUrls } : {}),
        scheduledAt,
        zone,
      });
      void this.scheduler?.wake();
      return updated;
    });
  }

  /** Schedules, publishes now or hands off a draft, or a post that failed or was missed. */
  queuePost(input: OperationInput<'queuePost'>): LocalPost {
    const { id, mode } = this.validate('queuePost', input);
    return this.store.transaction(() => {
      const post = this.editablePost(id);
      const open = this.store.outbox.openFor({ postId: id });
      if (open) throw new NotAllowed(`Post ${id} is queued already (queue item ${open.id})`);
      if (mode !== 'publish_now' && (post.scheduledAt === null || post.scheduledAt <= this.now())) {
        throw new InvalidInput([
          { field: 'at', message: 'pick a time in the future first, or publish now' },
        ]);
      }
      // A failed or missed attempt is superseded, so it can never be retried into a second copy.
      const latest = this.store.outbox.latestForPost(id);
      if (latest?.state === 'failed') this.store.outbox.cancel(latest.id);
      this.enqueuePost(post, mode);
      return this.store.posts.require(id);
    });
  }

  listPosts(input: OperationInput<'listPosts'> = {}): LocalPost[] {
    const filter = this.validate('listPosts', input);
    return this.store.posts.list({
      ...(filter.from !== undefined ? { from: filter.from } : {}),
      ...(filter.to !== undefined ? { to: filter.to } : {}),
      ...(filter.status ? { status: filter.status } : {}),
    });
  }

  /** Queues a message to one subscriber; it goes ahead of routine work. */
  sendMessage(input: OperationInput<'sendMessage'>): OutboxItem {
    const { subscriberId, text } = this.validate('sendMessage', input);
    return this.enqueueUserWrite('send_message', { subscriber_id: subscriberId, text });
  }

  addTag(input: OperationInput<'addTag'>): OutboxItem {
    const { subscriberId, tag } = this.validate('addTag', input);
    return this.enqueueUserWrite('add_tag', { subscriber_id: subscriberId, tag });
  }

  /** Bot changes the user makes go through the outbox like every other write. */
  createBot(input: OperationInput<'createBot'>): OutboxItem {
    const bot = this.validate('createBot', input);
    return this.enqueueUserWrite('create_bot', {
      name: bot.name,
      channel: bot.channel,
      ...(bot.description ? { description: bot.description } : {}),
    });
  }

  renameBot(input: OperationInput<'renameBot'>): OutboxItem {
    const { botId, name } = this.validate('renameBot', input);
    return this.enqueueUserWrite('update_bot', { id: botId, name });
  }

  deleteBot(input: OperationInput<'deleteBot'>): OutboxItem {
    const { botId } = this.validate('deleteBot', input);
    return this.enqueueUserWrite('delete_bot', { id: botId });
  }

  /** Queues draft (or failed) products for publishing now; published ones are refused by name. */
  queueProducts(input: OperationInput<'queueProducts'>): OutboxItem[] {
    const { ids } = this.validate('queueProducts', input);
    return this.store.transaction(() => {
      const items = ids.map((id) => {
        const product = this.store.products.get(id);
        if (!product) throw new InvalidInput([{ field: 'ids', message: `no product ${id}` }]);
        if (product.origin === 'remote' || !['draft', 'failed'].includes(product.status)) {
          throw new NotAllowed(
            `Product ${product.sku} is ${product.origin === 'remote' ? 'on the platform already' : product.status}; only drafts and failed products can be queued`,
          );
        }
        return this.store.outbox.enqueue({
          kind: 'create_product',
          productId: id,
          priority: PRIORITY.due,
          dueAt: this.now(),
        });
      });
      void this.scheduler?.wake();
      return items;
    });
  }

  private enqueueUserWrite(
    kind: 'send_message' | 'add_tag' | 'create_bot' | 'update_bot' | 'delete_bot',
    payload: Record<string, string>,
    groupId?: string,
  ): OutboxItem {
    const item = this.store.outbox.enqueue({
      kind,
      payload,
      priority: PRIORITY.user,
      dueAt: this.now(),
      groupId: groupId ?? null,
    });
    void this.scheduler?.wake();
    return item;
  }

  /**
   * Queues the message for every active subscriber with the tag (as the platform lists them now),
   * one outbox item each, rate-limited like the rest. Progress: `broadcastProgress(group)`.
   */
  async broadcast(
    input: OperationInput<'broadcast'>,
  ): Promise<{ group: string; recipients: number }> {
    const { tag, text } = this.validate('broadcast', input);
    const client = this.requireClient();
    const recipients: string[] = [];
    const gated = async (page: number) => {
      const release = await this.governor.acquire(PRIORITY.user);
      try {
        return await client.listSubscribers({ tag, status: 'active', page, per_page: 200 });
      } finally {
        release();
      }
    };
    for await (const page of paginate(gated)) {
      recipients.push(
        ...page
          .filter(
            (s) =>
              s.status === 'active' && s.tags.some((t) => t.toLowerCase() === tag.toLowerCase()),
          )
          .map((s) => s.id),
      );
    }
    const group = `broadcast-${randomUUID()}`;
    this.store.transaction(() => {
      for (const subscriberId of recipients) {
        this.store.outbox.enqueue({
          kind: 'send_message',
          payload: { subscriber_id: subscriberId, text },
          priority: PRIORITY.due,
          dueAt: this.now(),
          groupId: group,
        });
      }
    });
    void this.scheduler?.wake();
    return { group, recipients: recipients.length };
  }

  broadcastProgress(group: string): Record<OutboxItem['state'], number> {
    return this.store.outbox.counts(group);
  }

  /** Fetches every page of the platform's records into the cache, at the lowest priority. */
  sync(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> {
    if (!this.puller) throw new NotConnected();
    return this.puller.run(onProgress);
  }

  /** Imports a CSV file of posts or products as one undoable batch (see main/csv/import.ts). */
  async importFile(
    input: OperationInput<'importFile'>,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<ImportResult> {
    const request = this.validate('importFile', input);
    const result = await importCsv(this.store, request.kind, request.path, {
      dryRun: request.dryRun,
      onError: request.onError,
      queue: request.queue,
      past: request.past,
      timezone: request.timezone ?? systemTimeZone(),
      ...(request.dateFormat ? { dateFormat: request.dateFormat } : {}),
      defaultCurrency: this.store.settings.get('default_currency', currencyCode, 'USD'),
      now: this.now(),
      ...(onProgress ? { onProgress } : {}),
    });
    if (result.written && request.queue) void this.scheduler?.wake();
    return result;
  }

  /** Writes posts or products in the columns import reads; returns how many rows. */
  exportFile(input: OperationInput<'exportFile'>): Promise<number> {
    const { kind, path, bom } = this.validate('exportFile', input);
    return exportCsv(this.store, kind, path, bom);
  }

  undoImport(input: OperationInput<'undoImport'>): { removed: number } {
    const { batch } = this.validate('undoImport', input);
    const undone = this.store.imports.undoBatch(batch);
    if (!undone.ok) throw new NotAllowed(undone.reason);
    return { removed: undone.removed };
  }

  retryItem(input: OperationInput<'retryItem'>): OutboxItem {
    const { id } = this.validate('retryItem', input);
    if (!this.store.outbox.retry(id, PRIORITY.user))
      throw this.refusal(id, 'retried', 'failed, cancelled or waiting to retry');
    void this.scheduler?.wake();
    return this.store.outbox.require(id);
  }

  cancelItem(input: OperationInput<'cancelItem'>): OutboxItem {
    const { id } = this.validate('cancelItem', input);
    if (!this.store.outbox.cancel(id))
      throw this.refusal(id, 'cancelled', 'queued, retrying or failed');
    return this.store.outbox.require(id);
  }

  private refusal(id: number, verb: string, allowed: string): Error {
    const item = this.store.outbox.get(id);
    if (!item) return new InvalidInput([{ field: 'id', message: `no queue item ${id}` }]);
    return new NotAllowed(
      `Queue item ${id} is ${item.state}; only items that are ${allowed} can be ${verb}`,
    );
  }

  /** True when a platform account (base URL and token) is set. */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Follows the queue's events (the UI's live view); returns the way to stop. */
  subscribe(listener: (event: PublisherEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The user's pause: nothing new is sent until resumed. */
  pauseQueue(): void {
    this.requirePublisher().pause('Paused by you');
  }

  /** Resumes after the user's pause, or after a refused token was fixed, and sends what is due. */
  resumeQueue(): void {
    this.requirePublisher().resume();
    void this.scheduler?.wake();
  }

  status(): Status {
    return {
      outbox: this.store.outbox.counts(),
      posts: this.store.posts.counts(),
      products: this.store.products.counts(),
      rateLimit: this.governor.state(),
      paused: this.publisher?.paused ?? null,
      requests: this.stats.requests,
      rateLimited: this.stats.rateLimited,
    };
  }

  private requirePublisher(): Publisher {
    if (!this.publisher) throw new NotConnected();
    return this.publisher;
  }

  private requireClient(): PlatformClient {
    if (!this.client) throw new NotConnected();
    return this.client;
  }

  /** One pass: sends everything due now. */
  publishDue(): Promise<DrainReport> {
    return this.requirePublisher().drain();
  }

  /** Keeps publishing, waiting for future due times, until nothing is queued or retrying. */
  async publishUntilEmpty(onProgress?: (report: DrainReport) => void): Promise<DrainReport> {
    const publisher = this.requirePublisher();
    const total: DrainReport = { published: 0, failed: 0, missed: 0, retrying: 0 };
    for (;;) {
      const report = await publisher.drain();
      total.published += report.published;
      total.failed += report.failed;
      total.missed += report.missed;
      onProgress?.(total);
      const next = this.store.outbox.nextReadyAt();
      if (next === null || publisher.paused) return total;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - this.now())));
    }
  }

  /** Runs the heartbeat, and pull sync every `syncEveryMs` (5 minutes), until `stop` resolves. */
  async watch(stop: Promise<unknown>, syncEveryMs = 5 * 60_000): Promise<void> {
    this.requirePublisher();
    this.scheduler?.start();
    const syncNow = () => void this.puller?.run().catch(() => undefined);
    syncNow();
    const syncing = setInterval(syncNow, syncEveryMs);
    await stop;
    clearInterval(syncing);
    await this.scheduler?.stop();
  }

  close(): void {
    this.store.close();
  }
}
