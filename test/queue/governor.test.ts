// The rate-limit governor with a fake clock: budget, windows, headers, 429, priority, pause.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRIORITY } from '../../shared/domain';
import type { Release } from '../../main/queue/governor';
import { RateGovernor } from '../../main/queue/governor';
import type { RateLimitState } from '../../main/platform/rate-limit';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => vi.useRealTimers());

const headers = (remaining: number, resetAtMs: number, limit = 3): RateLimitState => ({
  limit,
  remaining,
  resetAtMs,
  retryAfterMs: null,
  observedAtMs: Date.now(),
});

async function grants(governor: RateGovernor, count: number, priority = PRIORITY.due) {
  const granted: Release[] = [];
  for (let i = 0; i < count; i++)
    void governor.acquire(priority).then((release) => granted.push(release));
  await vi.advanceTimersByTimeAsync(0);
  return granted;
}

describe('RateGovernor', () => {
  it('lets the plan’s limit through, then waits for the window to reset', async () => {
    const governor = new RateGovernor({ limit: 3, windowMs: 1_000 });
    const granted = await grants(governor, 5);
    expect(granted).toHaveLength(3);
    granted.forEach((release) => release());
    await vi.advanceTimersByTimeAsync(999);
    expect(granted).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toHaveLength(5);
  });

  it('trusts the platform: fewer remaining than it thought, and a reset that moves', async () => {
    const governor = new RateGovernor({ limit: 60, windowMs: 60_000 });
    const [first] = await grants(governor, 1);
    governor.observe(200, headers(1, 5_000, 60)); // another client used most of the window
    first?.();
    const granted = await grants(governor, 3);
    expect(granted).toHaveLength(1);
    expect(governor.state()).toMatchObject({ remaining: 0, resetAtMs: 5_000, limit: 60 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(granted).toHaveLength(3);
  });

  it('stops on 429 until Retry-After has passed', async () => {
    const governor = new RateGovernor({ limit: 100, windowMs: 60_000 });
    const [first] = await grants(governor, 1);
    governor.observe(429, { ...headers(0, 60_000, 100), retryAfterMs: 2_000 });
    first?.();
    expect(governor.state().remaining).toBe(0);
    const granted = await grants(governor, 1);
    expect(granted).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(granted).toHaveLength(1);
  });

  it('serves the user first, then due publishing, then hand-offs, then sync', async () => {
    const governor = new RateGovernor({ limit: 1, windowMs: 1_000 });
    const [blocker] = await grants(governor, 1);
    const order: string[] = [];
    for (const [name, priority] of [
      ['sync', PRIORITY.sync],
      ['handOff', PRIORITY.handOff],
      ['due', PRIORITY.due],
      ['user', PRIORITY.user],
    ] as const) {
      void governor.acquire(priority).then((release) => {
        order.push(name);
        release();
      });
    }
    blocker?.();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(order).toEqual(['user', 'due', 'handOff', 'sync']);
  });

  it('keeps many requests in flight when the budget allows, but never more than maxInFlight', async () => {
    const governor = new RateGovernor({ limit: 6000, windowMs: 60_000, maxInFlight: 8 });
    const granted = await grants(governor, 20);
    expect(granted).toHaveLength(8);
    granted.splice(0, 4).forEach((release) => release());
    await vi.advanceTimersByTimeAsync(0);
    expect(governor.state().inFlight).toBe(8);
  });

  it('holds everything while paused', async () => {
    const governor = new RateGovernor({ limit: 10 });
    governor.pause('token refused');
    const granted = await grants(governor, 2);
    expect(granted).toHaveLength(0);
    expect(governor.state().paused).toBe('token refused');
    governor.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(2);
  });
});
