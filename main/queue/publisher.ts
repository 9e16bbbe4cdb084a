// The publisher (Node, main process): sends whatever the outbox says is ready, through the
// governor, and settles each item by the retry rules. An item whose last attempt had no answer
// is looked up on the platform before it is sent again, so nothing is published twice even on a
// platform that ignores Idempotency-Key.
import { setMaxListeners } from 'node:events';
import type { QueueEvent as PublisherEvent } from '../../shared/answers';
import type { OutboxItem } from '../../shared/domain';
import { PRIORITY } from '../../shared/domain';
import { UNSURE_ANSWERS, UNSURE_REASON } from '../../shared/failures';
import { minorToDecimal } from '../../shared/money';
import type { Page, PlatformClient } from '../platform/client';
import type { PageRequest } from '../platform/normalize';
import { PlatformError } from '../platform/errors';
import type { WorkspaceStore } from '../store';
import { LeaseLost } from '../store/lease';
import type { LeaseToken } from '../store/lease';
import type { RateGovernor, Release } from '../platform/governor';
import { CLOCK_MARGIN_MS, freshProgress, postMatcher, scanList } from './lookup';
import type { PublishDecision, PublishGate } from './publish-gate';
import type { Lookup, LookupProgress } from './lookup';
import { DEFAULT_RETRY_RULES, decide } from './retry';
import type { RetryRules } from './retry';

export type { QueueEvent as PublisherEvent } from '../../shared/answers';

/** Waits between tries to record a sent item while another process holds the database. */
const SETTLE_RETRY_MS = { first: 50, longest: 1_000 };

/** The lease one process publishes a workspace under (`core/publishing-lease.ts`). */
export interface PublisherLease {
  /** Takes or keeps the lease: null while this process may publish, else why not. */
  refusal(): string | null;
  /** What every claim is fenced with, while the lease is held. */
  readonly token: LeaseToken | null;
}

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
  /** Asked before each pass; each claim and settle checks it still holds. */
  lease?: PublisherLease;
  /**
   * The web addresses to send for a post's pictures (uploaded ones are put on the media host
   * first); by default the post's own. Throwing fails the item with that reason, unsent.
   */
  publicMediaUrls?: (urls: string[]) => Promise<string[]>;
  /** In a team workspace: which desktop sends each shared post (publish-gate.ts). */
  gate?: PublishGate;
}

/** How long an item the team's gate holds back waits before it asks again. */
const GATE_WAIT_MS = 5_000;

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
  /** Lookups an error cut short, by item: the next attempt resumes them. */
  private readonly lookups = new Map<number, LookupProgress>();
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

  /** Why this process stands by for another one holding the lease; null when it does not. */
  get leaseHeldElsewhere(): string | null {
    return this.standingBy;
  }

  /**
   * The lease was lost (another process took it over): stop at once. Requests already sent
   * finish, but their settles are fenced out; the new holder looks each up before sending again.
   */
  standBy(reason: string): void {
    if (this.standingBy === reason) return;
    this.standingBy = reason;
    this.running.abort();
    this.options.onEvent?.({ type: 'paused', reason });
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
      } while (this.lookAgain && !this.pausedReason && !this.standingBy);
      return total;
    })().finally(() => (this.draining = null));
    return this.draining;
  }

  private async pass(): Promise<DrainReport> {
    const report: DrainReport = { published: 0, failed: 0, missed: 0, retrying: 0 };
    if (this.pausedReason) return report;
    const refusal = this.options.lease?.refusal() ?? null;
    if (refusal) {
      this.standBy(refusal);
      return report;
    }
    if (this.standingBy) {
      this.standingBy = null;
      this.running = waitingItems();
    }
    report.missed = this.markMissed();
    const concurrency = this.options.concurrency ?? 32;
    const running = new Set<Promise<void>>();
    // Each claim re-checks the lease: a pass stops the moment it is lost.
    while (!this.pausedReason && !this.standingBy) {
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
    const { outbox } = this.options.store;
    const overdue = outbox.overduePosts(this.now() - graceMs, PRIORITY.user);
    let missed = 0;
    for (const item of overdue) {
      const minutes = Math.round((outbox.platformNow() - item.dueAt) / 60_000);
      const marked = outbox.markMissed(
        item.id,
        `Missed: found ${minutes} min after its time (the computer was asleep or off). Publish now or reschedule.`,
      );
      if (!marked) continue;
      missed++;
      this.options.onEvent?.({ type: 'missed', item });
    }
    return missed;
  }

  /** The most urgent item ready by `at` that no one is working on; `take` marks it as ours. */
  private next(at: number, take = true): OutboxItem | undefined {
    const candidates = this.options.store.outbox.ready(at, this.taken.size + 1);
    const item = candidates.find((candidate) => !this.taken.has(candidate.id));
    if (item && take) this.taken.add(item.id);
    return item;
  }

  private async process(waiting: OutboxItem, report: DrainReport): Promise<void> {
    try {
      await this.attempt(waiting, report);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      this.standBy(error.message);
    }
  }

  /** The token a claim is fenced with; LeaseLost when this process publishes under a lost lease. */
  private fence(): LeaseToken | undefined {
    const { lease } = this.options;
    if (!lease) return undefined;
    if (!lease.token) throw new LeaseLost();
    return lease.token;
  }

  private async attempt(waiting: OutboxItem, report: DrainReport): Promise<void> {
    // Taken before the slot, so a lost lease never holds one; the claim checks it still holds.
    const fence = this.fence();
    let release: Release | null = await this.slot(waiting.priority);
    if (!release) return; // paused while waiting: nothing was sent, the item stays where it is
    let item: OutboxItem | undefined;
    let sent: { remoteId: string | null } | undefined;
    let team: PublishDecision | undefined;
    try {
      if (this.pausedReason) return;
      item = this.options.store.outbox.claim(waiting.id, fence);
      if (!item) return;
      team = await this.options.gate?.admit(item);
      if (team?.kind === 'wait') return this.putBack(item, team.reason, GATE_WAIT_MS);
      if (team?.kind === 'go') item = this.asTeamHolder(item, team);
      const linked = team?.kind === 'sent' ? team.remoteId : this.linkedAlready(item);
      if (linked !== undefined) sent = { remoteId: linked };
      else if (item.outcomeUnknown) {
        // The lookup's pages take slots of their own, one at a time.
        release();
        release = null;
        const lookup = await this.reconcile(item);
        if (lookup.kind === 'found') sent = { remoteId: lookup.id };
        else if (lookup.kind === 'unsure') return this.waitForUser(item, lookup.why, report);
        else release = await this.slot(item.priority);
        if (!sent && !release) return this.putBack(item, 'Paused before sending');
      }
      sent ??= { remoteId: await this.send(item) };
    } catch (error) {
      // Settled by no one here: the lease's new holder looks the item up before sending again.
      if (error instanceof LeaseLost) throw error;
      // Before the claim nothing was sent; the item simply stays ready for the next pass.
      if (item && this.pausedReason && isAbort(error))
        return this.putBack(item, 'Paused while checking the platform');
      if (item) await this.settleFailure(item, error, fence, report);
      if (team?.kind === 'go') await team.abandon();
      return;
    } finally {
      release?.();
    }
    // The platform has it: whatever fails from here on is ours, and is recorded as sent.
    await this.settleSent(item, sent.remoteId, fence, report);
    if (team?.kind === 'go') await team.finish(sent.remoteId);
  }

  /**
   * The item as the team's lease holder sends it: the team's key, and when an earlier holder may
   * have sent, a lookup first whose window opens at the post's first claim, placed on this
   * computer's clock by the server-measured time since (another desktop's own clock is never read).
   */
  private asTeamHolder(item: OutboxItem, team: Extract<PublishDecision, { kind: 'go' }>) {
    if (!team.lookFirst) return { ...item, idempotencyKey: team.key };
    const firstClaim = this.now() - team.sentNoEarlierThanMsAgo;
    return {
      ...item,
      idempotencyKey: team.key,
      outcomeUnknown: true,
      firstAttemptAt: Math.min(item.firstAttemptAt ?? firstClaim, firstClaim),
    };
  }

  /** A slot of the governor at `priority`, or null when a pause ended the wait. */
  private async slot(priority: OutboxItem['priority']): Promise<Release | null> {
    try {
      return await this.options.governor.acquire(priority, this.running.signal);
    } catch {
      return null;
    }
  }

  /** An item claimed but not sent (a pause came first) waits again, its outcome as it was. */
  private putBack(item: OutboxItem, reason: string, afterMs = 0): void {
    this.options.store.outbox.markRetrying(
      item.id,
      this.now() + afterMs,
      reason,
      item.outcomeUnknown,
    );
  }

  /**
   * A lookup that could not be sure: nothing is sent again until the user has looked. The item
   * keeps its unknown outcome, and its sentence names the two ways on.
   */
  private waitForUser(item: OutboxItem, why: string, report: DrainReport): void {
    const reason = `${UNSURE_REASON}: ${why}. Nothing was sent again. Look on the platform, then choose “${UNSURE_ANSWERS.notThere}” or “${UNSURE_ANSWERS.there}”.`;
    this.options.store.outbox.markFailed(item.id, reason, [], true);
    report.failed++;
    this.options.onEvent?.({ type: 'failed', item, reason, fieldErrors: [] });
  }

  /**
   * Records an item the platform accepted. A database another process holds is waited for, however
   * long; any other local failure still ends the item sent, never failed or left `sending`.
   */
  private async settleSent(
    item: OutboxItem,
    remoteId: string | null,
    fence: LeaseToken | undefined,
    report: DrainReport,
  ) {
    const { outbox } = this.options.store;
    for (let wait = SETTLE_RETRY_MS.first; ; wait = Math.min(wait * 2, SETTLE_RETRY_MS.longest)) {
      try {
        outbox.markDone(item.id, remoteId, this.now());
        break;
      } catch (error) {
        if (!isBusy(error)) {
          outbox.markSentUnrecorded(item.id, remoteId, error, this.now(), fence);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    report.published++;
    this.options.onEvent?.({ type: 'done', item, remoteId });
  }

  private async settleFailure(
    item: OutboxItem,
    error: unknown,
    fence: LeaseToken | undefined,
    report: DrainReport,
  ) {
    const { outbox } = this.options.store;
    const decision = decide(error, item.attempts, this.rules, this.random);
    switch (decision.action) {
      case 'sent':
      case 'done': {
        const remoteId =
          decision.action === 'sent' && decision.remoteId === null
            ? await this.findSent(item)
            : decision.remoteId;
        await this.settleSent(item, remoteId, fence, report);
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
   * a lookup that fails or is unsure leaves the id to the next sync, which links it by reference
   * or by this lookup's matcher (sync/pull.ts).
   */
  private async findSent(item: OutboxItem): Promise<string | null> {
    try {
      const lookup = await this.reconcile(item);
      return lookup.kind === 'found' ? lookup.id : null;
    } catch {
      return null;
    }
  }

  /**
   * Looks for what an unanswered attempt may have made, resuming a lookup an error cut short.
   * Every request goes through the governor, as the item's own.
   */
  private async reconcile(item: OutboxItem): Promise<Lookup> {
    const progress = this.lookups.get(item.id) ?? freshProgress();
    this.lookups.set(item.id, progress);
    const lookup = await this.lookUp(item, progress);
    this.lookups.delete(item.id);
    return lookup;
  }

  private async lookUp(item: OutboxItem, progress: LookupProgress): Promise<Lookup> {
    const { client, store } = this.options;
    const pages =
      <T>(list: (request: PageRequest) => Promise<Page<T>>) =>
      (request: PageRequest) =>
        this.gated(item, () => list(request));
    switch (item.kind) {
      case 'create_post': {
        const post = store.posts.require(item.postId ?? 0);
        const firstAttempt = item.firstAttemptAt ?? item.createdAt;
        const query = {
          client_reference: item.idempotencyKey,
          ...(post.botId ? { bot_id: post.botId } : {}),
          per_page: 200,
        };
        return scanList(
          pages((request) => client.listPosts({ ...query, ...request })),
          postMatcher({
            reference: item.idempotencyKey,
            botId: post.botId,
            text: post.text,
            sinceMs: () => firstAttempt + this.options.governor.skewMs - CLOCK_MARGIN_MS,
            taken: (remoteId) => store.outbox.remoteIdOwned(remoteId, item.id, firstAttempt),
          }),
          progress,
        );
      }
      case 'create_product': {
        const { sku } = store.products.require(item.productId ?? 0);
        return scanList(
          pages((request) => client.listProducts({ sku, per_page: 200, ...request })),
          (products) => products.find((product) => product.sku === sku)?.id,
          progress,
        );
      }
      case 'create_bot':
        return scanList(
          pages((request) => client.listBots({ per_page: 200, ...request })),
          (bots) => bots.find((bot) => bot.client_reference === item.idempotencyKey)?.id,
          progress,
        );
      case 'delete_bot': {
        const id = String(item.payload.id ?? '');
        try {
          await this.gated(item, () => client.getBot(id));
          return { kind: 'absent' };
        } catch (error) {
          if (error instanceof PlatformError && error.kind === 'not_found')
            return { kind: 'found', id: null };
          throw error;
        }
      }
      // Messages cannot be looked up in API v1, and tags and renames are safe to repeat: resend
      // with the same Idempotency-Key.
      case 'send_message':
      case 'add_tag':
      case 'update_bot':
        return { kind: 'absent' };
    }
  }

  /** One request of `item`'s, when the governor allows; a pause ends the wait (AbortError). */
  private async gated<T>(item: OutboxItem, request: () => Promise<T>): Promise<T> {
    const release = await this.options.governor.acquire(item.priority, this.running.signal);
    try {
      return await request();
    } finally {
      release();
    }
  }
}

/** SQLite's answer while another connection holds the write lock past the busy timeout. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || /database is locked/i.test(String(error))
  );
}

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';
