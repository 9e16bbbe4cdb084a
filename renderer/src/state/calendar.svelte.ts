// The calendar screen's state (browser): posts of the visible range and the unscheduled drafts,
// the free posting slots drawn faintly behind them, bot and status filters, the events the
// calendar draws (and the month's days, which draw their posts themselves), drag-to-reschedule
// with rollback (asking first when the duplicate guard objects), the time zone, and live reloads
// from core events. The calendar works in wall times of the user's zone; this module turns them
// into instants, so the calendar component stays a thin wrapper.
import { Temporal } from 'temporal-polyfill';
import type { Calendar } from '@event-calendar/core';
import type { CoreEvent } from '../../../shared/contract';
import type { BotSummary, FreeSlot, LocalPost, PostStatus } from '../../../shared/domain';
import { WallClock } from '../../../shared/time';
import { coalesce } from '../components/common/coalesce';
import { wallTime } from '../components/common/format';
import type { Shell } from './shell.svelte';
import type { EditorStart } from './post-fields.svelte';
import { NOT_GONE_OUT, STATUS_MARKS, lockReason } from './post-status';
import { nextWholeHour, readWhen } from './post-when';

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

/**
 * A post as the calendar draws it, made here once per post: a month draws a hundred at once, and
 * each piece of logic in their markup costs time. The library's events carry it as their
 * extendedProps (a type, so it fits that record); the month view draws its own chips from it.
 */
export type PostView = {
  postId: number;
  status: PostStatus;
  icon: string;
  /** Why it cannot be moved, or null. */
  locked: string | null;
  /** The words it shows on hover and says to a screen reader. */
  hover: string;
  spokenBefore: string;
  spokenAfter: string;
  /** The text's first line. */
  title: string;
  /** Its wall time in the user's zone, "2026-11-24T09:00:00". */
  start: string;
  /** Where the time grid's event for it ends: SHOWN_MINUTES of wall time later. */
  end: string;
  /** Its time of day as the library writes an event's ("9:00 AM"), for the month's chips. */
  time: string;
  colour: string;
  classNames: string[];
};

/** The post an event stands for, as toEvent put it there (the calendar types it as a record). */
export function postOf(event: { extendedProps?: Record<string, unknown> }): PostView {
  return event.extendedProps as unknown as PostView;
}

/** A wall-clock range the calendar shows, in the user's zone; `end` is exclusive. */
export interface WallRange {
  start: string;
  end: string;
  /** The calendar view showing it (CALENDAR_VIEWS ids). */
  view?: string;
}

/**
 * Lines per day in the views that show many days: posts, the last line a "+N more" for the rest
 * when they do not fit. A month cell shows two or three posts anyway, and drawing thousands of
 * hidden events is what makes a busy month slow (5,000 posts took seconds); the Day and List
 * views show all. The core sends only these (getCalendar's perDay) and counts the rest: reading
 * and keeping 5,000 posts cost more than drawing the month.
 */
const DAY_CAPS: Partial<Record<string, number>> = { dayGridMonth: 3, timeGridWeek: 24 };

/** What the week view's "+N more" event carries: its day and how many posts it stands for. */
export type MoreEventProps = { moreOn: string; hidden: number };

/** The "+N more" event's props, or null for a post's event. */
export function moreOf(event: { extendedProps?: Record<string, unknown> }): MoreEventProps | null {
  return event.extendedProps && 'moreOn' in event.extendedProps
    ? (event.extendedProps as unknown as MoreEventProps)
    : null;
}

/** A day's posts as a view with a cap draws them: those shown, and how many "+N more" stands for. */
interface CappedDay<T> {
  day: string;
  shown: T[];
  more: number;
}

/**
 * Each wall-clock day's items, in the given order, at most `cap` a day: past it, "+N more" takes
 * the last place. `left` counts each day's posts the core left out.
 */
function capPerDay<T>(
  items: T[],
  cap: number,
  left: Record<string, number>,
  dayOf: (item: T) => string,
): CappedDay<T>[] {
  const perDay: Record<string, { shown: T[]; hidden: number }> = {};
  for (const item of items) {
    const day = dayOf(item);
    const entry = (perDay[day] ??= { shown: [], hidden: left[day] ?? 0 });
    if (entry.shown.length < cap) entry.shown.push(item);
    else entry.hidden++;
  }
  return Object.entries(perDay).map(([day, { shown, hidden }]) =>
    hidden === 0 ? { day, shown, more: 0 } : { day, shown: shown.slice(0, -1), more: hidden + 1 },
  );
}

/** The week view's "+N more" for a day, in its all-day row. */
function moreEvent(day: string, hidden: number): Calendar.EventInput {
  const extendedProps: MoreEventProps = { moreOn: day, hidden };
  return {
    id: `more-${day}`,
    allDay: true,
    start: day,
    end: day,
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

/**
 * Times of day as the library writes its events' (its default eventTimeFormat), read from wall
 * times taken as UTC.
 */
const TIME_OF_DAY = new Intl.DateTimeFormat(undefined, {
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
});

/** One post as the calendar draws it, at its time (`at`) on the zone's wall clock. */
function viewOf(post: LocalPost, at: number, clock: WallClock, botName: string): PostView {
  const locked = lockReason(post);
  const start = clock.wall(at);
  const mark = STATUS_MARKS[post.status];
  return {
    postId: post.id,
    status: post.status,
    icon: mark.icon,
    locked,
    hover: `${mark.label} · ${botName}${locked ? ` · Cannot be moved: ${locked}` : ''}`,
    spokenBefore: `${mark.label}, ${botName}:`,
    spokenAfter: locked ? `(locked: ${locked})` : '',
    title: post.text.split('\n', 1)[0] ?? '',
    start,
    end: clock.wall(at, SHOWN_MINUTES),
    time: TIME_OF_DAY.format(Date.parse(`${start}Z`)),
    colour: botColour(post.botId),
    classNames: locked ? [`post-${post.status}`, 'post-locked'] : [`post-${post.status}`],
  };
}

/** A post as the library's event, shown SHOWN_MINUTES long. */
function toEvent(post: PostView): Calendar.EventInput {
  return {
    id: String(post.postId),
    start: post.start,
    end: post.end,
    title: post.title,
    // Locked posts can be picked up too, so a drop can say why they stay (then revert).
    startEditable: true,
    durationEditable: false,
    backgroundColor: post.colour,
    textColor: '#ffffff',
    classNames: post.classNames,
    extendedProps: post,
  };
}

/** A month view's day cell as drawn: its first posts, its "+N more", and whether a slot is free. */
export interface MonthCell {
  posts: PostView[];
  more: number;
  free: boolean;
}

/** The library's events in the month view, which draws its posts itself (one array: no redraw). */
const NO_EVENTS: Calendar.EventInput[] = [];

/** The wall date ("2026-11-24") of a day the library hands over (a Date, in its local fields). */
export function wallDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export class CalendarState {
  /** The range's posts that match the filters; in the month and week views, DAY_CAPS a day. */
  posts = $state.raw<LocalPost[]>([]);
  /** Wall day → how many of its posts the core left out (DAY_CAPS). */
  private hidden = $state.raw<Record<string, number>>({});
  /** Drafts without a time, listed beside the calendar. */
  drafts = $state.raw<LocalPost[]>([]);
  /** The visible range's posting slots that no post holds, by time (every bot with a schedule). */
  freeSlots = $state.raw<FreeSlot[]>([]);
  bots = $state.raw<BotSummary[]>([]);
  #botFilter = $state('');
  #statusFilter = $state<PostStatus | ''>('');
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
  readonly visibleDrafts = $derived(this.drafts.filter(this.matcher()));
  /**
   * The posts drawn, by wall day: in the views with a cap (DAY_CAPS), each day's earliest and how
   * many its "+N more" stands for. A month can hold thousands of posts, so every reactive value is
   * read once per run, not once per post, and wall times come from one WallClock per zone.
   */
  private readonly days = $derived.by((): CappedDay<PostView>[] => {
    const clock = new WallClock(this.zone);
    const names = this.botNames;
    // Sorted by time first (a move reorders), so a day past its cap keeps its earliest posts.
    const views = this.posts
      .filter((post) => post.scheduledAt !== null)
      .sort((a, b) => (a.scheduledAt ?? 0) - (b.scheduledAt ?? 0))
      .map((post) => viewOf(post, post.scheduledAt ?? 0, clock, nameOf(names, post.botId)));
    const cap = DAY_CAPS[this.view];
    // The other views draw every post; counts left from a capped view's answer are not theirs.
    const left = cap === undefined ? {} : this.hidden;
    return capPerDay(views, cap ?? Infinity, left, (view) => view.start.slice(0, 10));
  });
  /**
   * The posts drawn, as the library's events; the week view's "+N more" is one too. The month
   * view hands the library none of them (drawn): its days draw their posts themselves
   * (monthDays), since the library's work for each event was most of a busy month's first draw.
   */
  readonly events = $derived.by(() => {
    const month = this.view === 'dayGridMonth';
    return this.days.flatMap(({ day, shown, more }) =>
      more > 0 && !month ? [...shown.map(toEvent), moreEvent(day, more)] : shown.map(toEvent),
    );
  });
  /** Free slots of the bots the filter shows (a post without a bot holds no slot). */
  readonly visibleSlots = $derived.by(() => {
    const bot = this.botFilter;
    return bot ? this.freeSlots.filter((slot) => slot.botId === bot) : this.freeSlots;
  });
  /** Free slots as the time grid draws them: a faint band each, behind the posts. */
  readonly slotEvents = $derived.by(() => {
    const clock = new WallClock(this.zone);
    return this.visibleSlots.map((slot) => slotEvent(slot, clock));
  });
  /**
   * The month view's days by wall date ("2026-11-24"): the posts its day draws, its "+N more", and
   * whether it has a free slot (the day is hatched: a month cell has no room for the slots' times).
   * Days with none of these are absent.
   */
  readonly monthDays = $derived.by((): Record<string, MonthCell> => {
    if (this.view !== 'dayGridMonth') return {};
    const days: Record<string, MonthCell> = {};
    for (const { day, shown, more } of this.days) days[day] = { posts: shown, more, free: false };
    const clock = new WallClock(this.zone);
    for (const slot of this.visibleSlots)
      (days[clock.wall(slot.at).slice(0, 10)] ??= { posts: [], more: 0, free: false }).free = true;
    return days;
  });
  /** What the library draws: the posts' events, then the free slots behind; none in a month. */
  readonly drawn = $derived(
    this.view === 'dayGridMonth' ? NO_EVENTS : [...this.events, ...this.slotEvents],
  );

  constructor(private readonly shell: Shell) {}

  /** The zone the calendar shows times in: the user's setting. */
  get zone(): string {
    return this.shell.timezone;
  }

  /** The day another screen asked the calendar to show (Shell.showOnCalendar), taken once. */
  takeRequestedDay(): string | null {
    const day = this.shell.calendarDate;
    if (day !== null) this.shell.calendarDate = null;
    return day;
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

  /** The bot shown (a bot id, NO_BOT, or '' for all); the core filters, so a change reloads. */
  get botFilter(): string {
    return this.#botFilter;
  }

  set botFilter(bot: string) {
    this.#botFilter = bot;
    void this.reload();
  }

  get statusFilter(): PostStatus | '' {
    return this.#statusFilter;
  }

  set statusFilter(status: PostStatus | '') {
    this.#statusFilter = status;
    void this.reload();
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
   * Reads the visible range's posts, free slots and bots, and the unscheduled drafts, in one
   * answer: the calendar draws once, when all of it is in. Older answers are dropped.
   */
  async load(): Promise<void> {
    const range = this.range;
    if (!range) return;
    const generation = ++this.generation;
    this.loading = true;
    const cap = DAY_CAPS[this.view];
    const bot = this.botFilter;
    const status = this.statusFilter;
    const answer = await this.shell.api.getCalendar({
      from: boundary(range.start, this.zone),
      to: boundary(range.end, this.zone),
      zone: this.zone,
      ...(cap !== undefined ? { perDay: cap } : {}),
      ...(bot ? { botId: bot === NO_BOT ? null : bot } : {}),
      ...(status ? { status } : {}),
    });
    if (generation !== this.generation) return;
    this.loading = false;
    if (!answer.ok) {
      this.loadError = answer.error.message;
      return;
    }
    this.loaded = true;
    this.loadError = null;
    const { posts, hidden, drafts, freeSlots, bots } = answer.value;
    this.posts = posts;
    this.hidden = hidden;
    this.drafts = drafts;
    this.freeSlots = freeSlots;
    this.bots = bots;
  }

  /**
   * A new post for a day or time clicked on the calendar: in the free slot drawn there, with its
   * bot (the first of the day when a whole day was clicked), else at the time clicked (a day gets
   * a morning time, or today, once that has passed, the next whole hour).
   */
  newPostAt(date: string, time: string | null, now = Date.now()): EditorStart {
    const clock = new WallClock(this.zone);
    for (const slot of this.visibleSlots) {
      const wall = clock.wall(slot.at);
      if (wall.slice(0, 10) !== date) continue;
      const slotTime = wall.slice(11, 16);
      // The band [slot, slot + 30 min) overlaps the clicked cell [time, time + 30 min).
      if (time === null || Math.abs(minuteOfDay(slotTime) - minuteOfDay(time)) < SHOWN_MINUTES)
        return { date, time: slotTime, botId: slot.botId };
    }
    if (time !== null) return { date, time };
    const morning = { date, time: DAY_CLICK_TIME };
    const soonest = nextWholeHour(this.zone, now);
    const today = clock.wall(now).slice(0, 10);
    const morningPassed = soonest.date > date || soonest.time > DAY_CLICK_TIME;
    return date === today && morningPassed ? soonest : morning;
  }

  /** A new post from the New post button or `c`: at the next whole hour (see nextWholeHour). */
  newPost(now = Date.now()): EditorStart {
    return nextWholeHour(this.zone, now);
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

  /** A post moved by whole days (in the month view, by key), at the same wall time. */
  moveDays(postId: number, days: number): Promise<string | null> {
    return this.move(postId, { years: 0, months: 0, days, seconds: 0 });
  }

  /** A post dropped on a wall day ("2026-11-26"): moved there at the same wall time. */
  async moveToDay(postId: number, day: string): Promise<string | null> {
    const post = this.posts.find((candidate) => candidate.id === postId);
    if (!post || post.scheduledAt === null) return this.refuse('it is no longer on the calendar');
    const from = Temporal.PlainDate.from(wallTime(post.scheduledAt, this.zone).slice(0, 10));
    const days = from.until(day).days;
    // Dropped where it was: nothing to do (and a locked post has nothing to say).
    return days === 0 ? null : this.moveDays(postId, days);
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
