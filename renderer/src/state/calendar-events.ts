// How the calendar draws posts and free slots (browser, pure): a post as the calendar shows it
// (made once per post: a month draws a hundred at once), the library's events for posts, free
// slots and "+N more", the day caps of the busy views, and each bot's colour.
import { GONE_BOT_NAME, postLockReason } from '../../../shared/domain';
import type { Calendar } from '@event-calendar/core';
import { Temporal } from 'temporal-polyfill';
import type { FreeSlot, LocalPost, PostStatus } from '../../../shared/domain';
import type { WallClock } from '../../../shared/time';
import { STATUS_MARKS } from './post-status';

/** How long a post or a free slot looks on the time grid; both are instants, so only for show. */
export const SHOWN_MINUTES = 30;

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
  /** Its first picture a page can show (CalendarRange.thumbnails), or null. */
  thumbnail: string | null;
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

/**
 * Lines per day in the views that show many days: posts, the last line a "+N more" for the rest
 * when they do not fit. A month cell shows two or three posts anyway, and drawing thousands of
 * hidden events is what makes a busy month slow (5,000 posts took seconds); the Day and List
 * views show all. The core sends only these (getCalendar's perDay) and counts the rest: reading
 * and keeping 5,000 posts cost more than drawing the month.
 */
export const DAY_CAPS: Partial<Record<string, number>> = { dayGridMonth: 3, timeGridWeek: 24 };

/** What the week view's "+N more" event carries: its day and how many posts it stands for. */
export type MoreEventProps = { moreOn: string; hidden: number };

/** The "+N more" event's props, or null for a post's event. */
export function moreOf(event: { extendedProps?: Record<string, unknown> }): MoreEventProps | null {
  return event.extendedProps && 'moreOn' in event.extendedProps
    ? (event.extendedProps as unknown as MoreEventProps)
    : null;
}

/** A day's posts as a view with a cap draws them: those shown, and how many "+N more" stands for. */
export interface CappedDay<T> {
  day: string;
  shown: T[];
  more: number;
}

/**
 * Each wall-clock day's items, in the given order, at most `cap` a day: past it, "+N more" takes
 * the last place. `left` counts each day's posts the core left out.
 */
export function capPerDay<T>(
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
export function moreEvent(day: string, hidden: number): Calendar.EventInput {
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
export function slotEvent(slot: FreeSlot, clock: WallClock): Calendar.EventInput {
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

/** The bot's name; the bots come with the posts, so one not among them is gone. */
export function nameOf(names: Record<string, string>, botId: string | null): string {
  return botId === null ? 'No bot' : (names[botId] ?? GONE_BOT_NAME);
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

/** The first of a post's pictures that `thumbnails` (CalendarRange.thumbnails) has, or null. */
export function firstThumbnail(
  post: LocalPost,
  thumbnails: Readonly<Record<string, string>>,
): string | null {
  return post.mediaUrls.map((url) => thumbnails[url]).find((shown) => shown) ?? null;
}

/**
 * One post as the calendar draws it, at its time (`at`) on the zone's wall clock, with the first
 * of its pictures that `thumbnails` has.
 */
export function viewOf(
  post: LocalPost,
  at: number,
  clock: WallClock,
  botName: string,
  thumbnails: Readonly<Record<string, string>> = {},
): PostView {
  const locked = postLockReason(post);
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
    thumbnail: firstThumbnail(post, thumbnails),
    start,
    end: clock.wall(at, SHOWN_MINUTES),
    time: TIME_OF_DAY.format(Date.parse(`${start}Z`)),
    colour: botColour(post.botId),
    classNames: locked ? [`post-${post.status}`, 'post-locked'] : [`post-${post.status}`],
  };
}

/** A post as the library's event, shown SHOWN_MINUTES long. */
export function toEvent(post: PostView): Calendar.EventInput {
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
export const NO_EVENTS: Calendar.EventInput[] = [];
