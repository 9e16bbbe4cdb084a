// Wall times and zones: turns what a user typed ("2026-03-29 02:30" in Europe/Berlin) into a UTC
// instant, and refuses times a DST change makes impossible or ambiguous instead of guessing.
// Pure; runs in every process.
import { Temporal } from 'temporal-polyfill';
import { quoted } from './text';

export type InstantResult = { ok: true; ms: number } | { ok: false; reason: string };

export function isTimeZone(zone: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

export function systemTimeZone(): string {
  return Temporal.Now.timeZoneId();
}

const WITH_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An instant from ISO 8601 text: with an offset it is exact; without one it is a wall time in
 * `zone`, refused when the zone skips it (DST gap) or passes it twice (DST overlap).
 */
export function toInstant(text: string, zone: string): InstantResult {
  const trimmed = text.trim().replace(' ', 'T');
  try {
    if (WITH_OFFSET.test(trimmed)) {
      return { ok: true, ms: Temporal.Instant.from(trimmed).epochMilliseconds };
    }
    const wall = Temporal.PlainDateTime.from(trimmed, { overflow: 'reject' });
    const candidates = zoneInstants(wall, zone);
    if (candidates.length === 1 && candidates[0])
      return { ok: true, ms: candidates[0].epochMilliseconds };
    const shown = wall.toString({ smallestUnit: 'minute' }).replace('T', ' ');
    return candidates.length === 0
      ? {
          ok: false,
          reason: `${shown} does not exist in ${zone} (the clocks skip it for daylight saving time)`,
        }
      : {
          ok: false,
          reason: `${shown} happens twice in ${zone} (the clocks go back); give the offset, e.g. ${withOffsets(wall, zone)}`,
        };
  } catch {
    return {
      ok: false,
      reason: `${quoted(text)} is not a date and time such as 2026-11-22T15:00 or 2026-11-22T15:00:00Z`,
    };
  }
}

function zoneInstants(wall: Temporal.PlainDateTime, zone: string): Temporal.Instant[] {
  // Both readings of the wall time; they differ only around a DST change.
  const earlier = wall.toZonedDateTime(zone, { disambiguation: 'earlier' });
  const later = wall.toZonedDateTime(zone, { disambiguation: 'later' });
  const exact = [earlier, later].filter((zoned) => zoned.toPlainDateTime().equals(wall));
  if (exact.length === 0) return [];
  return earlier.epochMilliseconds === later.epochMilliseconds
    ? [earlier.toInstant()]
    : [earlier.toInstant(), later.toInstant()];
}

function withOffsets(wall: Temporal.PlainDateTime, zone: string): string {
  return ['earlier', 'later']
    .map((disambiguation) =>
      wall
        .toZonedDateTime(zone, { disambiguation: disambiguation as 'earlier' | 'later' })
        .toString({ timeZoneName: 'never', smallestUnit: 'minute' }),
    )
    .join(' or ');
}

/** How an instant reads in a zone, e.g. "2026-11-22 16:00 (Europe/Berlin)". */
export function formatInZone(ms: number, zone: string): string {
  const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
  return `${zoned.toPlainDateTime().toString({ smallestUnit: 'minute' }).replace('T', ' ')} (${zone})`;
}

/**
 * Reads many instants as wall times of one zone, fast: the zone's offset is looked up once per
 * stretch between two of its transitions, so a month of 5,000 posts costs a handful of Temporal
 * calls instead of thousands (the calendar's budget is 100 ms).
 */
export class WallClock {
  private readonly stretches: { from: number; to: number; offsetMs: number }[] = [];

  constructor(readonly zone: string) {}

  /** The zone's offset from UTC at an instant, in milliseconds. */
  offsetAt(ms: number): number {
    for (const stretch of this.stretches)
      if (ms >= stretch.from && ms < stretch.to) return stretch.offsetMs;
    const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(this.zone);
    // From one millisecond later, "previous" also finds a transition at exactly `ms`.
    const previous = Temporal.Instant.fromEpochMilliseconds(ms + 1)
      .toZonedDateTimeISO(this.zone)
      .getTimeZoneTransition('previous');
    const next = zoned.getTimeZoneTransition('next');
    const offsetMs = zoned.offsetNanoseconds / 1e6;
    this.stretches.push({
      from: previous?.epochMilliseconds ?? -Infinity,
      to: next?.epochMilliseconds ?? Infinity,
      offsetMs,
    });
    return offsetMs;
  }

  /** The wall time ("2026-11-22T16:00:00") the zone's clocks show, plus `minutes` of wall time. */
  wall(ms: number, minutes = 0): string {
    return new Date(ms + this.offsetAt(ms) + minutes * 60_000).toISOString().slice(0, 19);
  }
}
