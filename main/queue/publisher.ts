// The publisher (Node, main process): sends whatever the outbox says is ready, through the
// governor, and settles each item by the retry rules. An item whose last attempt had no answer
// is looked up on the platform before it is sent again, so nothing is published twice even on a
// platform that ignores Idempotency-Key.
import { setMaxListeners } from 'node:events';
import type { QueueEvent as PublisherEvent } from '../../shared/answers';
import type { LocalPost, OutboxItem } from '../../shared/domain';
import { PRIORITY } from '../../shared/domain';
import { minorToDecimal } from '../../shared/money';
import type { Page, PlatformClient } from '../platform/client';
import { readWholeList } from '../platform/client';
import type { PageRequest, Post as PlatformPost } from '../platform/normalize';
import { PlatformError } from '../platform/errors';
import type { WorkspaceStore } from '../store';
import type { RateGovernor, Release } from './governor';
import { DEFAULT_RETRY_RULES, decide } from './retry';
import type { RetryRules } from './retry';

export type { QueueEvent as PublisherEvent } from '../../shared/answers';

/** How far the platform's clock may be behind ours when a lookup compares creation times. */
const CLOCK_SKEW_MS = 60_000;

export interface PublisherOptions {
  store: WorkspaceStore;
  client: PlatformClient;
  governor: RateGovernor;
  now?: () => number;
  random?: () => number;
  rules?: RetryRules;
  /** Posts found later than this after their time are not sent but marked missed. */
  graceMs?: number;
  /** Items worked on at once; the governor still decides when each request goes. */
  concurrency?: number;
  onEvent?: (event: PublisherEvent) => void;
  /** Asked before each pass: null when this process may publish, else why it does not. */
  mayPublish?: () => string | null;
  /**
   * The web addresses to send for a post's pictures (uploaded ones are put on the media host
   * first); by default the post's own. Throwing fails the item with that reason, unsent.
   */
  publicMediaUrls?: (urls: string[]) => Promise<string[]>;
}

export interface DrainReport {
  published: number;
  failed: number;
  missed: number;
  retrying: number;
}

/** One abort for every item waiting for the governor: a listener each, as many as work at once. */
function waitingItems(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

export class Publisher {
  private readonly taken = new Set<number>();
  private draining: Promise<DrainReport> | null = null;
  private lookAgain = false;
  private pausedReason: string | null = null;
  /** Aborted by a pause: items still waiting for the governor stop waiting. */
  private running = waitingItems();
  private standingBy: string | null = null;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly rules: RetryRules;

  constructor(private readonly options: PublisherOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.rules = options.rules ?? DEFAULT_RETRY_RULES;
  }

  /** Why nothing is sent: a pause, or another process publishing the workspace. */
  get paused(): string | null {
    return this.pausedReason ?? this.standingBy;
  }

  /**
   * Holds every item where it is until `resume`; requests already sent finish. Only publishing
   * stops: sync, AI assist and a connection test still go.
   */
  pause(reason: string): void {
    this.pausedReason = reason;
    this.running.abort();
    this.options.onEvent?.({ type: 'paused', reason });
  }

  resume(): void {
    this.pausedReason = null;
    this.running = waitingItems();
    this.options.governor.resume();
  }

  /**
   * Sends everything ready now. A call during a pass joins it, and makes it look again once done,
   * so an item queued mid-pass is not left for the next tick.
   */
  drain(): Promise<DrainReport> {
    if (this.draining) {
      this.lookAgain = true;
      return this.draining;
    }
    this.draining = (async () => {
      const total: DrainReport = { published: 0, failed: 0, missed: 0, retrying: 0 };
      do {
        this.lookAgain = false;
        const report = await this.pass();
        for (const key of Object.keys(total) as (keyof DrainReport)[]) total[key] += report[key];
      } while (this.lookAgain && !this.pausedReason);
      return total;
    })().finally(() => (this.draining = null));
    return this.draining;
  }

  private async pass(): Promise<DrainReport> {
    const report: DrainReport = { published: 0, failed: 0, missed: 0, retrying: 0 };
    if (this.pausedReason) return report;
    const refusal = this.options.mayPublish?.() ?? null;
    if (refusal && refusal !== this.standingBy)
      this.options.onEvent?.({ type: 'paused', reason: refusal });
    this.standingBy = refusal;
    if (refusal) return report;
    report.missed = this.markMissed();
    const concurrency = this.options.concurrency ?? 32;
    const running = new Set<Promise<void>>();
    while (!this.pausedReason) {
      const item = running.size < concurrency ? this.next(this.now()) : undefined;
      if (item) {
        const task: Promise<void> = this.process(item, report).finally(() => {
          running.delete(task);
          this.taken.delete(item.id);
        });
        running.add(task);
        continue;
      }
      if (running.size === 0) break;
      // Wait for a request to finish, or for the next item to come due while others are in flight.
      const soon = this.next(this.now() + 1_000, false);
      const wait = soon ? Math.max(0, soon.readyAt - this.now()) : null;
      await Promise.race([
        ...running,
        ...(wait === null ? [] : [new Promise((resolve) => setTimeout(resolve, wait))]),
      ]);
    }
    await Promise.all(running);
    return report;
  }

  /** Posts found long after their time (the computer slept or was off) wait for the user. */
  private markMissed(): number {
    const graceMs = this.options.graceMs ?? 30 * 60_000;
    const now = this.now();
    const overdue = this.options.store.outbox.overduePosts(now - graceMs, PRIORITY.user);
    for (const item of overdue) {
      const minutes = Math.round((now - item.dueAt) / 60_000);
      this.options.store.outbox.markFailed(
        item.id,
        `Missed: found ${minutes} min after its time (the computer was asleep or off). Publish now or reschedule.`,
        [],
        'missed',
      );
      this.options.onEvent?.({ type: 'missed', item });
    }
    return overdue.length;
  }

  /** The most urgent item ready by `at` that no one is working on; `take` marks it as ours. */
  private next(at: number, take = true): OutboxItem | undefined {
    const candidates = this.options.store.outbox.ready(at, this.taken.size + 1);
    const item = candidates.find((candidate) => !this.taken.has(candidate.id));
    if (item && take) this.taken.add(item.id);
    return item;
  }

  private async process(waiting: OutboxItem, report: DrainReport): Promise<void> {
    const { store, governor } = this.options;
    let release: Release;
    try {
      release = await governor.acquire(waiting.priority, this.running.signal);
    } catch {
      return; // paused while waiting: nothing was sent, the item stays where it is
    }
    let item: OutboxItem | undefined;
    try {
      if (this.pausedReason) return;
      item = store.outbox.claim(waiting.id);
      if (!item) return;
      const existing =
        this.linkedAlready(item) ?? (item.outcomeUnknown ? await this.reconcile(item) : undefined);
      const remoteId = existing !== undefined ? existing : await this.send(item);
      store.outbox.markDone(item.id, remoteId, this.now());
      report.published++;
      this.options.onEvent?.({ type: 'done', item, remoteId });
    } catch (error) {
      // Before the claim nothing was sent; the item simply stays ready for the next pass.
      if (item) await this.settleFailure(item, error, report);
    } finally {
      release();
    }
  }

  private async settleFailure(item: OutboxItem, error: unknown, report: DrainReport) {
    const { outbox } = this.options.store;
    const decision = decide(error, item.attempts, this.rules, this.random);
    switch (decision.action) {
      case 'sent':
      case 'done': {
        const remoteId =
          decision.action === 'sent' && decision.remoteId === null
            ? await this.findSent(item)
            : decision.remoteId;
        outbox.markDone(item.id, remoteId, this.now());
        report.published++;
        this.options.onEvent?.({ type: 'done', item, remoteId });
        return;
      }
      case 'retry': {
        const readyAt = this.now() + decision.delayMs;
        outbox.markRetrying(
          item.id,
          readyAt,
          decision.reason,
          decision.outcomeUnknown || item.outcomeUnknown,
        );
        report.retrying++;
        this.options.onEvent?.({ type: 'retrying', item, reason: decision.reason, readyAt });
        return;
      }
      case 'fail':
        outbox.markFailed(
          item.id,
          decision.reason,
          decision.fieldErrors,
          undefined,
          decision.outcomeUnknown === true || item.outcomeUnknown,
        );
        report.failed++;
        this.options.onEvent?.({
          type: 'failed',
          item,
          reason: decision.reason,
          fieldErrors: decision.fieldErrors,
        });
        return;
      case 'pause':
        // Not the item's fault: it goes back to wait, untouched, until the token is fixed.
        outbox.markRetrying(item.id, this.now(), decision.reason, item.outcomeUnknown);
        // No request can succeed with a refused token, whoever makes it.
        this.options.governor.pause(decision.reason);
        this.pause(decision.reason);
        return;
    }
  }

  /** The request an item stands for; resolves with the platform's id of what it made. */
  private async send(item: OutboxItem): Promise<string | null> {
    const { client, store } = this.options;
    const key = { idempotencyKey: item.idempotencyKey };
    const payload = item.payload as Record<string, string>;
    switch (item.kind) {
      case 'create_post': {
        const post = store.posts.require(item.postId ?? 0);
        if (!post.botId)
          throw new PlatformError({
            kind: 'validation',
            method: 'POST',
            path: '/posts',
            serverMessage: 'Choose a bot for this post',
          });
        const handOff = item.payload.handOff === true && post.scheduledAt !== null;
        const mediaUrls = this.options.publicMediaUrls
          ? await this.options.publicMediaUrls(post.mediaUrls)
          : post.mediaUrls;
        const created = await client.createPost(
          {
            bot_id: post.botId,
            text: post.text,
            media_urls: mediaUrls,
            ...(handOff ? { scheduled_at: new Date(post.scheduledAt ?? 0).toISOString() } : {}),
            client_reference: item.idempotencyKey,
          },
          key,
        );
        return created.id;
      }
      case 'create_product': {
        const product = store.products.require(item.productId ?? 0);
        const created = await client.createProduct(
          {
            sku: product.sku,
            name: product.name,
            price: minorToDecimal(product.priceMinor, product.currency),
            currency: product.currency,
            description: product.description,
            stock: product.stock,
            image_url: product.imageUrl,
            client_reference: item.idempotencyKey,
          },
          key,
        );
        return created.id;
      }
      case 'send_message':
        return (
          await client.sendMessage(
            payload.subscriber_id ?? '',
            { text: payload.text ?? '', client_reference: item.idempotencyKey },
            key,
          )
        ).id;
      case 'add_tag':
        await client.addTag(payload.subscriber_id ?? '', payload.tag ?? '', key);
        return payload.subscriber_id ?? null;
      case 'create_bot':
        return (
          await client.createBot(
            { ...(item.payload as { name: string }), client_reference: item.idempotencyKey },
            key,
          )
        ).id;
      case 'update_bot': {
        const { id, ...patch } = item.payload as { id: string; name?: string };
        return (await client.updateBot(id, patch, key)).id;
      }
      case 'delete_bot':
        await client.deleteBot(payload.id ?? '', key);
        return payload.id ?? null;
    }
  }

  /** The platform id its post or product has already (a sync linked it): never sent again. */
  private linkedAlready(item: OutboxItem): string | undefined {
    const { posts, products } = this.options.store;
    const subject =
      item.postId !== null
        ? posts.get(item.postId)
        : item.productId !== null
          ? products.get(item.productId)
          : undefined;
    return subject?.remoteId ?? undefined;
  }

  /**
   * The id of what a write answered 2xx without one made. It exists whatever the lookup finds, so
   * a lookup that fails leaves the id to the next sync (which links by client reference).
   */
  private async findSent(item: OutboxItem): Promise<string | null> {
    try {
      return (await this.reconcile(item)) ?? null;
    } catch {
      return null;
    }
  }

  /**
   * Looks for what an unanswered attempt may have made. Resolves with its id (or null for a
   * deletion that happened) when found, undefined when the request must be sent again.
   */
  private async reconcile(item: OutboxItem): Promise<string | null | undefined> {
    const { client, store } = this.options;
    switch (item.kind) {
      case 'create_post':
        return this.findPost(item, store.posts.require(item.postId ?? 0));
      case 'create_product': {
        const { sku } = store.products.require(item.productId ?? 0);
        return this.findFirst(
          (request) => client.listProducts({ sku, per_page: 200, ...request }),
          (product) => product.sku === sku,
        );
      }
      case 'create_bot':
        return this.findFirst(
          (request) => client.listBots({ per_page: 200, ...request }),
          (bot) => bot.client_reference === item.idempotencyKey,
        );
      case 'delete_bot': {
        const id = String(item.payload.id ?? '');
        try {
          await client.getBot(id);
          return undefined;
        } catch (error) {
          if (error instanceof PlatformError && error.kind === 'not_found') return null;
          throw error;
        }
      }
      // Messages cannot be looked up in API v1, and tags and renames are safe to repeat: resend
      // with the same Idempotency-Key.
      case 'send_message':
      case 'add_tag':
      case 'update_bot':
        return undefined;
    }
  }

  /** The id of the first item on any page that matches; a platform may ignore a list's filters. */
  private async findFirst<T extends { id: string }>(
    fetchPage: (request: PageRequest) => Promise<Page<T>>,
    matches: (candidate: T) => boolean,
  ): Promise<string | undefined> {
    const { items } = await readWholeList(fetchPage, undefined, (page) => page.some(matches));
    return items.find(matches)?.id;
  }

  /**
   * What an attempt of `item` may have made of `post`, on any page: the post with the item's client
   * reference, else (on a platform that does not keep references) one with the same bot and text,
   * no other reference, made since the item's first attempt and linked to nothing of ours.
   */
  private async findPost(item: OutboxItem, post: LocalPost): Promise<string | undefined> {
    const { client, store } = this.options;
    const since = (item.firstAttemptAt ?? item.createdAt) - CLOCK_SKEW_MS;
    const mine = (candidate: PlatformPost) => candidate.client_reference === item.idempotencyKey;
    const { items } = await readWholeList(
      (request) =>
        client.listPosts({
          client_reference: item.idempotencyKey,
          ...(post.botId ? { bot_id: post.botId } : {}),
          per_page: 200,
          ...request,
        }),
      undefined,
      (page) => page.some(mine),
    );
    return (
      items.find(mine)?.id ??
      items.find(
        (candidate) =>
          candidate.client_reference === null &&
          candidate.text === post.text &&
          candidate.bot_id === post.botId &&
          candidate.created_at !== null &&
          Date.parse(candidate.created_at) >= since &&
          !store.outbox.remoteIdOwned(candidate.id, item.id),
      )?.id
    );
  }
}
