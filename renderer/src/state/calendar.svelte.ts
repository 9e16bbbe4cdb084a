// The calendar screen's state (browser): posts of the visible range and the unscheduled drafts,
// the free posting slots drawn faintly behind them, bot and status filters, what the calendar
// draws (its events, and the month's days, which draw their posts themselves; how each is drawn
// is calendar-events.ts), where a new post starts, the time zone, and live reloads from core
// events. Moving posts is calendar-moves.ts. The calendar works in wall times of the user's zone;
// this module turns them into instants, so the calendar component stays a thin wrapper.
import { Temporal } from 'temporal-polyfill';
import type { CallResult, CoreEvent } from '../../../shared/answers';
import type { BotSummary, FreeSlot, LocalPost, PostStatus } from '../../../shared/domain';
import type { ApprovalState } from '../../../shared/team';
import { WallClock } from '../../../shared/time';
import { coalesce } from '../lib/coalesce';
import { editorsByPost } from '../lib/presence';
import {
  DAY_CAPS,
  NO_EVENTS,
  SHOWN_MINUTES,
  capPerDay,
  firstThumbnail,
  moreEvent,
  nameOf,
  slotEvent,
  toEvent,
  viewOf,
} from './calendar-events';
import type { CappedDay, MonthCell, PostView } from './calendar-events';
import { CalendarMoves } from './calendar-moves';
import type { PostBoard } from './calendar-moves';
import { deletePost, moveToDrafts } from './post-actions';
import type { EditorStart } from './post-fields.svelte';
import { nextWholeHour } from './post-when';
import { STATE_LABELS } from './review.svelte';
import type { Shell } from './shell.svelte';
import type { TeamStatus } from '../../../shared/team';

export const CALENDAR_VIEWS = [
  { id: 'dayGridMonth', label: 'Month', key: 'm' },
  { id: 'timeGridWeek', label: 'Week', key: 'w' },
  { id: 'timeGridDay', label: 'Day', key: 'd' },
  { id: 'listMonth', label: 'List', key: 'l' },
] as const;

/** The bot filter's value for posts that have no bot. */
export const NO_BOT = '(none)';

/** The time a new post gets when a day without a free slot is clicked in the month view. */
const DAY_CLICK_TIME = '09:00';

/** A wall-clock range the calendar shows, in the user's zone; `end` is exclusive. */
export interface WallRange {
  start: string;
  end: string;
  /** The calendar view showing it (CALENDAR_VIEWS ids). */
  view?: string;
}

/**
 * How many free slots are drawn: the first few, where the queue puts posts next. Every free day
 * hatched was noise; the others still take a click (newPostAt) and the Bots screen lists them.
 */
export const FREE_SLOTS_DRAWN = 3;

/** Where the week and day views open when the range holds neither posts nor free slots. */
const WORKDAY_START = '08:00:00';

/**
 * Where the week and day views open: an hour before the earliest time of day any of the range's
 * posts (else its free slots) stand at, so the first of them is in sight, not a fixed 6 AM.
 */
export function openingTime(times: readonly number[], zone: string): string {
  if (times.length === 0) return WORKDAY_START;
  const clock = new WallClock(zone);
  const earliest = Math.min(...times.map((ms) => minuteOfDay(clock.wall(ms).slice(11, 16))));
  const hour = Math.max(0, Math.floor(earliest / 60) - 1);
  return `${String(hour).padStart(2, '0')}:00:00`;
}

/** Minutes since midnight of an "HH:MM" wall time. */
function minuteOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * The instant a range the calendar shows starts or ends at. A day whose midnight the clocks skip
 * starts when they land, so the range never fails to load.
 */
function boundary(wall: string, zone: string): number {
  return Temporal.PlainDateTime.from(wall).toZonedDateTime(zone, { disambiguation: 'compatible' })
    .epochMilliseconds;
}

export class CalendarState implements PostBoard {
  /** The range's posts that match the filters; in the month and week views, DAY_CAPS a day. */
  posts = $state.raw<LocalPost[]>([]);
  /** Wall day → how many of its posts the core left out (DAY_CAPS). */
  private hidden = $state.raw<Record<string, number>>({});
  /** Drafts without a time, listed beside the calendar. */
  drafts = $state.raw<LocalPost[]>([]);
  /** The visible range's posting slots that no post holds, by time (every bot with a schedule). */
  freeSlots = $state.raw<FreeSlot[]>([]);
  bots = $state.raw<BotSummary[]>([]);
  /** A post's picture → what its chip may show (CalendarRange.thumbnails). */
  private thumbnails = $state.raw<Record<string, string>>({});
  #botFilter = $state('');
  #statusFilter = $state<PostStatus | ''>('');
  /** Post id → its approval state out of draft (a team workspace), as getCalendar answered. */
  approvals = $state.raw<Record<number, ApprovalState>>({});
  #approvalFilter = $state<ApprovalState | ''>('');
  loading = $state(false);
  /** Whether a first answer came, so "nothing here" is not said before anything was read. */
  loaded = $state(false);
  /** The core's message when the posts could not be read. */
  loadError = $state<string | null>(null);
  private range = $state.raw<WallRange | null>(null);
  /**
   * The month grid's one element in the Tab order (roving tabindex): `post:ID`, `day:DATE` or
   * `more:DATE`, as the user last focused it; gridActive falls back when it is no longer drawn.
   */
  gridFocus = $state<string | null>(null);
  /**
   * The time of day the week and day views scroll to, set by the first answer for each range (a
   * reload after a move or an event keeps the user's place).
   */
  scrollTime = $state(WORKDAY_START);
  private scrolledFor: WallRange | null = null;
  /** The calendar view shown (CALENDAR_VIEWS ids), which decides how many posts a day draws. */
  view = $state<string>(CALENDAR_VIEWS[0].id);
  private generation = 0;
  /** Live events come in bursts; they collapse into one reload at a time. */
  private readonly reload = coalesce(() => this.load());

  private readonly botNames: Record<string, string> = $derived(
    Object.fromEntries(this.bots.map((bot) => [bot.id, bot.name])),
  );
  readonly filtered = $derived(
    this.botFilter !== '' || this.statusFilter !== '' || this.approvalFilter !== '',
  );
  readonly visibleDrafts = $derived(this.drafts.filter(this.matcher()));

  /** The first of a post's pictures a page can show (as its chip does), or null. */
  thumbnailOf(post: LocalPost): string | null {
    return firstThumbnail(post, this.thumbnails);
  }
  /**
   * The posts drawn, by wall day: in the views with a cap (DAY_CAPS), each day's earliest and how
   * many its "+N more" stands for. A month can hold thousands of posts, so every reactive value is
   * read once per run, not once per post, and wall times come from one WallClock per zone.
   */
  private readonly days = $derived.by((): CappedDay<PostView>[] => {
    const clock = new WallClock(this.zone);
    const names = this.botNames;
    const thumbnails = this.thumbnails;
    // Sorted by time first (a move reorders), so a day past its cap keeps its earliest posts.
    const approved = this.approvedAs();
    const scheduled = this.posts
      .filter((post) => post.scheduledAt !== null && approved(post))
      .sort((a, b) => (a.scheduledAt ?? 0) - (b.scheduledAt ?? 0));
    const cap = DAY_CAPS[this.view];
    // The other views draw every post; counts left from a capped view's answer are not theirs.
    const left = cap === undefined ? {} : this.hidden;
    // Capped before a post's words are built: a post behind "+N more" needs only its day.
    const dayOf = (post: LocalPost) => clock.wall(post.scheduledAt ?? 0).slice(0, 10);
    return capPerDay(scheduled, cap ?? Infinity, left, dayOf).map(({ day, shown, more }) => ({
      day,
      more,
      shown: shown.map((post) =>
        viewOf(post, post.scheduledAt ?? 0, clock, nameOf(names, post.botId), thumbnails),
      ),
    }));
  });
  /** Whether the range draws no post: the screen says so (without building the events). */
  readonly drawsNothing = $derived(this.days.length === 0);
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
  /** The free slots drawn: the range's first few (FREE_SLOTS_DRAWN). */
  private readonly drawnSlots = $derived(
    [...this.visibleSlots].sort((a, b) => a.at - b.at).slice(0, FREE_SLOTS_DRAWN),
  );
  /** Free slots as the time grid draws them: a faint band each, behind the posts. */
  readonly slotEvents = $derived.by(() => {
    const clock = new WallClock(this.zone);
    return this.drawnSlots.map((slot) => slotEvent(slot, clock));
  });
  /**
   * The month view's days by wall date ("2026-11-24"): the posts its day draws, its "+N more",
   * and whether it holds one of the free slots drawn (the day is hatched: a month cell has no room
   * for the slots' times). Days with none of these are absent.
   */
  readonly monthDays = $derived.by((): Record<string, MonthCell> => {
    if (this.view !== 'dayGridMonth') return {};
    const days: Record<string, MonthCell> = {};
    for (const { day, shown, more } of this.days) days[day] = { posts: shown, more, free: false };
    const clock = new WallClock(this.zone);
    for (const slot of this.drawnSlots)
      (days[clock.wall(slot.at).slice(0, 10)] ??= { posts: [], more: 0, free: false }).free = true;
    return days;
  });
  /**
   * The month grid's element that Tab reaches: the one last focused while it is drawn, else the
   * range's first post, else today (or the range's first day).
   */
  readonly gridActive = $derived.by((): string => {
    const chosen = this.gridFocus;
    const range = this.range;
    const inRange = (day: string) => !!range && day >= range.start.slice(0, 10) && day < range.end;
    const days = this.monthDays;
    if (chosen?.startsWith('post:')) {
      const id = Number(chosen.slice(5));
      if (Object.values(days).some((day) => day.posts.some((post) => post.postId === id)))
        return chosen;
    } else if (chosen && inRange(chosen.slice(chosen.indexOf(':') + 1))) return chosen;
    const first = Object.keys(days)
      .sort()
      .flatMap((day) => days[day]?.posts ?? [])[0];
    if (first) return `post:${first.postId}`;
    const today = new WallClock(this.zone).wall(Date.now()).slice(0, 10);
    return `day:${inRange(today) || !range ? today : range.start.slice(0, 10)}`;
  });
  /** What the library draws: the posts' events, then the free slots behind; none in a month. */
  readonly drawn = $derived(
    this.view === 'dayGridMonth' ? NO_EVENTS : [...this.events, ...this.slotEvents],
  );

  /** Drag, key and drop moves of posts. */
  readonly moves: CalendarMoves;

  constructor(private readonly shell: Shell) {
    this.moves = new CalendarMoves(shell, this);
  }
  /** This desktop in its team (null for a workspace of one): who edits which post. */
  get team(): TeamStatus | null {
    return this.shell.status?.team ?? null;
  }

  /** Who edits which post at the other desktops: one look-up per chip, not a scan of the team. */
  readonly monthEditors = $derived(editorsByPost(this.team));

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

  /** The bot's name as the user knows it, or that it is gone. */
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

  get approvalFilter(): ApprovalState | '' {
    return this.#approvalFilter;
  }

  set approvalFilter(state: ApprovalState | '') {
    this.#approvalFilter = state;
    void this.reload();
  }

  /** A post's approval state in a sign and words, out of draft; null in a workspace of one. */
  approvalOf(postId: number): { sign: string; text: string } | null {
    const state = this.approvals[postId];
    return state ? STATE_LABELS[state] : null;
  }

  /** The approval filter as one test (a post the team never saw out of draft is a draft). */
  private approvedAs(): (post: LocalPost) => boolean {
    const wanted = this.approvalFilter;
    const approvals = this.approvals;
    return (post) => !wanted || (approvals[post.id] ?? 'draft') === wanted;
  }

  clearFilters(): void {
    this.botFilter = '';
    this.statusFilter = '';
    this.approvalFilter = '';
  }

  /** The filters as one test, reading them once for a whole list. */
  private matcher(): (post: LocalPost) => boolean {
    const status = this.statusFilter;
    const bot = this.botFilter;
    const approved = this.approvedAs();
    return (post) =>
      approved(post) &&
      (!status || post.status === status) &&
      (bot === NO_BOT ? post.botId === null : !bot || post.botId === bot);
  }

  post(id: number): LocalPost | undefined {
    return this.posts.find((post) => post.id === id) ?? this.drafts.find((post) => post.id === id);
  }

  /** Deletes a post from its menu; the notice offers Undo. */
  deletePost(id: number): Promise<void> {
    return this.actOn(id, deletePost, 'Could not delete the post');
  }

  /** Takes a scheduled post out of the queue from its menu; it stays on the calendar, a draft. */
  moveToDrafts(id: number): Promise<void> {
    return this.actOn(id, moveToDrafts, 'Could not move the post to drafts');
  }

  /** Runs a post action from the calendar's menu, says why if it fails, and redraws. */
  private async actOn(
    id: number,
    action: (shell: Shell, post: LocalPost) => Promise<CallResult<unknown>>,
    doing: string,
  ): Promise<void> {
    const post = this.post(id);
    if (!post) return;
    await this.shell.attempt(action(this.shell, post), doing);
    await this.load();
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
    // The approval state is the team's, not the store's: filtered here, so every post is read.
    const cap = this.approvalFilter ? undefined : DAY_CAPS[this.view];
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
    const { posts, hidden, drafts, freeSlots, bots, thumbnails } = answer.value;
    this.thumbnails = thumbnails;
    this.approvals = answer.value.approvals ?? {};
    this.posts = posts;
    this.hidden = hidden;
    this.drafts = drafts;
    this.freeSlots = freeSlots;
    this.bots = bots;
    if (this.scrolledFor !== range) {
      this.scrolledFor = range;
      const times = posts.flatMap((post) => (post.scheduledAt === null ? [] : [post.scheduledAt]));
      this.scrollTime = openingTime(
        times.length > 0 ? times : freeSlots.map((slot) => slot.at),
        this.zone,
      );
    }
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

  /** Shows a post as it is now: moved on the calendar, or put back. */
  replace(postId: number, post: LocalPost): void {
    this.posts = this.posts.map((candidate) => (candidate.id === postId ? post : candidate));
  }

  /** Drops the answers of reloads already on their way. */
  dropLoads(): void {
    this.generation++;
    this.loading = false;
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
