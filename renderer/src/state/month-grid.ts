// The calendar's dates (browser): which days the month grid shows, where the toolbar's buttons
// and keys go from a date in each view, and the week's first day. The month grid is drawn by the
// app itself (MonthGrid.svelte), not by @event-calendar, which loads only for the other views:
// its month grid was about two thirds of the first screen's script. Dates are wall dates of the
// user's zone ("2026-11-24"); nothing here reads this computer's zone.
import { Temporal } from 'temporal-polyfill';

const DAYS_A_WEEK = 7;

/** A week of the month grid: seven wall dates, the week's first day first. */
export type GridWeek = string[];

/**
 * The weeks a month's grid shows (those the month touches, as the library drew it: four to six)
 * and the range they cover, as the calendar reads it (`end` exclusive). `weekStart` is ISO
 * (1 Monday … 7 Sunday).
 */
export function monthWeeks(
  date: string,
  weekStart: number,
): { weeks: GridWeek[]; start: string; end: string } {
  const first = Temporal.PlainDate.from(date).with({ day: 1 });
  const start = first.subtract({ days: (first.dayOfWeek - weekStart + DAYS_A_WEEK) % DAYS_A_WEEK });
  const next = first.add({ months: 1 });
  const weeks: GridWeek[] = [];
  for (let day = start; Temporal.PlainDate.compare(day, next) < 0;) {
    const week: GridWeek = [];
    for (let at = 0; at < DAYS_A_WEEK; at++, day = day.add({ days: 1 })) week.push(day.toString());
    weeks.push(week);
  }
  const end = Temporal.PlainDate.from(weeks.at(-1)?.at(-1) ?? date).add({ days: 1 });
  return { weeks, start: `${start.toString()}T00:00:00`, end: `${end.toString()}T00:00:00` };
}

/** Where Previous (-1) and Next (1) go from `date` in a view: a month, a week or a day on. */
export function stepDate(date: string, view: string, by: 1 | -1): string {
  const from = Temporal.PlainDate.from(date);
  if (view === 'timeGridWeek') return from.add({ weeks: by }).toString();
  if (view === 'timeGridDay') return from.add({ days: by }).toString();
  // The month and the list (a month's list) go a month; the 31st goes to the month's last day.
  return from.add({ months: by }).toString();
}

/** The first day of the week where the user is (ISO: 1 Monday … 7 Sunday); Sunday if unknown. */
export function localWeekStart(language = globalThis.navigator?.language): number {
  try {
    const locale = new Intl.Locale(language ?? 'en-US') as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    return locale.getWeekInfo?.().firstDay ?? locale.weekInfo?.firstDay ?? DAYS_A_WEEK;
  } catch {
    return DAYS_A_WEEK;
  }
}

/** Today's wall date in `zone`. */
export function todayIn(zone: string): string {
  return Temporal.Now.plainDateISO(zone).toString();
}

const monthTitle = new Intl.DateTimeFormat(undefined, {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const weekdayShort = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' });
const weekdayLong = new Intl.DateTimeFormat(undefined, { weekday: 'long', timeZone: 'UTC' });

/** A wall date as a Date whose UTC fields are that date (formatted in UTC, never moved). */
const utcDate = (date: string): Date => new Date(`${date}T00:00:00Z`);

/** The month grid's title: "November 2026", as the library's month view said it. */
export function monthTitleOf(date: string): string {
  return monthTitle.format(utcDate(date));
}

/** The grid's column heads: each weekday's short and long name, from the first week. */
export function weekdayNames(week: GridWeek): { short: string; long: string }[] {
  return week.map((day) => ({
    short: weekdayShort.format(utcDate(day)),
    long: weekdayLong.format(utcDate(day)),
  }));
}
