import { describe, expect, it } from 'vitest';
import { formatInZone, isTimeZone, toInstant } from '../../shared/time';

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
