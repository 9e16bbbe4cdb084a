// The reference server's rate limit, seen through the client's parsed headers.
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../main/platform/errors';
import type { ResponseInfo } from '../../main/platform/client';
import { rejectionOf, startTestPlatform } from '../support/platform';

describe('rate limit per token', () => {
  it('on Free, request 61 inside a window gets 429; Remaining counts down and Reset is the window end', async () => {
    // A long window that starts now, so all 61 requests fall inside it.
    const start = Date.now();
    let offset = 0;
    const platform = await startTestPlatform({
      plan: 'free',
      windowMs: 3_600_000,
      now: () => start + offset,
    });
    const seen: ResponseInfo[] = [];
    const client = platform.clientWith(platform.server.token, {
      onResponse: (info) => seen.push(info),
    });
    const windowEnd = start - (start % 3_600_000) + 3_600_000;

    for (let request = 1; request <= 60; request++) await client.listBots();
    expect(seen.map((info) => info.rateLimit?.remaining)).toEqual(
      Array.from({ length: 60 }, (_, i) => 59 - i),
    );
    expect(seen.every((info) => info.rateLimit?.limit === 60)).toBe(true);
    expect(seen.every((info) => info.rateLimit?.resetAtMs === windowEnd)).toBe(true);

    const error = await rejectionOf(client.listBots());
    expect(error).toBeInstanceOf(PlatformError);
    const limited = error as PlatformError;
    expect(limited).toMatchObject({
      status: 429,
      kind: 'rate_limited',
      code: 'rate_limited',
      retryable: true,
    });
    expect(limited.retryAfterMs).toBe(Math.ceil((windowEnd - start) / 1000) * 1000);
    expect(limited.rateLimit?.remaining).toBe(0);

    // A second token of the same account has its own window.
    const other = await platform.admin<{ token: string }>('POST', '/accounts/acct_1/tokens');
    await expect(platform.clientWith(other.token).listBots()).resolves.toBeDefined();

    // The next window starts afresh, and Reset moves to its end.
    offset = windowEnd - start;
    seen.length = 0;
    await client.listBots();
    // The server's clock moved an hour on; its Reset, as written, is the next window's end.
    expect(seen[0]?.rateLimit).toMatchObject({
      remaining: 59,
      reset: { format: 'epoch-seconds', ms: windowEnd + 3_600_000 },
    });
    expect(platform.server.stats.rateLimited).toBe(1);
  });

  it('uses the plan of the account: Pro 600, Enterprise 6000, and a custom limit', async () => {
    const platform = await startTestPlatform({ plan: 'pro' });
    const seen: ResponseInfo[] = [];
    await platform
      .clientWith(platform.server.token, { onResponse: (info) => seen.push(info) })
      .listBots();
    expect(seen[0]?.rateLimit?.limit).toBe(600);
    const enterprise = await platform.admin<{ token: string }>('POST', '/accounts', {
      plan: 'enterprise',
    });
    await platform
      .clientWith(enterprise.token, { onResponse: (info) => seen.push(info) })
      .listBots();
    expect(seen[1]?.rateLimit?.limit).toBe(6000);
    await platform.admin('PATCH', '/accounts/acct_2', { rate_limit: 9000 });
    await platform
      .clientWith(enterprise.token, { onResponse: (info) => seen.push(info) })
      .listBots();
    expect(seen[2]?.rateLimit?.limit).toBe(9000);
  });

  it('sends a fractional epoch Reset only for windows that are not whole seconds', async () => {
    const platform = await startTestPlatform({ windowMs: 1_500, now: () => 1_800_000_000_100 });
    const response = await fetch(`${platform.server.baseUrl}/bots`, {
      headers: { Authorization: `Bearer ${platform.server.token}` },
    });
    expect(response.headers.get('x-ratelimit-reset')).toBe('1800000001.500');
    const whole = await startTestPlatform({ windowMs: 2_000, now: () => 1_800_000_000_100 });
    const wholeResponse = await fetch(`${whole.server.baseUrl}/bots`, {
      headers: { Authorization: `Bearer ${whole.server.token}` },
    });
    expect(wholeResponse.headers.get('x-ratelimit-reset')).toBe('1800000002');
  });
});

describe('rate-limit options, to test clients against other platforms', () => {
  it('a limit below the plan, no Limit header, a Reset in any form, and a clock ahead', async () => {
    const platform = await startTestPlatform({
      plan: 'free',
      rateLimit: 20,
      windowMs: 4_000,
      rateHeaders: { limit: false, reset: 'delta-seconds' },
      clockOffsetMs: 90_000,
    });
    const call = () =>
      fetch(`${platform.server.baseUrl}/bots`, {
        headers: { Authorization: `Bearer ${platform.server.token}` },
      });
    const first = await call();
    expect(first.headers.get('x-ratelimit-limit')).toBeNull();
    expect(first.headers.get('x-ratelimit-remaining')).toBe('19');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(0);
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(4);
    const serverDate = Date.parse(first.headers.get('date') ?? '');
    expect(Math.abs(serverDate - (Date.now() + 90_000))).toBeLessThan(2_000);
    for (const reset of ['epoch-milliseconds', 'http-date'] as const) {
      const other = await startTestPlatform({ windowMs: 4_000, rateHeaders: { reset } });
      const answer = await fetch(`${other.server.baseUrl}/bots`, {
        headers: { Authorization: `Bearer ${other.server.token}` },
      });
      const text = answer.headers.get('x-ratelimit-reset') ?? '';
      expect(reset === 'http-date' ? /GMT$/.test(text) : /^\d{13}$/.test(text)).toBe(true);
    }
  });
});
