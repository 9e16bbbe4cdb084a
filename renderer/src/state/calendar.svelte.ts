// The calendar screen's state (browser): posts of the visible range and the unscheduled drafts,
// the free posting slots drawn faintly behind them, bot and status filters, the events the
// calendar draws, drag-to-reschedule with rollback (asking first when the duplicate guard
// objects), the time zone, and live reloads from core events. The calendar works in wall times of
// the user's zone; this module turns them into instants, so the calendar component stays a thin
// wrapper.
import { Temporal } from 'temporal-polyfill';
import type { Calendar } from '@event-calendar/core';
import type { CoreEvent } from '../../../shared/contract';
import type { BotSummary, FreeSlot, LocalPost, PostStatus } from '../../../shared/domain';
import { WallClock } from '../../../shared/time';
import { coalesce } from '../components/common/coalesce';
import { wallTime } from '../components/common/format';
import type { Shell } from './shell.svelte';
import {
  NOT_GONE_OUT,
  STATUS_MARKS,
  lockReason,
  readWhen,
  type EditorStart,
} from './post-editor.svelte';

export const CALENDAR_VIEWS = [
  { id: 'dayGridMonth', label: 'Month', key: 'm' },
  { id: 'timeGridWeek', label: 'Week', key: 'w' },
  { id: 'timeGridDay', label: 'Day', key: 'd' },
  { id: 'listMonth', label: 'List', key: 'l' },
] as const;

/** The bot filter's value for posts that have no bot. */
export const NO_BOT = '(none)';

/** How long a post or a free slot looks on the time grid; both are instants, so only for show. */
const SHOWN_MINUTES = 30;

/** The time a new post gets when a day without a free slot is clicked in the month view. */
const DAY_CLICK_TIME = '09:00';

/** What each calendar event carries besides its dates (a type, so it fits the calendar's record). */
export type PostEventProps = {
  postId: number;
  status: PostStatus;
  statusLabel: string;
  icon: string;
  /** Why it cannot be moved, or null. */
  locked: string | null;
  botName: string;
};

/** The post an event stands for, as toEvent put it there (the calendar types it as a record). */
export function postOf(event: { extendedProps?: Record<string, unknown> }): PostEventProps {
  return event.extendedProps as unknown as PostEventProps;
}

/** A wall-clock range the calendar shows, in the user's zone; `end` is exclusive. */
export interface WallRange {
  start: string;
  end: string;
  /** The calendar view showing it (CALENDAR_VIEWS ids). */
  view?: string;
}

/**
 * Posts drawn per day in the views that show many days, before one "+N more" event stands for
 * the rest. A month cell shows two or three posts anyway, and drawing thousands of hidden events
 * is what makes a busy month slow (5,000 posts took seconds); the Day and List views show all.
 */
const DAY_CAPS: Partial<Record<string, number>> = { dayGridMonth: 3, timeGridWeek: 24 };

/** What the "+N more" event carries: the day it stands for and how many posts it hides. */
export type MoreEventProps = { moreOn: string; hidden: number };

/** The "+N more" event's props, or null for a post's event. */
export function moreOf(event: { extendedProps?: Record<string, unknown> }): MoreEventProps | null {
  return event.extendedProps && 'moreOn' in event.extendedProps
    ? (event.extendedProps as unknown as MoreEventProps)
    : null;
}

/**
 * At most `cap` events per wall-clock day, in the given order; "+N more" takes the last place.
 * Only the drawn items become events: a busy month holds thousands that are never drawn.
 */
function capPerDay<T>(
  items: T[],
  cap: number,
  dayOf: (item: T) => string,
  draw: (item: T) => Calendar.EventInput,
  more: (day: string, hidden: number) => Calendar.EventInput,
): Calendar.EventInput[] {
  const perDay: Record<string, { drawn: T[]; hidden: number }> = {};
  for (const item of items) {
    const entry = (perDay[dayOf(item)] ??= { drawn: [], hidden: 0 });
    if (entry.drawn.length < cap) entry.drawn.push(item);
    else entry.hidden++;
  }
  return Object.entries(perDay).flatMap(([day, { drawn, hidden }]) =>
    hidden === 0 ? drawn.map(draw) : [...drawn.slice(0, -1).map(draw), more(day, hidden + 1)],
  );
}

/**
 * The "+N more" event of a day. The month view draws all-day events first, so there it is timed
 * at the day's last minute to come last; the week view shows it in its all-day row.
 */
function moreEvent(day: string, hidden: number, view: string): Calendar.EventInput {
  const extendedProps: MoreEventProps = { moreOn: day, hidden };
  const lastMinute = `${day}T23:59:00`;
  return {
    id: `more-${day}`,
    allDay: view !== 'dayGridMonth',
    start: view === 'dayGridMonth' ? lastMinute : day,
    end: view === 'dayGridMonth' ? lastMinute : day,
    title: `+${hidden} more`,
    startEditable: false,
    durationEditable: false,
    classNames: ['post-more'],
    extendedProps,
  };
}

/**
 * A free slot on the time grid: a faint band in its bot's colour behind the posts. Background
 * events take no room from posts and let clicks through to the time under them (dateClick).
 */
function slotEvent(slot: FreeSlot, clock: WallClock): Calendar.EventInput {
  return {
    id: `free-${slot.botId}-${slot.at}`,
    start: clock.wall(slot.at),
    end: clock.wall(slot.at, SHOWN_MINUTES),
    display: 'background',
    backgroundColor: botColour(slot.botId),
    classNames: ['free-slot'],
  };
}

/**
 * The month view's one marker for a day with free slots: the library draws only all-day events
 * in the background there, and a tint per day is all a month cell has room for.
 */
function freeDayEvent(day: string): Calendar.EventInput {
  return {
    id: `free-${day}`,
    allDay: true,
    start: day,
    end: day,
    display: 'background',
    classNames: ['free-day'],
  };
}

/** Minutes since midnight of an "HH:MM" wall time. */
function minuteOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** How far a drag moved an event, in wall-clock terms (the calendar's Duration). */
export type WallDelta = Pick<Calendar.Duration, 'years' | 'months' | 'days' | 'seconds'>;

/**
 * The instant a range the calendar shows starts or ends at. A day whose midnight the clocks skip
 * starts when they land, so the range never fails to load.
 */
function boundary(wall: string, zone: string): number {
  return Temporal.PlainDateTime.from(wall).toZonedDateTime(zone, { disambiguation: 'compatible' })
    .epochMilliseconds;
}

/** ISO 8601 with the zone's offset at that instant, as the core wants times sent. */
export function isoWithOffset(ms: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .toString({ timeZoneName: 'never', smallestUnit: 'minute' });
}

/**
 * The zone's offset now, for the calendar's `timeZone` option (it takes offsets, not IANA names).
 * It only decides "today" and the now line; events come as wall times, so DST never shifts them.
 */
export function currentOffset(zone: string, now = Date.now()): string {
  return Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone).offset.slice(0, 6);
}

/** Marks a post that cannot be moved (a glyph common fonts have, unlike emoji). */
export const LOCK_ICON = '⊘';

/**
 * A stable colour per bot, the same on every run. Ids that differ in one character (bot_1, bot_2)
 * land a golden angle apart on the hue wheel, so they look different; 28 % lightness keeps white
 * text above 4.5:1 contrast on every hue.
 */
export function botColour(botId: string | null): string {
  if (botId === null) return 'hsl(0 0% 38%)';
  let hash = 0;
  for (const char of botId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${Math.round((hash * 137.508) % 360)} 62% 28%)`;
}

function nameOf(names: Record<string, string>, botId: string | null): string {
  return botId === null ? 'No bot' : (names[botId] ?? botId);
}

/** One post as the calendar's event, at its time (`at`) on the zone's wall clock. */
function toEvent(
  post: LocalPost,
  at: number,
  clock: WallClock,
  botName: string,
): Calendar.EventInput {
  const locked = lockReason(post);
  const mark = STATUS_MARKS[post.status];
  const extendedProps: PostEventProps = {
    postId: post.id,
    status: post.status,
    statusLabel: mark.label,
    icon: mark.icon,
    locked,
    botName,
  };
  return {
    id: String(post.id),
    start: clock.wall(at),
    end: clock.wall(at, SHOWN_MINUTES),
    title: post.text.split('\n', 1)[0] ?? '',
    // Locked posts can be picked up too, so a drop can say why they stay (then revert).
    startEditable: true,
    durationEditable: false,
    backgroundColor: botColour(post.botId),
    textColor: '#ffffff',
    classNames: locked ? [`post-${post.status}`, 'post-locked'] : [`post-${post.status}`],
    extendedProps,
  };
}

export class CalendarState {
  posts = $state.raw<LocalPost[]>([]);
  /** Drafts without a time, listed beside the calendar. */
  drafts = $state.raw<LocalPost[]>([]);
  /** The visible range's posting slots that no post holds, by time (every bot with a schedule). */
  freeSlots = $state.raw<FreeSlot[]>([]);
  bots = $state.raw<BotSummary[]>([]);
  botFilter = $state('');
  statusFilter = $state<PostStatus | ''>('');
  loading = $state(false);
  /** Whether a first answer came, so "nothing here" is not said before anything was read. */
  loaded = $state(false);
  /** The core's message when the posts could not be read. */
  loadError = $state<string | null>(null);
  private range: WallRange | null = null;
  /** The calendar view shown (CALENDAR_VIEWS ids), which decides how many posts a day draws. */
  view = $state<string>(CALENDAR_VIEWS[0].id);
  private generation = 0;
  /** Live events come in bursts; they collapse into one reload at a time. */
  private readonly reload = coalesce(() => this.load());

  private readonly botNames: Record<string, string> = $derived(
    Object.fromEntries(this.bots.map((bot) => [bot.id, bot.name])),
  );
  readonly filtered = $derived(this.botFilter !== '' || this.statusFilter !== '');
  readonly visible = $derived(this.posts.filter(this.matcher()));
  readonly visibleDrafts = $derived(this.drafts.filter(this.matcher()));
  /**
   * What the calendar draws. A month can hold thousands of posts, so every reactive value is read
   * once per run, not once per post, and wall times come from one WallClock per zone.
   */
  readonly events = $derived.by(() => {
    const clock = new WallClock(this.zone);
    const names = this.botNames;
    const cap = DAY_CAPS[this.view];
    const scheduled = this.visible.filter((post) => post.scheduledAt !== null);
    const draw = (post: LocalPost) =>
      toEvent(post, post.scheduledAt ?? 0, clock, nameOf(names, post.botId));
    if (cap === undefined) return scheduled.map(draw);
    // Sorted by time first, so a day past its cap keeps its earliest posts.
    scheduled.sort((a, b) => (a.scheduledAt ?? 0) - (b.scheduledAt ?? 0));
    const view = this.view;
    return capPerDay(
      scheduled,
      cap,
      (post) => clock.wall(post.scheduledAt ?? 0).slice(0, 10),
      draw,
      (day, hidden) => moreEvent(day, hidden, view),
    );
  });
  /** Free slots of the bots the filter shows (a post without a bot holds no slot). */
  readonly visibleSlots = $derived.by(() => {
    const bot = this.botFilter;
    return bot ? this.freeSlots.filter((slot) => slot.botId === bot) : this.freeSlots;
  });
  /** Free slots as the view draws them: a band each on the time grid, a marked day in a month. */
  readonly slotEvents = $derived.by(() => {
    const clock = new WallClock(this.zone);
    const slots = this.visibleSlots;
    if (this.view !== 'dayGridMonth') return slots.map((slot) => slotEvent(slot, clock));
    // Slots come by time, so a day's slots are side by side: one marker for each run of a day.
    const days = slots.map((slot) => clock.wall(slot.at).slice(0, 10));
    return days.filter((day, index) => day !== days[index - 1]).map(freeDayEvent);
  });
  /** Everything the calendar draws: the posts' events, then the free slots behind them. */
  readonly drawn = $derived([...this.events, ...this.slotEvents]);

  constructor(private readonly shell: Shell) {}

  /** The zone the calendar shows times in: the user's setting. */
  get zone(): string {
    return this.shell.timezone;
  }

  /** Follows the core's events; returns the way to stop. */
  start(): () => void {
    return this.shell.onEvent((event) => this.onEvent(event));
  }

  private onEvent(event: CoreEvent): void {
    if (
      event.type === 'changed' &&
      (event.what === 'posts' || event.what === 'cache' || event.what === 'schedules')
    ) {
      void this.reload();
    } else if (
      (event.type === 'done' || event.type === 'failed' || event.type === 'missed') &&
      event.item.postId !== null
    ) {
      void this.reload();
    }
  }

  /** The bot's name as the user knows it, else its id. */
  botName(botId: string | null): string {
    return nameOf(this.botNames, botId);
  }

  clearFilters(): void {
    this.botFilter = '';
    this.statusFilter = '';
  }

  /** The filters as one test, reading them once for a whole list. */
  private matcher(): (post: LocalPost) => boolean {
    const status = this.statusFilter;
    const bot = this.botFilter;
    return (post) =>
      (!status || post.status === status) &&
      (bot === NO_BOT ? post.botId === null : !bot || post.botId === bot);
  }

  post(id: number): LocalPost | undefined {
    return this.posts.find((post) => post.id === id) ?? this.drafts.find((post) => post.id === id);
  }

  /** The calendar moved to another range: read its posts. */
  async setRange(range: WallRange): Promise<void> {
    this.range = range;
    if (range.view) this.view = range.view;
    await this.load();
  }

  /**
   * Reads the visible range's posts and free slots, and the unscheduled drafts; older answers are
   * dropped. Free slots are only an aid: when they cannot be read, none are drawn.
   */
  async load(): Promise<void> {
    const range = this.range;
    if (!range) return;
    const generation = ++this.generation;
    this.loading = true;
    const from = boundary(range.start, this.zone);
    const to = boundary(range.end, this.zone);
    // The bots come with the posts, so their names and colours arrive in the same redraw: the
    // calendar measures every event it draws, and drawing a month twice doubled its time.
    const [posts, drafts, slots, bots] = await Promise.all([
      this.shell.api.listPosts({ from, to: to - 1 }),
      this.shell.api.listPosts({ status: 'draft', unscheduled: true }),
      this.shell.api.listFreeSlots({ from, to }),
      this.shell.api.listBots({}),
    ]);
    if (generation !== this.generation) return;
    this.loading = false;
    if (bots.ok) this.bots = bots.value;
    else this.shell.notices.error(bots.error.message, 'Could not read the bots');
    this.freeSlots = slots.ok ? slots.value : [];
    if (!posts.ok) {
      this.loadError = posts.error.message;
      return;
    }
    this.loaded = true;
    this.loadError = drafts.ok ? null : drafts.error.message;
    this.posts = posts.value;
    if (drafts.ok) this.drafts = drafts.value;
  }

  /**
   * A new post for a day or time clicked on the calendar: in the free slot drawn there, with its
   * bot (the first of the day when a whole day was clicked), else at the time clicked (a day gets
   * a morning time).
   */
  newPostAt(date: string, time: string | null): EditorStart {
    const clock = new WallClock(this.zone);
    for (const slot of this.visibleSlots) {
      const wall = clock.wall(slot.at);
      if (wall.slice(0, 10) !== date) continue;
      const slotTime = wall.slice(11, 16);
      // The band [slot, slot + 30 min) overlaps the clicked cell [time, time + 30 min).
      if (time === null || Math.abs(minuteOfDay(slotTime) - minuteOfDay(time)) < SHOWN_MINUTES)
        return { date, time: slotTime, botId: slot.botId };
    }
    return { date, time: time ?? DAY_CLICK_TIME };
  }

  /** A post was dragged by `delta` on the calendar: move it by as much wall-clock time. */
  async move(postId: number, delta: WallDelta): Promise<string | null> {
    const post = this.posts.find((candidate) => candidate.id === postId);
    if (!post || post.scheduledAt === null) return this.refuse('it is no longer on the calendar');
    const wall = Temporal.PlainDateTime.from(wallTime(post.scheduledAt, this.zone))
      .add({ years: delta.years, months: delta.months, days: delta.days })
      .add({ seconds: delta.seconds });
    return this.reschedule(postId, wall.toString({ smallestUnit: 'minute' }));
  }

  private refuse(reason: string): string {
    this.shell.notices.show('error', `Could not move the post: ${reason}`);
    return reason;
  }

  /**
   * Moves a post to a wall time in the user's zone, showing it there at once and putting it back
   * if the core refuses. A failed or missed post moved into the future goes back in the queue.
   * Returns null when moved, else the reason (already shown to the user).
   */
  async reschedule(postId: number, wall: string, now = Date.now()): Promise<string | null> {
    const post = this.posts.find((candidate) => candidate.id === postId);
    const zone = this.zone;
    if (!post) return this.refuse('it is no longer on the calendar');
    const locked = lockReason(post);
    if (locked) return this.refuse(locked);
    // A wall time the clocks skip or repeat is refused with the reason, never guessed.
    const when = readWhen(wall.slice(0, 10), wall.slice(11, 16), zone);
    if (when.kind === 'overlap')
      return this.refuse(
        `${wall.replace('T', ' ')} happens twice in ${zone} (the clocks go back); open the post to pick which one you mean`,
      );
    if (when.kind === 'gap' || when.kind === 'invalid') return this.refuse(when.message);
    if (when.kind === 'none') return this.refuse('it needs a date and a time');
    const instant = when;
    this.replace(postId, { ...post, scheduledAt: instant.ms, zone });
    // A reload that started before the move must not put the post back where it was.
    this.generation++;
    this.loading = false;
    const guard = this.shell.duplicates;
    const moved = await guard.run((overrule) =>
      this.shell.api.updatePost({
        id: postId,
        at: isoWithOffset(instant.ms, zone),
        zone,
        ...overrule,
      }),
    );
    if (!moved?.ok) {
      this.replace(postId, post);
      // Declined at the duplicate question: the user chose to keep it where it was.
      return moved ? this.refuse(moved.error.message) : 'kept where it was';
    }
    this.replace(postId, moved.value);
    const requeue = moved.value.status !== 'draft' && NOT_GONE_OUT.includes(moved.value.status);
    if (!requeue || instant.ms <= now) return null;
    const queued = await guard.run((overrule) =>
      this.shell.api.queuePost({ id: postId, mode: 'schedule', ...overrule }),
    );
    if (!queued) {
      this.shell.notices.show('info', 'Moved; it stays out of the queue, as you chose');
      return null;
    }
    if (!queued.ok) {
      this.shell.notices.show('error', `Moved, but could not schedule it: ${queued.error.message}`);
      return queued.error.message;
    }
    this.replace(postId, queued.value);
    return null;
  }

  private replace(postId: number, post: LocalPost): void {
    this.posts = this.posts.map((candidate) => (candidate.id === postId ? post : candidate));
  }

  /** Changes the zone times are shown in, for the whole app, and reads the range again in it. */
  async setZone(zone: string): Promise<void> {
    if (zone === this.zone) return;
    const saved = await this.shell.attempt(
      this.shell.api.saveSettings({ timezone: zone }),
      'Could not change the time zone',
    );
    if (!saved) return;
    await this.shell.loadSettings();
    await this.load();
  }
}
