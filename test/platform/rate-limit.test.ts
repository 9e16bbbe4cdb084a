// Every family of rate-limit headers and form of Reset and Retry-After the client reads, garbage
// it ignores, and the server's clock measured from Date headers.
import { describe, expect, it } from 'vitest';
import {
  parseRateLimit,
  parseResetHeader,
  parseRetryAfter,
  readReset,
} from '../../main/platform/rate-limit';
import { ServerClock } from '../../main/platform/server-clock';

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
      reset: { format: 'epoch-seconds', ms: NOW + 60_000, precisionMs: 1 },
      windowMs: null,
      retryAfterMs: 3_000,
      serverDateMs: null,
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

describe('every family of rate-limit headers', () => {
  const read = (headers: Record<string, string>) => parseRateLimit(new Headers(headers), NOW);

  it('reads X-Rate-Limit-* as X-RateLimit-*', () => {
    expect(
      read({
        'X-Rate-Limit-Limit': '20',
        'X-Rate-Limit-Remaining': '4',
        'X-Rate-Limit-Reset': '1795359660',
      }),
    ).toMatchObject({ limit: 20, remaining: 4, resetAtMs: NOW + 60_000 });
  });

  it('reads the IETF draft’s separate RateLimit-Limit, -Remaining and -Reset (a delay)', () => {
    expect(
      read({ 'RateLimit-Limit': '100', 'RateLimit-Remaining': '99', 'RateLimit-Reset': '50' }),
    ).toMatchObject({
      limit: 100,
      remaining: 99,
      resetAtMs: NOW + 50_000,
      reset: { format: 'delta-seconds' },
    });
  });

  it('reads the structured RateLimit and RateLimit-Policy fields, old and new drafts', () => {
    expect(
      read({ RateLimit: '"default";r=50;t=30', 'RateLimit-Policy': '"default";q=100;w=60' }),
    ).toMatchObject({ limit: 100, remaining: 50, resetAtMs: NOW + 30_000, windowMs: 60_000 });
    expect(read({ RateLimit: 'limit=10, remaining=3, reset=7' })).toMatchObject({
      limit: 10,
      remaining: 3,
      resetAtMs: NOW + 7_000,
    });
    expect(read({ 'RateLimit-Policy': '10;w=1, 50;w=60' })).toMatchObject({
      limit: 10,
      windowMs: 1_000,
    });
  });

  it('keeps the server’s Date, and a Reset as written for the governor to place', () => {
    expect(
      read({ 'X-RateLimit-Remaining': '1', Date: 'Sun, 22 Nov 2026 15:01:30 GMT' }),
    ).toMatchObject({ serverDateMs: NOW + 90_000 });
    expect(readReset('4')).toEqual({ format: 'delta-seconds', ms: 4_000, precisionMs: 1000 });
    expect(readReset('1795359660')).toMatchObject({ format: 'epoch-seconds' });
    expect(readReset('1795359660123')).toMatchObject({
      format: 'epoch-milliseconds',
      precisionMs: 1,
    });
    expect(readReset('Sun, 22 Nov 2026 15:01:00 GMT')).toMatchObject({ format: 'http-date' });
  });
});

describe('ServerClock', () => {
  it('pins the skew down from whole-second Date headers seen at different instants', () => {
    const clock = new ServerClock();
    expect(clock.skewMs).toBe(0);
    const trueSkew = 90_437;
    for (let at = NOW; at < NOW + 5_000; at += 370) {
      const serverDateMs = Math.floor((at + 10 + trueSkew) / 1000) * 1000;
      clock.observe({ serverDateMs, sentAtMs: at, receivedAtMs: at + 20 });
    }
    expect(Math.abs(clock.skewMs - trueSkew)).toBeLessThanOrEqual(20);
  });

  it('starts afresh when the server’s clock is set', () => {
    const clock = new ServerClock(5_000);
    clock.observe({ serverDateMs: NOW - 60_000, sentAtMs: NOW, receivedAtMs: NOW + 20 });
    expect(Math.abs(clock.skewMs + 59_500)).toBeLessThanOrEqual(520);
  });
});
