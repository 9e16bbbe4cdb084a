// Every form of X-RateLimit-Reset and Retry-After the client reads, and garbage it ignores.
import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseResetHeader, parseRetryAfter } from '../../main/platform/rate-limit';

const NOW = Date.UTC(2026, 10, 22, 15, 0, 0); // epoch seconds 1795359600

describe('X-RateLimit-Reset', () => {
  it('reads seconds until reset, whole or fractional', () => {
    expect(parseResetHeader('30', NOW)).toBe(NOW + 30_000);
    expect(parseResetHeader('0', NOW)).toBe(NOW);
    expect(parseResetHeader('1.5', NOW)).toBe(NOW + 1_500);
  });

  it('reads epoch seconds and epoch milliseconds, told apart by magnitude', () => {
    expect(parseResetHeader('1795359660', NOW)).toBe(NOW + 60_000);
    expect(parseResetHeader('1795359660.250', NOW)).toBe(NOW + 60_250);
    expect(parseResetHeader(String(NOW + 45_000), NOW)).toBe(NOW + 45_000);
  });

  it('reads an HTTP date', () => {
    expect(parseResetHeader('Sun, 22 Nov 2026 15:01:00 GMT', NOW)).toBe(NOW + 60_000);
  });

  it('corrects epoch forms for a server clock more than 2 s off, and leaves delays alone', () => {
    const serverAhead = NOW + 120_000; // the server's clock runs two minutes ahead of ours
    expect(parseResetHeader('1795359780', NOW, serverAhead)).toBe(NOW + 60_000);
    expect(parseResetHeader('30', NOW, serverAhead)).toBe(NOW + 30_000);
    expect(parseResetHeader('1795359660', NOW, NOW - 900)).toBe(NOW + 60_000); // Date's rounding: no correction
  });

  it('ignores garbage without throwing', () => {
    for (const garbage of [
      '',
      '   ',
      'soon',
      '-5',
      'NaN',
      'Infinity',
      '1e3',
      '12abc',
      undefined,
      null,
    ]) {
      expect(parseResetHeader(garbage, NOW)).toBeNull();
    }
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, never negative', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter('0.5', NOW)).toBe(500);
    expect(parseRetryAfter('Sun, 22 Nov 2026 15:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 14:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores garbage', () => {
    for (const garbage of ['', 'later', '-1', '10s', undefined])
      expect(parseRetryAfter(garbage, NOW)).toBeNull();
  });
});

describe('parseRateLimit', () => {
  it('gathers every header into one state', () => {
    const headers = new Headers({
      'X-RateLimit-Limit': '600',
      'X-RateLimit-Remaining': '17',
      'X-RateLimit-Reset': '1795359660',
      'Retry-After': '3',
    });
    expect(parseRateLimit(headers, NOW)).toEqual({
      limit: 600,
      remaining: 17,
      resetAtMs: NOW + 60_000,
      retryAfterMs: 3_000,
      observedAtMs: NOW,
    });
  });

  it('reads IETF-draft style limits and keeps what it can of a half-broken set', () => {
    const headers = new Headers({
      'X-RateLimit-Limit': '60, 60;w=60',
      'X-RateLimit-Remaining': 'lots',
      'X-RateLimit-Reset': '12',
    });
    expect(parseRateLimit(headers, NOW)).toMatchObject({
      limit: 60,
      remaining: null,
      resetAtMs: NOW + 12_000,
    });
  });

  it('is null when an answer has no rate-limit headers', () => {
    expect(parseRateLimit(new Headers({ 'Content-Type': 'application/json' }), NOW)).toBeNull();
    expect(parseRateLimit(new Headers({ 'X-RateLimit-Remaining': '-3' }), NOW)).toBeNull();
  });
});
