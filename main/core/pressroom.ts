// The core facade (Node, main process): the single object the Electron IPC layer, the web host
// and the CLI call. It validates every input against the contract in shared/, and owns the store,
// the platform client, the rate-limit governor, the publisher and the scheduler of one workspace.
import { z } from 'zod';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { operations } from '../../shared/contract';
import type {
  AI_TASKS,
  CalendarRange,
  CoreEvent,
  Issue,
  OperationInput,
  OperationResults,
  Operations,
} from '../../shared/contract';
import type {
  AiAnswerInfo,
  AiAssistReply,
  AiUsageDay,
  BotSchedule,
  BotSummary,
  CampaignDrafts,
  FreeSlot,
  ImportPreview,
  ImportProgress,
  ImportResult,
  ImportBatch,
  ImportUndone,
  LocalPost,
  LocalProduct,
  OrderSummary,
  OutboxItem,
  Page,
  Priority,
  QueueRow,
  ReceivedEvent,
  SharedNext,
  Status,
  SubscriberDetail,
  SubscriberSummary,
  WebhookInfo,
  WorkspaceSettings,
} from '../../shared/domain';
import { PRIORITY, THEMES } from '../../shared/domain';
import { campaignMessages, estimateCampaign, parseCampaignReply } from '../../shared/campaign';
import { describeDuplicate, findDuplicate, outgoingAt } from '../../shared/duplicates';
import type { DuplicateCandidate } from '../../shared/duplicates';
import { isCurrency } from '../../shared/money';
import { parsePrice } from '../../shared/price-text';
import {
  formatSchedule,
  freeSlotsBetween,
  nextFreeSlots,
  parseSchedule,
} from '../../shared/schedule';
import { WallClock, isTimeZone, systemTimeZone, toInstant } from '../../shared/time';
import { exportCsv } from '../csv/export';
import { importCsv } from '../csv/import';
import { FIELDS, MappingError, mapColumns } from '../csv/columns';
import { UnusableFile, openCsv } from '../csv/read';
import { detectSource, looksLikeData, positionalMapping, SOURCE_LABELS } from '../csv/sources';
import { describeIssues } from '../../shared/validation';
import { randomUUID } from 'node:crypto';
import { createPlatformClient, readWholeList } from '../platform/client';
import type { PlatformClient } from '../platform/client';
import type { PageRequest } from '../platform/normalize';
import type { AiChat } from '../platform/normalize';
import type { Plan } from '../platform/wire';
import { PLANS } from '../platform/wire';
import { RateGovernor } from '../queue/governor';
import type { GovernorOptions } from '../queue/governor';
import { Publisher } from '../queue/publisher';
import type { RetryRules } from '../queue/retry';
import type { DrainReport, PublisherEvent } from '../queue/publisher';
import { Scheduler } from '../queue/scheduler';
import { WorkspaceStore } from '../store';
import { SlotCursor, frontOfQueue, heldTimes } from '../store/planning';
import { PullSync } from '../sync/pull';
import type { SyncProgress, SyncReport } from '../sync/pull';
import { DuplicateContent, InvalidInput, NotAllowed, NotConnected } from './errors';
import { queueRows } from './queue-rows';

const graceMinutes = z
  .number()
  .int()
  .min(0)
  .max(24 * 60);
const defaultBot = z.string().min(1).nullable();
const currencyCode = z.string().refine(isCurrency);
const timeZone = z.string().refine(isTimeZone);
const theme = z.enum(THEMES);
const duplicateWindowDays = z.number().int().min(0).max(90);
const DAY_MS = 86_400_000;
const learnedRateLimit = z
  .object({
    apiBase: z.string(),
    limit: z.number().int().positive().nullable(),
    windowMs: z.number().positive().nullable(),
    skewMs: z.number().int().nullable(),
  })
  .nullable();

const AI_INSTRUCTIONS: Record<(typeof AI_TASKS)[number], string> = {
  draft:
    'Write one social media post from the brief the user gives. Answer with the post text only.',
  shorten:
    'Shorten the user’s social media post, keeping its meaning and tone. Answer with the post only.',
  rephrase:
    'Rephrase the user’s social media post with fresh wording, same meaning and length. Answer with the post only.',
  hashtags:
    'Suggest three to five relevant hashtags for the user’s social media post. Answer with the hashtags only, separated by spaces.',
};

/** Who answered an AI request, and what it cost, as the UI shows it. */
function answerInfo(answer: AiChat): AiAnswerInfo {
  return {
    provider: answer.provider,
    model: answer.model,
    tokens: {
      prompt: answer.usage.prompt_tokens,
      completion: answer.usage.completion_tokens,
      total: answer.usage.total_tokens,
    },
    attempts: answer.attempts.map((attempt) => ({
      provider: attempt.provider,
      error: attempt.error ?? null,
    })),
  };
}

/** A post "add to queue" or "share next" places: an existing one, or a new one not yet made. */
interface QueueTarget {
  post: LocalPost | null;
  botId: string;
  text: string;
  mediaUrls: string[];
}

/** Why a post could not get a slot of its bot: a fact about the bot the caller chose. */
function noSlot(reason: string): InvalidInput {
  return new InvalidInput([{ field: 'botId', message: reason }]);
}

/** Why a product cannot be edited any more. */
function productLock(product: LocalProduct): string {
  if (product.origin === 'remote') return 'It was made on the platform; API v1 cannot change it';
  if (product.status === 'published')
    return 'It is published; API v1 has no way to change a published product';
  return `It is ${product.status}; cancel it in the queue first`;
}

async function withTemporaryFolder<T>(work: (folder: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'pressroom-'));
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Runs `work` on a private copy of an uploaded file, under the user's own file name; problems
 * with the file are told by that name, not the temporary path.
 */
function withUpload<T>(
  fileName: string,
  contentBase64: string,
  work: (path: string) => Promise<T>,
): Promise<T> {
  return withTemporaryFolder(async (folder) => {
    const name = basename(fileName) || 'upload.csv';
    const path = join(folder, name);
    await writeFile(path, Buffer.from(contentBase64, 'base64'), { mode: 0o600 });
    try {
      return await work(path);
    } catch (error) {
      if (error instanceof UnusableFile) throw new UnusableFile(error.message.replace(path, name));
      throw error;
    }
  });
}

/** A column choice the file cannot satisfy is the caller's input at fault, field by field. */
function mappingAsInput(error: unknown): never {
  throw error instanceof MappingError ? new InvalidInput(error.issues) : error;
}

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
  /** A publishing pass that failed as a whole (the database, not a post); stderr by default. */
  onError?: (error: unknown) => void;
  retryRules?: RetryRules;
  /** This workspace's own webhook receiver (the demo workspace has one). */
  receiver?: { url: string; secret: string };
}

/** A publisher's lease is taken over when its holder has not beaten for this long. */
const LEASE_STALE_MS = 30_000;

/** A failed publishing pass is never silent: the next tick tries again, and this says why. */
function reportDrainError(error: unknown): void {
  console.error(
    `Publishing pass failed: ${error instanceof Error ? error.message : String(error)}`,
  );
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
  private readonly listeners = new Set<(event: CoreEvent) => void>();
  /** True after the platform answered, false after a request got no answer, null before any. */
  private online: boolean | null = null;
  private readonly receiver: { url: string; secret: string } | null;
  private readonly leaseOwner = `${process.pid}:${randomUUID()}`;
  private leaseBeat: NodeJS.Timeout | null = null;

  constructor(private readonly config: PressroomConfig) {
    this.now = config.now ?? Date.now;
    this.receiver = config.receiver ?? null;
    this.store = WorkspaceStore.open(config.dbFile, this.now);
    this.store.imports.abandonStale();
    const plan = config.plan ?? 'free';
    this.governor = new RateGovernor({
      limit: PLANS[plan],
      windowMs: config.windowMs ?? 60_000,
      now: this.now,
      ...this.learnedRateLimit(config.apiBase),
      ...(config.retryRules ? { refusalBackoff: config.retryRules } : {}),
    });
    this.client =
      config.apiBase && config.token
        ? createPlatformClient({
            baseUrl: config.apiBase,
            token: config.token,
            now: this.now,
            ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
            fetch: this.watchReachability(config.fetch ?? fetch),
            onResponse: (info) => {
              this.stats.requests++;
              if (info.status === 429) this.stats.rateLimited++;
              this.governor.observe(info.status, info.rateLimit, info.durationMs);
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
            this.emit(event);
          },
          ...(config.retryRules ? { rules: config.retryRules } : {}),
          mayPublish: () => this.publishingRefusal(),
        })
      : null;
    this.puller = this.client ? new PullSync(this.store, this.client, this.governor) : null;
    this.scheduler = this.publisher
      ? new Scheduler({
          publisher: this.publisher,
          store: this.store,
          now: this.now,
          onError: config.onError ?? reportDrainError,
        })
      : null;
  }

  /**
   * What an earlier run learned of this platform's rate limit, and the way to keep what this run
   * learns: one settings row, for the base URL it was learned from (another server relearns).
   */
  private learnedRateLimit(
    apiBase: string | undefined,
  ): Pick<GovernorOptions, 'learned' | 'onLearn'> {
    if (!apiBase) return {};
    const kept = this.store.settings.get('learned_rate_limit', learnedRateLimit, null);
    return {
      learned: kept?.apiBase === apiBase ? kept : null,
      onLearn: (learned) => this.store.settings.set('learned_rate_limit', { apiBase, ...learned }),
    };
  }

  /** The platform's fetch, noting whether requests get answers (the UI's online/offline). */
  private watchReachability(base: typeof fetch): typeof fetch {
    return async (...args) => {
      try {
        const response = await base(...args);
        this.online = true;
        return response;
      } catch (error) {
        this.online = false;
        throw error;
      }
    };
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
    const added = this.store.transaction(() => {
      const botId = request.botId ?? this.defaultBotId();
      if (request.mode !== 'draft') {
        const at = request.mode === 'publish_now' ? this.now() : (scheduledAt ?? this.now());
        this.guardDuplicate({ botId, text: request.text, at }, request.allowDuplicate);
      }
      const post = this.store.posts.create({
        botId,
        text: request.text,
        mediaUrls: request.mediaUrls,
        scheduledAt,
        zone,
      });
      if (request.mode !== 'draft') this.enqueuePost(post, request.mode);
      return this.store.posts.require(post.id);
    });
    // Every window showing posts follows, not only the one that added it.
    this.emit({ type: 'changed', what: 'posts' });
    return added;
  }

  private enqueuePost(post: LocalPost, mode: 'schedule' | 'publish_now' | 'hand_off'): void {
    const now = this.now();
    const item = {
      priority:
        mode === 'publish_now'
          ? PRIORITY.user
          : mode === 'hand_off'
            ? PRIORITY.handOff
            : PRIORITY.due,
      dueAt: mode === 'schedule' ? (post.scheduledAt ?? now) : now,
      payload: mode === 'hand_off' ? { handOff: true } : {},
    };
    // An attempt that may have gone out keeps its key, so it is looked up before anything is sent.
    const unsettled = this.store.outbox.unsettledForPost(post.id);
    if (unsettled) this.store.outbox.reopen(unsettled.id, item);
    else this.store.outbox.enqueue({ kind: 'create_post', postId: post.id, ...item });
    this.queueChanged(true);
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
    const post = this.requirePost(id);
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
      const botId = request.botId === undefined ? post.botId : request.botId;
      const text = request.text ?? post.text;
      // A queued post is checked again when what the guard compares changes, and only then.
      if (open && (text !== post.text || botId !== post.botId || scheduledAt !== post.scheduledAt))
        this.guardDuplicate(
          { id: post.id, botId, text, at: scheduledAt ?? this.now() },
          request.allowDuplicate,
        );
      const updated = this.store.posts.update(post.id, {
        ...(request.text !== undefined ? { text: request.text } : {}),
        ...(request.botId !== undefined ? { botId: request.botId } : {}),
        ...(request.mediaUrls !== undefined ? { mediaUrls: request.mediaUrls } : {}),
        scheduledAt,
        zone,
      });
      this.queueChanged(true);
      return updated;
    });
  }

  /** Schedules, publishes now or hands off a draft, or a post that failed or was missed. */
  queuePost(input: OperationInput<'queuePost'>): LocalPost {
    const { id, mode, allowDuplicate } = this.validate('queuePost', input);
    return this.store.transaction(() => {
      const post = this.editablePost(id);
      const open = this.store.outbox.openFor({ postId: id });
      if (open) throw new NotAllowed(`Post ${id} is queued already (queue item ${open.id})`);
      if (mode !== 'publish_now' && (post.scheduledAt === null || post.scheduledAt <= this.now())) {
        throw new InvalidInput([
          { field: 'at', message: 'pick a time in the future first, or publish now' },
        ]);
      }
      const at = mode === 'publish_now' ? this.now() : (post.scheduledAt ?? this.now());
      this.guardDuplicate({ id, botId: post.botId, text: post.text, at }, allowDuplicate);
      this.enqueueAfresh(post, mode);
      return this.store.posts.require(id);
    });
  }

  /** Queues a post whose earlier attempt may have failed or been missed. */
  private enqueueAfresh(post: LocalPost, mode: 'schedule' | 'publish_now' | 'hand_off'): void {
    // A failed or missed attempt is superseded, so it can never be retried into a second copy.
    const latest = this.store.outbox.latestForPost(post.id);
    if (latest?.state === 'failed' && !latest.outcomeUnknown) this.store.outbox.cancel(latest.id);
    this.enqueuePost(post, mode);
  }

  private zone(): string {
    return this.store.settings.get('timezone', timeZone, systemTimeZone());
  }

  private defaultBotId(): string | null {
    return this.store.settings.get('default_bot_id', defaultBot, null);
  }

  private windowDays(): number {
    return this.store.settings.get('duplicate_window_days', duplicateWindowDays, 3);
  }

  /**
   * Refuses a post that would go out at `candidate.at` with the text of another counted post of
   * its bot within the window (shared/duplicates.ts), unless the caller insists.
   */
  private guardDuplicate(candidate: DuplicateCandidate, allowed: boolean): void {
    const days = this.windowDays();
    if (allowed || days === 0) return;
    const windowMs = days * DAY_MS;
    const near = this.store.posts.goingOut(
      candidate.botId,
      candidate.at - windowMs,
      candidate.at + windowMs,
    );
    const other = findDuplicate(candidate, near, windowMs);
    if (!other) return;
    const at = outgoingAt(other) ?? candidate.at;
    throw new DuplicateContent(
      describeDuplicate(
        `post ${other.id}${other.botId ? ` of ${other.botId}` : ''}`,
        other.status === 'published',
        at,
        this.zone(),
        days,
      ),
      {
        postId: other.id,
        botId: other.botId,
        status: other.status,
        text: other.text,
        at,
        requestedAt: candidate.at,
        windowDays: days,
      },
    );
  }

  getSchedule(input: OperationInput<'getSchedule'>): BotSchedule {
    return this.botSchedule(this.validate('getSchedule', input).botId);
  }

  /** Replaces a bot's weekly schedule, given as text ("mon-fri 09:00,17:00; sat 10:00"). */
  setSchedule(input: OperationInput<'setSchedule'>): BotSchedule {
    const { botId, schedule } = this.validate('setSchedule', input);
    const parsed = parseSchedule(schedule);
    if (!parsed.ok) throw new InvalidInput([{ field: 'schedule', message: parsed.reason }]);
    this.store.transaction(() => this.store.schedules.set(botId, parsed.value));
    this.emit({ type: 'changed', what: 'schedules' });
    return this.botSchedule(botId);
  }

  /** Every bot's schedule as text, for the Bots table; bots without one are left out. */
  listSchedules(): OperationResults['listSchedules'] {
    return this.store.schedules
      .list()
      .map(({ botId, schedule }) => ({ botId, text: formatSchedule(schedule) }));
  }

  private botSchedule(botId: string): BotSchedule {
    const days = this.store.schedules.get(botId);
    const zone = this.zone();
    const now = this.now();
    const held = heldTimes(this.store, botId, now);
    return {
      botId,
      zone,
      days,
      text: formatSchedule(days),
      nextFree: nextFreeSlots(days, zone, now, held, 3),
    };
  }

  /** The slots no post holds in a range, for the calendar to show faintly. */
  listFreeSlots(input: OperationInput<'listFreeSlots'>): FreeSlot[] {
    const { from, to, botId } = this.validate('listFreeSlots', input);
    const zone = this.zone();
    // Only slots still ahead can take a post.
    const start = Math.max(from, this.now() + 1);
    const bots = botId === undefined ? this.store.schedules.botIds() : [botId];
    return bots
      .flatMap((bot) => {
        // From a minute earlier: a post in the first slot's minute, before it, holds it too.
        const taken = this.store.posts
          .goingOut(bot, start - 60_000, to)
          .map((post) => outgoingAt(post) ?? start);
        return freeSlotsBetween(this.store.schedules.get(bot), zone, start, to, taken).map(
          (at) => ({ botId: bot, at }),
        );
      })
      .sort((a, b) => a.at - b.at || a.botId.localeCompare(b.botId));
  }

  /** "Add to queue": the post goes into its bot's next free slot, scheduled. */
  addToQueue(input: OperationInput<'addToQueue'>): LocalPost {
    const request = this.validate('addToQueue', input);
    const zone = this.zone();
    const placed = this.store.transaction(() => {
      const target = this.queueTarget(request);
      const next = new SlotCursor(this.store, zone, this.now(), target.post?.id).next(target.botId);
      if (!next.ok) throw noSlot(next.reason);
      this.guardDuplicate(
        { id: target.post?.id, botId: target.botId, text: target.text, at: next.at },
        request.allowDuplicate,
      );
      return this.placeInSlot(target, next.at, zone);
    });
    this.emit({ type: 'changed', what: 'posts' });
    return placed;
  }

  /**
   * "Share next": the post takes its bot's next slot, and the queued posts in the slots after it,
   * one after another, move one slot later each (see store/planning.ts frontOfQueue).
   */
  shareNext(input: OperationInput<'shareNext'>): SharedNext {
    const request = this.validate('shareNext', input);
    const zone = this.zone();
    const shared = this.store.transaction(() => {
      const target = this.queueTarget(request);
      const front = frontOfQueue(
        this.store,
        target.botId,
        zone,
        this.now(),
        target.post?.id,
        (post) => this.movable(post),
      );
      if (!front.ok) throw noSlot(front.reason);
      this.guardDuplicate(
        { id: target.post?.id, botId: target.botId, text: target.text, at: front.at },
        request.allowDuplicate,
      );
      const moved = front.moves.map(({ post, to }) => {
        this.scheduleAt(post, to, post.zone ?? zone);
        return { id: post.id, from: post.scheduledAt ?? to, to };
      });
      return { post: this.placeInSlot(target, front.at, zone), moved };
    });
    this.emit({ type: 'changed', what: 'posts' });
    return shared;
  }

  /** The post to place (checked editable and not queued to go now), its bot, and its text. */
  private queueTarget(request: z.output<Operations['addToQueue']>): QueueTarget {
    const bot = (botId: string | null): string => {
      if (botId !== null) return botId;
      throw new InvalidInput([
        {
          field: 'botId',
          message: 'is needed to queue a post: choose a bot, or set a default bot',
        },
      ]);
    };
    if (request.id === undefined)
      return {
        post: null,
        botId: bot(request.botId ?? this.defaultBotId()),
        text: request.text ?? '',
        mediaUrls: request.mediaUrls ?? [],
      };
    const post = this.editablePost(request.id);
    const open = this.store.outbox.openFor({ postId: post.id });
    if (open && open.priority !== PRIORITY.due)
      throw new NotAllowed(
        `Post ${post.id} is queued to go out now or be handed off; cancel it in the queue first`,
      );
    return {
      post,
      botId: bot(post.botId ?? this.defaultBotId()),
      text: post.text,
      mediaUrls: post.mediaUrls,
    };
  }

  /** A queued post that "share next" may push one slot later: waiting for its own time. */
  private movable(post: LocalPost): boolean {
    return (
      post.origin === 'local' &&
      post.status === 'scheduled' &&
      this.store.outbox.openFor({ postId: post.id })?.priority === PRIORITY.due
    );
  }

  private placeInSlot(target: QueueTarget, at: number, zone: string): LocalPost {
    if (target.post) return this.scheduleAt(target.post, at, zone, target.botId);
    const post = this.store.posts.create({
      botId: target.botId,
      text: target.text,
      mediaUrls: target.mediaUrls,
      scheduledAt: at,
      zone,
    });
    this.enqueuePost(post, 'schedule');
    return this.store.posts.require(post.id);
  }

  /** Schedules a post at `at`: its waiting queue item moves there, or a new one is made. */
  private scheduleAt(post: LocalPost, at: number, zone: string, botId = post.botId): LocalPost {
    const open = this.store.outbox.openFor({ postId: post.id });
    if (open) this.store.outbox.reschedule(open.id, at);
    const updated = this.store.posts.update(post.id, { scheduledAt: at, zone, botId });
    if (open) this.queueChanged(true);
    else this.enqueueAfresh(updated, 'schedule');
    return this.store.posts.require(post.id);
  }

  listPosts(input: OperationInput<'listPosts'> = {}): LocalPost[] {
    const filter = this.validate('listPosts', input);
    return this.store.posts.list({
      ...(filter.from !== undefined ? { from: filter.from } : {}),
      ...(filter.to !== undefined ? { to: filter.to } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.unscheduled ? { unscheduled: true } : {}),
    });
  }

  /** One answer, so the calendar waits for one round trip and draws once. */
  getCalendar(input: OperationInput<'getCalendar'>): CalendarRange {
    const { from, to, zone, perDay, botId, status } = this.validate('getCalendar', input);
    const filter = {
      from,
      to: to - 1,
      ...(status ? { status } : {}),
      ...(botId !== undefined ? { botId } : {}),
    };
    const clock = new WallClock(zone);
    const { posts, hidden } =
      perDay === undefined
        ? { posts: this.store.posts.list(filter), hidden: {} }
        : this.store.posts.listPerDay(filter, perDay, (ms) => clock.wall(ms).slice(0, 10));
    return {
      posts,
      hidden,
      drafts: this.store.posts.list({ status: 'draft', unscheduled: true }),
      freeSlots: this.listFreeSlots({ from, to }),
      bots: this.listBots(),
    };
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
      this.queueChanged();
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
    this.queueChanged();
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
    const listPage = (request: PageRequest) =>
      this.gated(PRIORITY.user, () =>
        client.listSubscribers({ tag, status: 'active', per_page: 200, ...request }),
      );
    const { items } = await readWholeList(listPage);
    recipients.push(
      ...items
        .filter(
          (s) => s.status === 'active' && s.tags.some((t) => t.toLowerCase() === tag.toLowerCase()),
        )
        .map((s) => s.id),
    );
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
    this.queueChanged();
    return { group, recipients: recipients.length };
  }

  broadcastProgress(
    input: OperationInput<'broadcastProgress'>,
  ): Record<OutboxItem['state'], number> {
    return this.store.outbox.counts(this.validate('broadcastProgress', input).group);
  }

  /** Fetches every page of the platform's records into the cache, at the lowest priority. */
  sync(onProgress?: (progress: SyncProgress) => void): Promise<SyncReport> {
    if (!this.puller) throw new NotConnected();
    return this.pull(this.puller, onProgress);
  }

  /** One pull sync; screens showing cached records (orders, bots, ...) hear of it and reload. */
  private async pull(
    puller: PullSync,
    onProgress?: (progress: SyncProgress) => void,
  ): Promise<SyncReport> {
    const report = await puller.run(onProgress);
    this.emit({ type: 'changed', what: 'cache' });
    return report;
  }

  /** Imports a CSV file of posts or products as one undoable batch (see main/csv/import.ts). */
  async importFile(
    input: OperationInput<'importFile'>,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<ImportResult> {
    const request = this.validate('importFile', input);
    if (request.fillSlots && request.kind !== 'posts')
      throw new InvalidInput([{ field: 'fillSlots', message: 'is for posts' }]);
    const result = await importCsv(this.store, request.kind, request.path, {
      dryRun: request.dryRun,
      ...(request.mapping ? { mapping: request.mapping } : {}),
      onError: request.onError,
      queue: request.queue,
      past: request.past,
      ...(request.fillSlots
        ? { fillSlots: { zone: this.zone(), defaultBotId: this.defaultBotId() } }
        : {}),
      duplicates: {
        windowDays: this.windowDays(),
        allow: request.allowDuplicates,
      },
      ...(request.timezone ? { timezone: request.timezone } : {}),
      ...(request.dateFormat ? { dateFormat: request.dateFormat } : {}),
      ...(request.encoding ? { encoding: request.encoding } : {}),
      ...(request.firstRowIsData !== undefined ? { firstRowIsData: request.firstRowIsData } : {}),
      ...(request.bot ? { bot: request.bot } : {}),
      defaultCurrency: this.store.settings.get('default_currency', currencyCode, 'USD'),
      now: this.now(),
      ...(onProgress ? { onProgress } : {}),
    }).catch(mappingAsInput);
    if (result.written) this.emit({ type: 'changed', what: request.kind });
    if (result.written && (request.queue || request.fillSlots)) this.queueChanged();
    return result;
  }

  /** Writes posts or products in the columns import reads; returns how many rows. */
  exportFile(input: OperationInput<'exportFile'>): Promise<number> {
    const { kind, path, bom } = this.validate('exportFile', input);
    return exportCsv(this.store, kind, path, bom);
  }

  undoImport(input: OperationInput<'undoImport'>): ImportUndone {
    const { batch } = this.validate('undoImport', input);
    const undone = this.store.imports.undoBatch(batch);
    if (!undone.ok) throw new NotAllowed(undone.reason);
    this.emit({ type: 'changed', what: undone.kind });
    this.queueChanged();
    return { kind: undone.kind, removed: undone.removed, restored: undone.restored };
  }

  /** The import history: the latest batches, newest first, and why any can no longer be undone. */
  listImports(input: OperationInput<'listImports'> = {}): ImportBatch[] {
    const { limit } = this.validate('listImports', input);
    return this.store.imports.listBatches(limit).map((batch) => ({
      id: batch.id,
      kind: batch.kind,
      fileName: batch.source === null ? null : basename(batch.source),
      at: batch.createdAt,
      inserted: batch.summary.inserted ?? 0,
      updated: batch.summary.updated ?? 0,
      unchanged: batch.summary.unchanged ?? 0,
      invalid: batch.summary.invalid ?? 0,
      leftOut: batch.summary.leftOut ?? 0,
      undoneAt: batch.undoneAt,
      cannotUndo:
        batch.undoneAt !== null
          ? 'undone already'
          : batch.running
            ? 'still importing'
            : batch.goneOut > 0
              ? `${batch.goneOut} of its ${batch.kind} ${batch.goneOut === 1 ? 'has' : 'have'} gone to the platform`
              : null,
      firstAt: batch.firstAt,
    }));
  }

  retryItem(input: OperationInput<'retryItem'>): OutboxItem {
    const { id } = this.validate('retryItem', input);
    if (!this.store.outbox.retry(id, PRIORITY.user))
      throw this.refusal(id, 'retried', 'failed, cancelled or waiting to retry');
    this.queueChanged(true);
    return this.store.outbox.require(id);
  }

  cancelItem(input: OperationInput<'cancelItem'>): OutboxItem {
    const { id } = this.validate('cancelItem', input);
    if (!this.store.outbox.cancel(id))
      throw this.refusal(id, 'cancelled', 'queued, retrying or failed');
    this.queueChanged(true);
    return this.store.outbox.require(id);
  }

  private refusal(id: number, verb: string, allowed: string): Error {
    const item = this.store.outbox.get(id);
    if (!item) return new InvalidInput([{ field: 'id', message: `no queue item ${id}` }]);
    return new NotAllowed(
      `Queue item ${id} is ${item.state}; only items that are ${allowed} can be ${verb}`,
    );
  }

  /**
   * Deletes a post that never went out: a draft, one that failed or was missed, or a scheduled one
   * whose first attempt has not begun (taken out of the queue in the same transaction).
   */
  deletePost(input: OperationInput<'deletePost'>): { removed: number } {
    const { id } = this.validate('deletePost', input);
    const post = this.requirePost(id);
    this.store.transaction(() => {
      this.takeOutOfQueue(post);
      if (!this.store.posts.remove(id))
        throw new NotAllowed(
          `Post ${id} cannot be deleted. ${this.lockedReason(post) ?? `It is ${post.status}`}.`,
        );
    });
    this.emit({ type: 'changed', what: 'posts' });
    return { removed: 1 };
  }

  /** Takes a scheduled post out of the queue: a draft again, at the same time. */
  moveToDrafts(input: OperationInput<'moveToDrafts'>): LocalPost {
    const { id } = this.validate('moveToDrafts', input);
    const post = this.requirePost(id);
    if (post.status !== 'draft') {
      if (post.status !== 'scheduled')
        throw new NotAllowed(
          `Post ${id} is ${post.status}; only a scheduled post can move back to the drafts`,
        );
      this.store.transaction(() => this.takeOutOfQueue(post));
      this.emit({ type: 'changed', what: 'posts' });
    }
    return this.requirePost(id);
  }

  private requirePost(id: number): LocalPost {
    const post = this.store.posts.get(id);
    if (!post) throw new InvalidInput([{ field: 'id', message: `no post ${id}` }]);
    return post;
  }

  /**
   * Cancels a post's queue item while nothing of it has been sent; an item being sent, or whose
   * last attempt's outcome is still to be settled, stays, so a post never goes out unseen.
   */
  private takeOutOfQueue(post: LocalPost): void {
    const item = this.store.outbox.openFor({ postId: post.id });
    if (!item) return;
    if (item.state !== 'queued' || item.attempts > 0 || item.outcomeUnknown)
      throw new NotAllowed(
        `Post ${post.id} is being sent or retried; cancel it in the Queue once its attempt is settled`,
      );
    this.store.outbox.cancel(item.id);
  }

  listProducts(input: OperationInput<'listProducts'> = {}): Page<LocalProduct> {
    return this.store.catalog.page(this.validate('listProducts', input));
  }

  /** Creates a draft product, or edits a draft or failed one (which becomes a draft again). */
  saveProduct(input: OperationInput<'saveProduct'>): LocalProduct {
    const request = this.validate('saveProduct', input);
    const currency =
      request.currency ?? this.store.settings.get('default_currency', currencyCode, 'USD');
    const issues: Issue[] = [];
    if (!isCurrency(currency))
      issues.push({ field: 'currency', message: 'must be an ISO 4217 code such as EUR' });
    const price = isCurrency(currency) ? parsePrice(request.price, currency, 'typed') : null;
    if (price && !price.ok) issues.push({ field: 'price', message: price.reason });
    const owner = this.store.catalog.skuOwner(request.sku);
    if (owner !== undefined && owner !== request.id)
      issues.push({ field: 'sku', message: `is taken by another product (${request.sku})` });
    if (issues.length > 0 || !price?.ok) throw new InvalidInput(issues);
    const fields = {
      sku: request.sku,
      name: request.name,
      description: request.description || null,
      priceMinor: price.value,
      currency,
      stock: request.stock,
      imageUrl: request.imageUrl,
    };
    const saved = this.store.transaction(() => {
      if (request.id === undefined) return this.store.products.create(fields);
      const current = this.store.catalog.get(request.id);
      if (!current) throw new InvalidInput([{ field: 'id', message: `no product ${request.id}` }]);
      if (!this.store.catalog.update(request.id, fields))
        throw new NotAllowed(`Product ${current.sku} cannot be changed. ${productLock(current)}.`);
      return this.store.products.require(request.id);
    });
    this.emit({ type: 'changed', what: 'products' });
    return saved;
  }

  duplicateProduct(input: OperationInput<'duplicateProduct'>): LocalProduct {
    const { id } = this.validate('duplicateProduct', input);
    const original = this.store.catalog.get(id);
    if (!original) throw new InvalidInput([{ field: 'id', message: `no product ${id}` }]);
    const copy = this.store.transaction(() =>
      this.store.products.create({
        sku: this.store.catalog.freeSku(original.sku),
        name: original.name,
        description: original.description,
        priceMinor: original.priceMinor,
        currency: original.currency,
        stock: original.stock,
        imageUrl: original.imageUrl,
      }),
    );
    this.emit({ type: 'changed', what: 'products' });
    return copy;
  }

  /** Deletes the drafts (and failed products) among `ids`; published ones stay, and say so. */
  deleteProducts(input: OperationInput<'deleteProducts'>): { removed: number } {
    const { ids } = this.validate('deleteProducts', input);
    const removed = this.store.catalog.remove(ids);
    if (removed === 0)
      throw new NotAllowed(
        'None of these products can be deleted: only drafts and failed products can',
      );
    this.emit({ type: 'changed', what: 'products' });
    return { removed };
  }

  listQueue(input: OperationInput<'listQueue'> = {}): QueueRow[] {
    const { states, limit } = this.validate('listQueue', input);
    return queueRows(this.store, { states, limit, now: this.now() });
  }

  listBots(): BotSummary[] {
    return this.store.cache.bots();
  }

  listSubscribers(input: OperationInput<'listSubscribers'> = {}): Page<SubscriberSummary> {
    return this.store.cache.subscribers(this.validate('listSubscribers', input));
  }

  getSubscriber(input: OperationInput<'getSubscriber'>): SubscriberDetail {
    const { id } = this.validate('getSubscriber', input);
    const subscriber = this.store.cache.subscriber(id);
    if (!subscriber) throw new InvalidInput([{ field: 'id', message: `no subscriber ${id}` }]);
    return subscriber;
  }

  listOrders(input: OperationInput<'listOrders'> = {}): Page<OrderSummary> {
    return this.store.cache.orders(this.validate('listOrders', input));
  }

  /** Asks the platform's AI for a draft, a shorter or reworded text, or hashtags. */
  async aiAssist(input: OperationInput<'aiAssist'>): Promise<AiAssistReply> {
    const { task, text, provider } = this.validate('aiAssist', input);
    const client = this.requireClient();
    const answer = await this.gated(PRIORITY.user, () =>
      client.aiChat({
        messages: [
          { role: 'system', content: AI_INSTRUCTIONS[task] },
          { role: 'user', content: text },
        ],
        max_tokens: task === 'hashtags' ? 60 : 400,
        ...(provider ? { provider } : {}),
      }),
    );
    return { text: answer.message.content.trim(), ...answerInfo(answer) };
  }

  /**
   * Asks the platform's AI for `count` posts from a brief, and reads them out of its answer.
   * Nothing is saved: a failure leaves the workspace as it was.
   */
  async draftCampaign(input: OperationInput<'draftCampaign'>): Promise<CampaignDrafts> {
    const request = this.validate('draftCampaign', input);
    const client = this.requireClient();
    const botId = request.botId ?? this.defaultBotId();
    const bot = this.store.cache.bots().find((candidate) => candidate.id === botId);
    const brief = {
      brief: request.brief,
      count: request.count,
      tone: request.tone,
      hashtags: request.hashtags,
      channel: bot?.channel ?? null,
      botName: bot?.name ?? null,
    };
    const estimate = estimateCampaign(brief);
    const answer = await this.gated(PRIORITY.user, () =>
      client.aiChat({
        messages: campaignMessages(brief),
        max_tokens: estimate.maxTokens,
        ...(request.provider ? { provider: request.provider } : {}),
      }),
    );
    const truncated = answer.finish_reason === 'length';
    return {
      drafts: parseCampaignReply(answer.message.content, request.count, truncated),
      requested: request.count,
      estimate,
      truncated,
      ...answerInfo(answer),
    };
  }

  /** Saves the campaign drafts the user kept, as drafts or each in the bot's next free slot. */
  saveCampaignDrafts(input: OperationInput<'saveCampaignDrafts'>): LocalPost[] {
    const { drafts, placement, allowDuplicate, ...request } = this.validate(
      'saveCampaignDrafts',
      input,
    );
    const zone = this.zone();
    const botId = request.botId ?? this.defaultBotId();
    const saved = this.store.transaction(() => {
      if (placement === 'drafts')
        return drafts.map((text) =>
          this.store.posts.create({ botId, text, mediaUrls: [], scheduledAt: null, zone }),
        );
      const cursor = new SlotCursor(this.store, zone, this.now());
      return drafts.map((text) => {
        const target = this.queueTarget({ text, allowDuplicate, ...(botId ? { botId } : {}) });
        const next = cursor.next(target.botId);
        if (!next.ok) throw noSlot(next.reason);
        // Earlier drafts are stored by now, so the guard compares the campaign's posts too.
        this.guardDuplicate({ botId: target.botId, text, at: next.at }, allowDuplicate);
        cursor.take(target.botId, next.at);
        return this.placeInSlot(target, next.at, zone);
      });
    });
    this.emit({ type: 'changed', what: 'posts' });
    return saved;
  }

  /** Tokens per day and provider over the last `days` days (UTC dates, as the platform counts). */
  async aiUsage(input: OperationInput<'aiUsage'> = {}): Promise<AiUsageDay[]> {
    const { days } = this.validate('aiUsage', input);
    const client = this.requireClient();
    const to = new Date(this.now());
    const from = new Date(this.now() - (days - 1) * 86_400_000);
    const report = await this.gated(PRIORITY.user, () =>
      client.aiUsage({ from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) }),
    );
    return report.data.map((day) => ({
      date: day.date,
      totalTokens: day.total_tokens,
      providers: day.providers.map((entry) => ({
        provider: entry.provider,
        totalTokens: entry.total_tokens,
        requests: entry.requests,
      })),
    }));
  }

  listWebhooks(): { subscriptions: WebhookInfo[]; receiverUrl: string | null } {
    return { subscriptions: this.store.webhooks.list(), receiverUrl: this.receiver?.url ?? null };
  }

  async createWebhook(input: OperationInput<'createWebhook'>): Promise<WebhookInfo> {
    const { url, events } = this.validate('createWebhook', input);
    const client = this.requireClient();
    // Our own receiver checks signatures with its secret; other receivers get the platform's.
    const secret = url === this.receiver?.url ? { secret: this.receiver.secret } : {};
    const created = await this.gated(PRIORITY.user, () =>
      client.createWebhook({ url, events, ...secret }),
    );
    return this.store.webhooks.add({ id: created.id, url: created.url, events: created.events });
  }

  listReceivedEvents(input: OperationInput<'listReceivedEvents'> = {}): ReceivedEvent[] {
    return this.store.webhooks.received(this.validate('listReceivedEvents', input).limit);
  }

  /** An event the webhook receiver got (signature already checked); kept once, then announced. */
  receiveEvent(event: { id: string; type: string; payload: unknown }): void {
    const kept = this.store.webhooks.receive(event);
    if (kept) this.emit({ type: 'received', event: kept });
  }

  getSettings(): WorkspaceSettings {
    const settings = this.store.settings;
    return {
      timezone: this.zone(),
      graceMinutes: settings.get('grace_minutes', graceMinutes, 30),
      theme: settings.get('theme', theme, 'system'),
      defaultCurrency: settings.get('default_currency', currencyCode, 'USD'),
      defaultBotId: this.defaultBotId(),
      duplicateWindowDays: this.windowDays(),
    };
  }

  saveSettings(input: OperationInput<'saveSettings'>): WorkspaceSettings {
    const request = this.validate('saveSettings', input);
    const keys = {
      timezone: 'timezone',
      graceMinutes: 'grace_minutes',
      theme: 'theme',
      defaultCurrency: 'default_currency',
      defaultBotId: 'default_bot_id',
      duplicateWindowDays: 'duplicate_window_days',
    } as const;
    this.store.transaction(() => {
      for (const [field, key] of Object.entries(keys) as [keyof typeof keys, string][]) {
        if (request[field] !== undefined) this.store.settings.set(key, request[field]);
      }
    });
    this.emit({ type: 'changed', what: 'settings' });
    return this.getSettings();
  }

  /** Imports a file the renderer read, from a private temporary copy named as the user's. */
  async importUpload(input: OperationInput<'importUpload'>): Promise<ImportResult> {
    const { fileName, contentBase64, ...options } = this.validate('importUpload', input);
    return withUpload(fileName, contentBase64, (path) =>
      this.importFile({ ...options, path }, (progress) => this.emit({ type: 'import', progress })),
    );
  }

  /** What the import wizard shows before importing: detection, mapping, sample rows, a dry run. */
  async previewUpload(input: OperationInput<'previewUpload'>): Promise<ImportPreview> {
    const { fileName, contentBase64, sampleRows, ...options } = this.validate(
      'previewUpload',
      input,
    );
    return withUpload(fileName, contentBase64, async (path) => {
      const file = await openCsv(path, {
        ...(options.encoding ? { encoding: options.encoding } : {}),
        firstRowIsData: options.firstRowIsData ?? ((cells) => looksLikeData(options.kind, cells)),
      });
      const sample: ImportPreview['sample'] = [];
      for await (const row of file.rows) {
        sample.push(row);
        if (sample.length >= sampleRows) break;
      }
      let matched: ReturnType<typeof mapColumns>;
      try {
        matched = mapColumns(
          options.kind,
          file.header,
          file.firstRowIsData && options.kind === 'posts'
            ? positionalMapping(file.header, options.mapping)
            : options.mapping,
        );
      } catch (error) {
        return mappingAsInput(error);
      }
      const fieldAt = new Map<number, string>();
      for (const [field, index] of Object.entries<number>(matched.columns))
        fieldAt.set(index, field);
      for (const [field, indexes] of Object.entries<number[]>(matched.extra))
        for (const index of indexes) fieldAt.set(index, field);
      const mapping = Object.fromEntries(
        file.header.map((header, index) => [header, fieldAt.get(index) ?? null]),
      );
      let result: ImportResult | null = null;
      let problem: string | null = null;
      try {
        result = await this.importFile({ ...options, path, dryRun: true });
      } catch (error) {
        if (!(error instanceof UnusableFile)) throw error;
        problem = error.message.replace(path, basename(path));
      }
      const source = detectSource(options.kind, file.header, file.firstRowIsData);
      return {
        source: source ? SOURCE_LABELS[source] : null,
        firstRowIsData: file.firstRowIsData,
        encoding: file.encoding,
        delimiter: file.delimiter,
        headers: file.header,
        fields: Object.entries(FIELDS[options.kind]).map(([name, spec]) => ({
          name,
          required: spec.required,
          aliases: [...spec.aliases],
        })),
        mapping,
        sample,
        result,
        problem,
      };
    });
  }

  /** CSV text of every post or product, in the columns import reads. */
  async exportText(
    input: OperationInput<'exportText'>,
  ): Promise<{ fileName: string; csv: string; rows: number }> {
    const { kind, bom } = this.validate('exportText', input);
    const fileName = `pressroom-${kind}-${new Date(this.now()).toISOString().slice(0, 10)}.csv`;
    return withTemporaryFolder(async (folder) => {
      const path = join(folder, fileName);
      const rows = await exportCsv(this.store, kind, path, bom);
      return { fileName, csv: await readFile(path, 'utf8'), rows };
    });
  }

  /** One platform request at `priority`, through the rate-limit governor like every other. */
  private async gated<T>(priority: Priority, request: () => Promise<T>): Promise<T> {
    const release = await this.governor.acquire(priority);
    try {
      return await request();
    } finally {
      release();
    }
  }

  /**
   * The outbox changed at the user's hand: watchers (another window) read it again, and the
   * publisher looks at once. `posts` when posts' states changed with it.
   */
  private queueChanged(posts = false): void {
    if (posts) this.emit({ type: 'changed', what: 'posts' });
    this.emit({ type: 'changed', what: 'queue' });
    void this.scheduler?.wake();
  }

  private emit(event: CoreEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** True when a platform account (base URL and token) is set. */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Follows the queue's events (the UI's live view); returns the way to stop. */
  subscribe(listener: (event: CoreEvent) => void): () => void {
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
    this.queueChanged();
  }

  status(): Status {
    return {
      outbox: this.store.outbox.counts(),
      posts: this.store.posts.counts(),
      products: this.store.products.counts(),
      rateLimit: this.governor.state(),
      paused: this.publisher?.paused ?? null,
      online: this.online,
      requests: this.stats.requests,
      rateLimited: this.stats.rateLimited,
      sync: this.store.cache.syncStates(),
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

  /**
   * Runs the heartbeat, and pull sync every `syncEveryMs` (5 minutes), until `stop` resolves; the
   * first sync at once, unless the caller has just synced.
   */
  async watch(stop: Promise<unknown>, syncEveryMs = 5 * 60_000, synced = false): Promise<void> {
    this.requirePublisher();
    this.scheduler?.start();
    const syncNow = () => void (this.puller && this.pull(this.puller).catch(() => undefined));
    if (!synced) syncNow();
    const syncing = setInterval(syncNow, syncEveryMs);
    await stop;
    clearInterval(syncing);
    await this.scheduler?.stop();
  }

  /**
   * Null while this process publishes the workspace, else why not: one process at a time does
   * (the desktop app, `serve` and `publish --watch` may all open one file), by a lease it beats.
   * Taking the lease over from a process that stopped recovers what that one left mid-send.
   */
  private publishingRefusal(): string | null {
    const taken = this.store.lease.take(this.leaseOwner, LEASE_STALE_MS);
    if (!taken.ok)
      return `Another Pressroom process (${taken.pid} on ${taken.host}) publishes this workspace; this one does not`;
    if (taken.fresh) this.store.outbox.recoverInterrupted();
    this.leaseBeat ??= setInterval(
      () => this.store.lease.beat(this.leaseOwner),
      LEASE_STALE_MS / 3,
    ).unref();
    return null;
  }

  close(): void {
    if (this.leaseBeat) {
      clearInterval(this.leaseBeat);
      this.leaseBeat = null;
      this.store.lease.release(this.leaseOwner);
    }
    this.store.close();
  }
}
