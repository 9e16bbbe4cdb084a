// Instants as the platform sends them (#32): the canonical ISO UTC form is read without
// Temporal, and reads exactly as before; anything it cannot prove possible takes the full path.
import { describe, expect, it } from 'vitest';
import { toIso } from '../../main/platform/normalize/fields';

describe('toIso on canonical ISO UTC texts', () => {
  it('reads them to the millisecond, with or without a fraction', () => {
    expect(toIso('2026-11-28T12:39:21.615Z')).toBe('2026-11-28T12:39:21.615Z');
    expect(toIso('2026-11-28T12:39:21.6Z')).toBe('2026-11-28T12:39:21.600Z');
    expect(toIso('2026-11-28T12:39:21Z')).toBe('2026-11-28T12:39:21.000Z');
    expect(toIso('0000-01-01T00:00:00Z')).toBe('0000-01-01T00:00:00.000Z');
  });

  it('refuses an impossible day, and leaves a leap second to the full reading', () => {
    expect(toIso('2026-02-30T10:00:00Z')).toBeNull();
    expect(toIso('2025-02-29T10:00:00Z')).toBeNull();
    expect(toIso('2024-02-29T10:00:00Z')).toBe('2024-02-29T10:00:00.000Z');
    expect(toIso('2016-12-31T23:59:60Z')).toBe('2016-12-31T23:59:59.000Z');
  });
});
