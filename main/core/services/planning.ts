// Planning (Node, main process): bots' weekly schedules, their free slots, the calendar, and
// placing posts in slots ("add to queue", "share next", a campaign's drafts one slot each).
import type { z } from 'zod';
import type { CheckedInput, Operations } from '../../../shared/contract';
import type { CalendarRange, OperationResults } from '../../../shared/answers';
import type { BotSchedule, FreeSlot, LocalPost, SharedNext } from '../../../shared/domain';
import { PRIORITY } from '../../../shared/domain';
import { outgoingAt } from '../../../shared/duplicates';
import {
  formatSchedule,
  freeSlotsBetween,
  nextFreeSlots,
  parseSchedule,
} from '../../../shared/schedule';
import { WallClock } from '../../../shared/time';
import { SlotCursor, frontOfQueue, heldTimes } from '../../store/slots';
import type { SlotData } from '../../store/slots';
import type { Transactional } from '../../store/transaction';
import type { SchedulesStore } from '../../store/schedules';
import { InvalidInput, NotAllowed } from '../errors';
import type { CoreEvents } from '../events';
import type { Outbox } from '../outbox';
import type { BotsService } from './bots';
import type { MediaService } from './media';
import type { PostsService } from './posts';
import type { SettingsService } from './settings';

/** What planning reads and writes of the store: posts and schedules; the outbox through its owner. */
export interface PlanningData extends SlotData, Transactional {
  schedules: SchedulesStore;
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

export class PlanningService {
  constructor(
    private readonly store: PlanningData,
    private readonly outbox: Outbox,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly settings: SettingsService,
    private readonly posts: PostsService,
    private readonly bots: BotsService,
    private readonly media: MediaService,
  ) {}

  getSchedule(input: CheckedInput<'getSchedule'>): BotSchedule {
    return this.botSchedule(input.botId);
  }

  /** Replaces a bot's weekly schedule, given as text ("mon-fri 09:00,17:00; sat 10:00"). */
  setSchedule(input: CheckedInput<'setSchedule'>): BotSchedule {
    const { botId, schedule } = input;
    const parsed = parseSchedule(schedule);
    if (!parsed.ok) throw new InvalidInput([{ field: 'schedule', message: parsed.reason }]);
    this.store.transaction(() => this.store.schedules.set(botId, parsed.value));
    this.events.emit({ type: 'changed', what: 'schedules' });
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
    const zone = this.settings.zone();
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
  listFreeSlots(input: CheckedInput<'listFreeSlots'>): FreeSlot[] {
    const { from, to, botId } = input;
    const zone = this.settings.zone();
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

  /** One answer, so the calendar waits for one round trip and draws once. */
  getCalendar(input: CheckedInput<'getCalendar'>): CalendarRange {
    const { from, to, zone, perDay, botId, status } = input;
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
    // A post that failed to publish now has no time, so no day: it waits here, first, to be seen.
    const drafts = ['failed' as const, 'draft' as const].flatMap((state) =>
      this.store.posts.list({ status: state, unscheduled: true }),
    );
    return {
      posts,
      hidden,
      drafts,
      freeSlots: this.listFreeSlots({ from, to }),
      bots: this.bots.listBots(),
      thumbnails: this.media.firstThumbnails([...posts, ...drafts]),
    };
  }

  /** "Add to queue": the post goes into its bot's next free slot, scheduled. */
  addToQueue(request: CheckedInput<'addToQueue'>): LocalPost {
    const zone = this.settings.zone();
    const placed = this.store.transaction(() => {
      const target = this.queueTarget(request);
      const next = new SlotCursor(this.store, zone, this.now(), target.post?.id).next(target.botId);
      if (!next.ok) throw noSlot(next.reason);
      this.posts.guardDuplicate(
        { id: target.post?.id, botId: target.botId, text: target.text, at: next.at },
        request.allowDuplicate,
      );
      return this.placeInSlot(target, next.at, zone);
    });
    this.events.emit({ type: 'changed', what: 'posts' });
    return placed;
  }

  /**
   * "Share next": the post takes its bot's next slot, and the queued posts in the slots after it,
   * one after another, move one slot later each (see store/planning.ts frontOfQueue).
   */
  shareNext(request: CheckedInput<'shareNext'>): SharedNext {
    const zone = this.settings.zone();
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
      this.posts.guardDuplicate(
        { id: target.post?.id, botId: target.botId, text: target.text, at: front.at },
        request.allowDuplicate,
      );
      const moved = front.moves.map(({ post, to }) => {
        this.scheduleAt(post, to, post.zone ?? zone);
        return { id: post.id, from: post.scheduledAt ?? to, to };
      });
      return { post: this.placeInSlot(target, front.at, zone), moved };
    });
    this.events.emit({ type: 'changed', what: 'posts' });
    return shared;
  }

  /**
   * Each text a new post of `botId` (else the default bot) in that bot's next free slot, one
   * after another, each checked by the duplicate guard. Runs inside the caller's transaction.
   */
  placeInNextSlots(
    texts: string[],
    botId: string | null,
    allowDuplicate: boolean,
    zone: string,
  ): LocalPost[] {
    const cursor = new SlotCursor(this.store, zone, this.now());
    return texts.map((text) => {
      const target = this.queueTarget({ text, allowDuplicate, ...(botId ? { botId } : {}) });
      const next = cursor.next(target.botId);
      if (!next.ok) throw noSlot(next.reason);
      // Earlier texts are stored by now, so the guard compares the campaign's posts too.
      this.posts.guardDuplicate({ botId: target.botId, text, at: next.at }, allowDuplicate);
      cursor.take(target.botId, next.at);
      return this.placeInSlot(target, next.at, zone);
    });
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
        botId: bot(request.botId ?? this.settings.defaultBotId()),
        text: request.text ?? '',
        mediaUrls: request.mediaUrls ?? [],
      };
    const post = this.posts.editablePost(request.id);
    const open = this.outbox.openFor({ postId: post.id });
    if (open && open.priority !== PRIORITY.due)
      throw new NotAllowed(
        `Post ${post.id} is queued to go out now or be handed off; cancel it in the queue first`,
      );
    return {
      post,
      botId: bot(post.botId ?? this.settings.defaultBotId()),
      text: post.text,
      mediaUrls: post.mediaUrls,
    };
  }

  /** A queued post that "share next" may push one slot later: waiting for its own time. */
  private movable(post: LocalPost): boolean {
    return (
      post.origin === 'local' &&
      post.status === 'scheduled' &&
      this.outbox.openFor({ postId: post.id })?.priority === PRIORITY.due
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
    this.posts.enqueuePost(post, 'schedule');
    return this.store.posts.require(post.id);
  }

  /** Schedules a post at `at`: its waiting queue item moves there, or a new one is made. */
  private scheduleAt(post: LocalPost, at: number, zone: string, botId = post.botId): LocalPost {
    const open = this.outbox.openFor({ postId: post.id });
    const updated = this.store.posts.update(post.id, { scheduledAt: at, zone, botId });
    if (open) this.outbox.reschedule(open.id, at);
    else this.posts.enqueuePost(updated, 'schedule', true);
    return this.store.posts.require(post.id);
  }
}
