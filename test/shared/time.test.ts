import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { WallClock, formatInZone, isTimeZone, toInstant } from '../../shared/time';

describe('toInstant', () => {
  it('reads exact instants and wall times in a zone', () => {
    expect(toInstant('2026-11-22T15:00:00Z', 'Europe/Berlin')).toEqual({
      ok: true,
      ms: Date.UTC(2026, 10, 22, 15),
    });
    expect(toInstant('2026-11-22T15:00+02:00', 'UTC')).toEqual({
      ok: true,
      ms: Date.UTC(2026, 10, 22, 13),
    });
    expect(toInstant('2026-11-22 15:00', 'Europe/Berlin')).toEqual({
      ok: true,
      ms: Date.UTC(2026, 10, 22, 14),
    });
    expect(toInstant('2026-07-01T09:00', 'America/New_York')).toEqual({
      ok: true,
      ms: Date.UTC(2026, 6, 1, 13),
    });
  });

  it('refuses a wall time in a DST gap, saying why', () => {
    const gap = toInstant('2026-03-29 02:30', 'Europe/Berlin');
    expect(gap).toEqual({
      ok: false,
      reason:
        '2026-03-29 02:30 does not exist in Europe/Berlin (the clocks skip it for daylight saving time)',
    });
  });

  it('refuses a wall time in a DST overlap, offering both readings', () => {
    const overlap = toInstant('2026-10-25 02:30', 'Europe/Berlin');
    expect(overlap.ok).toBe(false);
    expect(!overlap.ok && overlap.reason).toBe(
      '2026-10-25 02:30 happens twice in Europe/Berlin (the clocks go back); give the offset, e.g. 2026-10-25T02:30+02:00 or 2026-10-25T02:30+01:00',
    );
  });

  it('refuses text that is no date and time', () => {
    for (const text of ['tomorrow', '2026-02-30 10:00', '2026-11-22 25:00'])
      expect(toInstant(text, 'UTC').ok).toBe(false);
  });

  it('knows zones and shows instants in them', () => {
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(formatInZone(Date.UTC(2026, 10, 22, 15), 'Asia/Kolkata')).toBe(
      '2026-11-22 20:30 (Asia/Kolkata)',
    );
  });
});

describe('WallClock', () => {
  const temporalWall = (ms: number, zone: string) =>
    Temporal.Instant.fromEpochMilliseconds(ms)
      .toZonedDateTimeISO(zone)
      .toPlainDateTime()
      .toString({ smallestUnit: 'second' });

  it.each(['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'])(
    'reads every instant as Temporal does in %s, around its DST changes too',
    (zone) => {
      const clock = new WallClock(zone);
      const start = Date.UTC(2026, 0, 1);
      // Every 67 minutes for a year, in an order that jumps between stretches.
      const instants = Array.from(
        { length: 8_000 },
        (_, i) => start + ((i * 7919) % 8_000) * 67 * 60_000,
      );
      for (const ms of instants) expect(clock.wall(ms)).toBe(temporalWall(ms, zone));
    },
  );

  it('gets the instants right at and next to a transition', () => {
    const clock = new WallClock('Europe/Berlin');
    const springForward = Date.UTC(2026, 2, 29, 1, 0); // 02:00 CET becomes 03:00 CEST
    expect(clock.wall(springForward - 1)).toBe('2026-03-29T01:59:59');
    expect(clock.wall(springForward)).toBe('2026-03-29T03:00:00');
    const fallBack = Date.UTC(2026, 9, 25, 1, 0); // 03:00 CEST becomes 02:00 CET
    expect(clock.wall(fallBack - 1)).toBe('2026-10-25T02:59:59');
    expect(clock.wall(fallBack)).toBe('2026-10-25T02:00:00');
  });

  it('adds wall minutes as a plain date-time would', () => {
    const clock = new WallClock('Europe/Berlin');
    expect(clock.wall(Date.UTC(2026, 10, 22, 22, 45), 30)).toBe('2026-11-23T00:15:00');
  });
});
