// Weekly posting schedules ("mon-fri 09:00,12:30,17:00; sat 10:00"): parsed, written back, and
// turned into slot instants in the user's zone, where 09:00 stays 09:00 through DST. Pure; runs
// in every process.
import { Temporal } from 'temporal-polyfill';

/** ISO weekday order: index 0 is Monday. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const FULL_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Seven lists of wall times ("09:00"), Monday first, each sorted and without repeats. */
export type WeeklySchedule = string[][];

export type ScheduleResult = { ok: true; value: WeeklySchedule } | { ok: false; reason: string };

export function emptySchedule(): WeeklySchedule {
  return WEEKDAYS.map(() => []);
}

/** True when the schedule has at least one slot in the week. */
export function hasSlots(schedule: WeeklySchedule): boolean {
  return schedule.some((times) => times.length > 0);
}

function weekday(name: string): number {
  const lower = name.toLowerCase();
  const index = WEEKDAYS.indexOf(lower as (typeof WEEKDAYS)[number]);
  return index >= 0 ? index : FULL_NAMES.indexOf(lower);
}

/** "mon-fri" or "sat" or "fri-mon" (wrapping past Sunday) as weekday indexes. */
function days(spec: string): number[] | string {
  const indexes: number[] = [];
  for (const piece of spec.split(',').map((part) => part.trim())) {
    const [from = '', to = from] = piece.split('-').map((part) => part.trim());
    const first = weekday(from);
    const last = weekday(to);
    if (first < 0 || last < 0)
      return `"${piece}" is not a day or a range of days such as mon, sat or mon-fri`;
    for (let day = first; ; day = (day + 1) % 7) {
      indexes.push(day);
      if (day === last) break;
    }
  }
  return indexes;
}

function time(text: string): string | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${match[2]}`;
}

/** Reads a schedule; an empty text is a schedule without slots. */
export function parseSchedule(text: string): ScheduleResult {
  const schedule = emptySchedule();
  const parts = text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const [index, part] of parts.entries()) {
    const where = `part ${index + 1} ("${part}")`;
    const match = /^([a-z,\s-]+?)\s+(\d.*)$/i.exec(part);
    if (!match?.[1] || !match[2])
      return {
        ok: false,
        reason: `${where}: write the days, then the times, e.g. mon-fri 09:00,17:00`,
      };
    const dayIndexes = days(match[1]);
    if (typeof dayIndexes === 'string') return { ok: false, reason: `${where}: ${dayIndexes}` };
    for (const piece of match[2].split(',')) {
      const slot = time(piece);
      if (!slot)
        return {
          ok: false,
          reason: `${where}: "${piece.trim()}" is not a time of day (HH:MM, 00:00 to 23:59)`,
        };
      for (const day of dayIndexes) schedule[day]?.push(slot);
    }
  }
  return { ok: true, value: schedule.map((slots) => [...new Set(slots)].sort()) };
}

/** The schedule as text parseSchedule reads back, consecutive days with the same times joined. */
export function formatSchedule(schedule: WeeklySchedule): string {
  const parts: string[] = [];
  let day = 0;
  while (day < 7) {
    const slots = schedule[day] ?? [];
    let last = day;
    while (last + 1 < 7 && (schedule[last + 1] ?? []).join() === slots.join()) last++;
    if (slots.length > 0) {
      const span = last === day ? WEEKDAYS[day] : `${WEEKDAYS[day]}-${WEEKDAYS[last]}`;
      parts.push(`${span} ${slots.join(',')}`);
    }
    day = last + 1;
  }
  return parts.join('; ');
}

/**
 * Every slot instant in [fromMs, toMs), ascending. A slot that a DST change skips moves to just
 * after the change (02:30 becomes 03:30); one the clocks pass twice is taken once, the first time.
 */
export function slotsBetween(
  schedule: WeeklySchedule,
  zone: string,
  fromMs: number,
  toMs: number,
): number[] {
  const slots: number[] = [];
  if (!hasSlots(schedule)) return slots;
  let date = Temporal.Instant.fromEpochMilliseconds(fromMs).toZonedDateTimeISO(zone).toPlainDate();
  const lastDate = Temporal.Instant.fromEpochMilliseconds(toMs)
    .toZonedDateTimeISO(zone)
    .toPlainDate();
  while (Temporal.PlainDate.compare(date, lastDate) <= 0) {
    for (const slot of schedule[date.dayOfWeek - 1] ?? []) {
      const ms = date
        .toPlainDateTime(Temporal.PlainTime.from(slot))
        .toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;
      if (ms >= fromMs && ms < toMs) slots.push(ms);
    }
    date = date.add({ days: 1 });
  }
  return slots;
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** How far ahead a free slot is looked for: the platform takes posts scheduled at most 365 days ahead. */
export const SLOT_HORIZON_DAYS = 365;

/** The minute an instant falls in: a post holds a slot when it is scheduled in the slot's minute. */
export function slotMinute(ms: number): number {
  return Math.floor(ms / 60_000);
}

function heldMinutes(taken: Iterable<number>): Set<number> {
  return new Set([...taken].map(slotMinute));
}

/**
 * Every slot after `afterMs`, ascending, at most `horizonDays` ahead. Computed a week at a time,
 * lazily: most callers stop within the first one or two.
 */
export function* upcomingSlots(
  schedule: WeeklySchedule,
  zone: string,
  afterMs: number,
  horizonDays = SLOT_HORIZON_DAYS,
): Generator<number, void, undefined> {
  const end = afterMs + horizonDays * DAY_MS;
  for (let from = afterMs; from < end; from += WEEK_MS) {
    for (const ms of slotsBetween(schedule, zone, from, Math.min(from + WEEK_MS, end)))
      if (ms > afterMs) yield ms;
  }
}

/** The slots in [fromMs, toMs) that no post holds (the calendar's empty slots). */
export function freeSlotsBetween(
  schedule: WeeklySchedule,
  zone: string,
  fromMs: number,
  toMs: number,
  taken: Iterable<number>,
): number[] {
  const held = heldMinutes(taken);
  return slotsBetween(schedule, zone, fromMs, toMs).filter((ms) => !held.has(slotMinute(ms)));
}

/**
 * The first `count` slots after `afterMs` that no post holds yet, looking at most `horizonDays`
 * ahead.
 */
export function nextFreeSlots(
  schedule: WeeklySchedule,
  zone: string,
  afterMs: number,
  taken: Iterable<number>,
  count: number,
  horizonDays = SLOT_HORIZON_DAYS,
): number[] {
  const held = heldMinutes(taken);
  const free: number[] = [];
  if (count <= 0) return free;
  for (const ms of upcomingSlots(schedule, zone, afterMs, horizonDays)) {
    if (held.has(slotMinute(ms))) continue;
    free.push(ms);
    if (free.length === count) break;
  }
  return free;
}
