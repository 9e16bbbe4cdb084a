// Posting slots over the workspace's posts (Node, main process): the shared schedule rules
// (shared/schedule.ts) applied to what is stored. Used by the core and by CSV import; it only
// reads, and leaves every write to its caller, inside the caller's transaction.
import type { LocalPost } from '../../shared/domain';
import { outgoingAt } from '../../shared/duplicates';
import { SLOT_HORIZON_DAYS, hasSlots, slotMinute, upcomingSlots } from '../../shared/schedule';
import type { WeeklySchedule } from '../../shared/schedule';
import type { PostsStore } from './posts';
import type { SchedulesStore } from './schedules';

/** What slots are read from: the posts that hold them and the bots' schedules. */
export interface SlotData {
  posts: PostsStore;
  schedules: SchedulesStore;
}

export type SlotAnswer = { ok: true; at: number } | { ok: false; reason: string };

/** The bot's posts that hold a slot after `afterMs`, but `exceptId` (a post about to move). */
function slotHolders(
  store: SlotData,
  botId: string,
  afterMs: number,
  exceptId?: number,
): LocalPost[] {
  return store.posts
    .goingOut(botId, afterMs + 1, Number.MAX_SAFE_INTEGER)
    .filter((post) => post.id !== exceptId);
}

/** When the bot's posts after `afterMs` go out (the slots they hold), but `exceptId`. */
export function heldTimes(
  store: SlotData,
  botId: string,
  afterMs: number,
  exceptId?: number,
): number[] {
  return slotHolders(store, botId, afterMs, exceptId).map((post) => outgoingAt(post) ?? afterMs);
}

const noSchedule = (botId: string) => `${botId} has no posting schedule; set one first`;
const noFreeSlot = (botId: string) =>
  `${botId} has no free posting slot in the next ${SLOT_HORIZON_DAYS} days`;

interface BotSlots {
  schedule: WeeklySchedule;
  /** The bot's slots in order, walked once: a slot passed is taken. */
  upcoming: Iterator<number, void>;
  current: number | undefined;
  /** Minutes taken: by stored posts, and by what the caller took. */
  held: Set<number>;
}

/**
 * Hands out each bot's free slots in order, remembering what it handed out and what else the
 * caller took, so one import or one campaign never gives a slot twice before anything is written.
 * Each bot's slots are walked once, so filling a thousand slots costs a thousand, not a million.
 */
export class SlotCursor {
  private readonly bots = new Map<string, BotSlots>();

  /** `exceptId`: a post about to move, whose own slot counts as free. */
  constructor(
    private readonly store: SlotData,
    readonly zone: string,
    private readonly afterMs: number,
    private readonly exceptId?: number,
  ) {}

  private slots(botId: string): BotSlots {
    let slots = this.bots.get(botId);
    if (!slots) {
      const schedule = this.store.schedules.get(botId);
      const upcoming = upcomingSlots(schedule, this.zone, this.afterMs);
      const first = upcoming.next();
      slots = {
        schedule,
        upcoming,
        current: first.done ? undefined : first.value,
        held: new Set(heldTimes(this.store, botId, this.afterMs, this.exceptId).map(slotMinute)),
      };
      this.bots.set(botId, slots);
    }
    return slots;
  }

  /** The bot's next free slot, or why it has none. */
  next(botId: string): SlotAnswer {
    const slots = this.slots(botId);
    if (!hasSlots(slots.schedule)) return { ok: false, reason: noSchedule(botId) };
    while (slots.current !== undefined && slots.held.has(slotMinute(slots.current))) {
      const step = slots.upcoming.next();
      slots.current = step.done ? undefined : step.value;
    }
    return slots.current === undefined
      ? { ok: false, reason: noFreeSlot(botId) }
      : { ok: true, at: slots.current };
  }

  /** Marks a time as taken: the slot `next` answered, or one a post was given otherwise. */
  take(botId: string, at: number): void {
    this.slots(botId).held.add(slotMinute(at));
  }
}

export type FrontOfQueue =
  | { ok: true; at: number; moves: { post: LocalPost; to: number }[] }
  | { ok: false; reason: string };

/**
 * Where "share next" puts a post: the bot's next slot. The posts holding it and the slots after
 * it, one after another, each move one slot later until a free slot takes the last of them; a
 * slot held by a post that cannot move (`movable` says) is stepped over.
 */
export function frontOfQueue(
  store: SlotData,
  botId: string,
  zone: string,
  now: number,
  exceptId: number | undefined,
  movable: (post: LocalPost) => boolean,
): FrontOfQueue {
  const schedule = store.schedules.get(botId);
  if (!hasSlots(schedule)) return { ok: false, reason: noSchedule(botId) };
  const bySlot = new Map<number, LocalPost[]>();
  for (const post of slotHolders(store, botId, now, exceptId)) {
    const minute = slotMinute(outgoingAt(post) ?? now);
    bySlot.set(minute, [...(bySlot.get(minute) ?? []), post]);
  }
  // null stands for the post being shared, first in line.
  const waiting: (LocalPost | null)[] = [null];
  const moves: { post: LocalPost; to: number }[] = [];
  let at: number | null = null;
  for (const slot of upcomingSlots(schedule, zone, now)) {
    const holders = bySlot.get(slotMinute(slot)) ?? [];
    if (holders.some((post) => !movable(post))) continue;
    waiting.push(...holders);
    const next = waiting.shift();
    if (next === null) at = slot;
    else if (next) moves.push({ post: next, to: slot });
    if (waiting.length === 0 && at !== null) return { ok: true, at, moves };
  }
  return { ok: false, reason: noFreeSlot(botId) };
}
