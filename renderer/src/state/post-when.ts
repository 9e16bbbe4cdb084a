// When a post goes out, as typed (browser, pure): a date and time read in a zone, with the wall
// times a DST change skips or repeats told apart rather than guessed, and the editor's start time.
import { Temporal } from 'temporal-polyfill';
import { toInstant } from '../../../shared/time';

/** Which of the two readings of a wall time the clocks pass twice. */
export type Reading = 'earlier' | 'later';

/** What the date, time and zone fields say, read with DST in mind. */
export type WhenReading =
  | { kind: 'none' }
  | { kind: 'exact'; ms: number }
  /** The clocks skip this wall time; `after` is where they land instead ("03:30"). */
  | { kind: 'gap'; message: string; after: string }
  /** The clocks pass this wall time twice; the user picks one by its offset. */
  | { kind: 'overlap'; message: string; offsets: Record<Reading, string> }
  | { kind: 'invalid'; message: string };

/** Reads a date and time typed in `zone`; a DST gap or overlap is told apart, never guessed. */
export function readWhen(date: string, time: string, zone: string): WhenReading {
  if (!date && !time) return { kind: 'none' };
  if (!date || !time)
    return { kind: 'invalid', message: 'give both a date and a time, or neither' };
  const instant = toInstant(`${date}T${time}`, zone);
  if (instant.ok) return { kind: 'exact', ms: instant.ms };
  try {
    const wall = Temporal.PlainDateTime.from(`${date}T${time}`, { overflow: 'reject' });
    const earlier = wall.toZonedDateTime(zone, { disambiguation: 'earlier' });
    const later = wall.toZonedDateTime(zone, { disambiguation: 'later' });
    if (!later.toPlainDateTime().equals(wall)) {
      const after = later.toPlainTime().toString({ smallestUnit: 'minute' });
      return { kind: 'gap', message: instant.reason, after };
    }
    if (earlier.offset !== later.offset) {
      const offsets = { earlier: earlier.offset, later: later.offset };
      return { kind: 'overlap', message: instant.reason, offsets };
    }
  } catch {
    // Not a date or not a zone: toInstant's reason says so.
  }
  return { kind: 'invalid', message: instant.reason };
}

/**
 * The first whole hour after `now` on the zone's wall clock, where a post written from the New post
 * button (or `c`) starts: scheduling is what the editor is mostly for, so it opens with a time near
 * now that Schedule accepts at once (clearing the date makes the main action Save draft). Adding an
 * hour of exact time lands on a wall time that exists, whatever the clocks do.
 */
export function nextWholeHour(zone: string, now = Date.now()): { date: string; time: string } {
  const wall = Temporal.Instant.fromEpochMilliseconds(now)
    .toZonedDateTimeISO(zone)
    .round({ smallestUnit: 'hour', roundingMode: 'floor' })
    .add({ hours: 1 })
    .toPlainDateTime()
    .toString({ smallestUnit: 'minute' });
  return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
}
