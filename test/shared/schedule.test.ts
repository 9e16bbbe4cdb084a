import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  formatSchedule,
  freeSlotsBetween,
  nextFreeSlots,
  parseSchedule,
  slotsBetween,
  upcomingSlots,
} from '../../shared/schedule';
import type { WeeklySchedule } from '../../shared/schedule';

function parsed(text: string): WeeklySchedule {
  const result = parseSchedule(text);
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}

const wall = (ms: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .toString({ smallestUnit: 'minute', timeZoneName: 'never' });

describe('parseSchedule and formatSchedule', () => {
  it('reads day ranges, lists and times, and writes the same schedule back', () => {
    const schedule = parsed('mon-fri 09:00,12:30,17:00; sat 10:00');
    expect(schedule).toEqual([
      ['09:00', '12:30', '17:00'],
      ['09:00', '12:30', '17:00'],
      ['09:00', '12:30', '17:00'],
      ['09:00', '12:30', '17:00'],
      ['09:00', '12:30', '17:00'],
      ['10:00'],
      [],
    ]);
    expect(formatSchedule(schedule)).toBe('mon-fri 09:00,12:30,17:00; sat 10:00');
    expect(parsed(formatSchedule(schedule))).toEqual(schedule);
  });

  it('accepts full day names, wrapping ranges, single-digit hours, repeats and blank parts', () => {
    expect(formatSchedule(parsed('Friday-Mon 9:00, 09:00 ;; sun 18:30'))).toBe(
      'mon 09:00; fri-sat 09:00; sun 09:00,18:30',
    );
    expect(parsed('')).toEqual([[], [], [], [], [], [], []]);
  });

  it('names the part and the reason when it cannot read one', () => {
    expect(parseSchedule('mon 09:00; sat 25:00')).toEqual({
      ok: false,
      reason: 'part 2 ("sat 25:00"): "25:00" is not a time of day (HH:MM, 00:00 to 23:59)',
    });
    expect(parseSchedule('someday 09:00')).toEqual({
      ok: false,
      reason:
        'part 1 ("someday 09:00"): "someday" is not a day or a range of days such as mon, sat or mon-fri',
    });
    expect(parseSchedule('09:00')).toMatchObject({ ok: false });
  });
});

describe('slotsBetween', () => {
  const weekdays9 = parsed('mon-fri 09:00');

  it('keeps 09:00 at 09:00 local on both sides of a DST change', () => {
    const zone = 'Europe/Berlin';
    // The week of 2026-03-29 (clocks go forward on Sunday).
    const slots = slotsBetween(weekdays9, zone, Date.UTC(2026, 2, 26), Date.UTC(2026, 3, 1));
    expect(slots.map((ms) => wall(ms, zone))).toEqual([
      '2026-03-26T09:00+01:00',
      '2026-03-27T09:00+01:00',
      '2026-03-30T09:00+02:00',
      '2026-03-31T09:00+02:00',
    ]);
  });

  it('moves a slot the clocks skip to just after the change, and takes a repeated one once', () => {
    const zone = 'America/New_York';
    const nightly = parsed('sun 02:30; sun 01:30');
    const spring = slotsBetween(nightly, zone, Date.UTC(2026, 2, 8), Date.UTC(2026, 2, 9));
    expect(spring.map((ms) => wall(ms, zone))).toEqual([
      '2026-03-08T01:30-05:00',
      '2026-03-08T03:30-04:00',
    ]);
    const autumn = slotsBetween(nightly, zone, Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 2));
    expect(autumn.map((ms) => wall(ms, zone))).toEqual([
      '2026-11-01T01:30-04:00',
      '2026-11-01T02:30-05:00',
    ]);
  });

  it('reads the days in the zone, not in UTC', () => {
    const zone = 'Pacific/Auckland';
    // Monday 09:00 in Auckland is Sunday evening in UTC.
    const slots = slotsBetween(
      parsed('mon 09:00'),
      zone,
      Date.UTC(2026, 10, 22),
      Date.UTC(2026, 10, 24),
    );
    expect(slots).toEqual([Date.UTC(2026, 10, 22, 20, 0)]);
  });
});

describe('nextFreeSlots', () => {
  const zone = 'Europe/Berlin';
  const schedule = parsed('mon-fri 09:00,17:00; sat 10:00');
  // Monday 2026-11-23 08:00 in Berlin.
  const monday8 = Date.UTC(2026, 10, 23, 7, 0);

  it('skips slots already held by a post, and slots in the past', () => {
    const taken = [Date.UTC(2026, 10, 23, 8, 0) /* Mon 09:00 */, Date.UTC(2026, 10, 23, 16, 0, 30)];
    const free = nextFreeSlots(schedule, zone, monday8, taken, 3);
    expect(free.map((ms) => wall(ms, zone))).toEqual([
      '2026-11-24T09:00+01:00',
      '2026-11-24T17:00+01:00',
      '2026-11-25T09:00+01:00',
    ]);
    expect(
      nextFreeSlots(schedule, zone, Date.UTC(2026, 10, 23, 8, 0), [], 1).map((ms) =>
        wall(ms, zone),
      ),
    ).toEqual(['2026-11-23T17:00+01:00']);
  });

  it('looks past the first week, and finds nothing in an empty schedule', () => {
    const saturdays = parsed('sat 10:00');
    expect(nextFreeSlots(saturdays, zone, monday8, [], 3).map((ms) => wall(ms, zone))).toEqual([
      '2026-11-28T10:00+01:00',
      '2026-12-05T10:00+01:00',
      '2026-12-12T10:00+01:00',
    ]);
    expect(nextFreeSlots(parsed(''), zone, monday8, [], 3)).toEqual([]);
  });
});

describe('upcomingSlots and freeSlotsBetween', () => {
  const zone = 'Europe/Berlin';
  const schedule = parsed('mon-fri 09:00; sat 10:00');
  const monday8 = Date.UTC(2026, 10, 23, 7, 0);

  it('walks the slots lazily, past week boundaries, and stops at the horizon', () => {
    const walked: string[] = [];
    for (const ms of upcomingSlots(schedule, zone, monday8)) {
      walked.push(wall(ms, zone));
      if (walked.length === 8) break;
    }
    expect(walked).toEqual([
      '2026-11-23T09:00+01:00',
      '2026-11-24T09:00+01:00',
      '2026-11-25T09:00+01:00',
      '2026-11-26T09:00+01:00',
      '2026-11-27T09:00+01:00',
      '2026-11-28T10:00+01:00',
      '2026-11-30T09:00+01:00',
      '2026-12-01T09:00+01:00',
    ]);
    expect([...upcomingSlots(schedule, zone, monday8, 2)]).toHaveLength(2);
    expect([...upcomingSlots(parsed(''), zone, monday8)]).toEqual([]);
  });

  it('leaves out the slots a post holds in the same minute', () => {
    const free = freeSlotsBetween(schedule, zone, monday8, Date.UTC(2026, 10, 26), [
      Date.UTC(2026, 10, 24, 8, 0, 59),
    ]);
    expect(free.map((ms) => wall(ms, zone))).toEqual([
      '2026-11-23T09:00+01:00',
      '2026-11-25T09:00+01:00',
    ]);
  });
});
