// The rate-limit governor with a fake clock: slow start, learned limits and windows, the server's
// clock, every 429 obeyed, priority, pause. Servers are simulated fixed windows on the same clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRIORITY } from '../../shared/domain';
import type { GovernorOptions, LearnedRateLimit, Release } from '../../main/platform/governor';
import { RateGovernor } from '../../main/platform/governor';
import { parseRateLimit } from '../../main/platform/rate-limit';
import type { ResetFormat } from '../../main/platform/rate-limit';
import { fixedWindowServer } from '../support/fixed-window';
import type { Answer, FixedWindowOptions } from '../support/fixed-window';

// 12:00:01 UTC: one second into a 4 s window aligned to the epoch.
const T0 = Date.UTC(2026, 10, 25, 12, 0, 1);
const LATENCY_MS = 30;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function grants(governor: RateGovernor, count: number, priority = PRIORITY.due) {
  const granted: Release[] = [];
  for (let i = 0; i < count; i++)
    void governor.acquire(priority).then((release) => granted.push(release));
  await vi.advanceTimersByTimeAsync(0);
  return granted;
}

/** Answers one granted request: the server sees it half a round trip later, we its answer after. */
async function send(governor: RateGovernor, server: (now: number) => Answer): Promise<number> {
  await sleep(LATENCY_MS / 2);
  const answer = server(Date.now());
  await sleep(LATENCY_MS / 2);
  governor.observe(answer.status, parseRateLimit(answer.headers, Date.now()), LATENCY_MS);
  return answer.status;
}

/** `requests` requests due at once, each retried until accepted; what the server refused. */
async function burst(governor: RateGovernor, server: (now: number) => Answer, requests: number) {
  const started = Date.now();
  let refused = 0;
  let sent = 0;
  let lastAcceptedAt = 0;
  const one = async () => {
    for (;;) {
      const release = await governor.acquire(PRIORITY.due);
      sent++;
      const status = await send(governor, server);
      release();
      if (status !== 429) {
        lastAcceptedAt = Date.now();
        return;
      }
      refused++;
    }
  };
  const all = Promise.all(Array.from({ length: requests }, one));
  await vi.advanceTimersByTimeAsync(120_000);
  await all;
  return { refused, sent, spanMs: lastAcceptedAt - started };
}

/** The least span: whole windows of the server's clock, the last answer half a round trip on. */
function idealSpanMs(options: FixedWindowOptions, requests: number, started = T0): number {
  const serverNow = started + (options.offsetMs ?? 0);
  const windowStart = serverNow - (serverNow % options.windowMs) - (options.offsetMs ?? 0);
  const windows = Math.ceil(requests / options.limit) - 1;
  return windowStart + windows * options.windowMs + LATENCY_MS / 2 - started;
}

const free = (extra: Partial<GovernorOptions> = {}) =>
  new RateGovernor({ limit: 60, windowMs: 60_000, ...extra });

describe('RateGovernor: a limit below the plan, only Remaining and Reset sent', () => {
  const cases: [string, FixedWindowOptions][] = (
    ['epoch-seconds', 'delta-seconds', 'epoch-milliseconds', 'http-date'] as ResetFormat[]
  ).flatMap((reset) => [
    [`${reset}`, { limit: 20, windowMs: 4_000, reset }],
    [`${reset}, server clock 90 s ahead`, { limit: 20, windowMs: 4_000, reset, offsetMs: 90_000 }],
  ]);

  it.each(cases)(
    '%s: 60 requests at once get at most one 429, span within 1.5 s of ideal',
    async (_, options) => {
      const result = await burst(free(), fixedWindowServer(options), 60);
      expect(result.refused).toBeLessThanOrEqual(1);
      expect(result.spanMs).toBeLessThanOrEqual(idealSpanMs(options, 60) + 1_500);
    },
  );

  it('keeps one request in flight until an answer with rate-limit headers', async () => {
    const governor = free();
    const granted = await grants(governor, 5);
    expect(granted).toHaveLength(1);
    governor.observe(200, null);
    granted[0]?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(2); // an answer without headers says nothing: still one at a time
    governor.observe(
      200,
      parseRateLimit(new Headers({ 'X-RateLimit-Remaining': '2' }), Date.now()),
    );
    await vi.advanceTimersByTimeAsync(0);
    // Two remain after the request that was in flight: two more go.
    expect(granted).toHaveLength(4);
  });

  it('at a reset assumes the limit learned, not the plan, and learns the window from two resets', async () => {
    const options = { limit: 20, windowMs: 4_000 };
    const learned: LearnedRateLimit[] = [];
    const governor = free({ onLearn: (value) => learned.push(value) });
    await burst(governor, fixedWindowServer(options), 45);
    expect(governor.learned()).toMatchObject({
      limit: 20,
      windowMs: 4_000,
      skewMs: expect.any(Number),
    });
    expect(learned.at(-1)).toMatchObject({ limit: 20, windowMs: 4_000 });
  });

  it('ramps up 1, 2, 4 … at resets while no limit is known', async () => {
    const governor = free();
    const resetOnly = () => parseRateLimit(new Headers({ 'X-RateLimit-Reset': '4' }), Date.now());
    const granted = await grants(governor, 100);
    const perWindow: number[] = [];
    for (let window = 0, answered = 0; window < 4; window++) {
      perWindow.push(granted.length - answered);
      for (const release of granted.slice(answered)) {
        governor.observe(200, resetOnly());
        release();
      }
      answered = granted.length;
      await vi.advanceTimersByTimeAsync(4_000);
    }
    expect(perWindow.slice(0, 4)).toEqual([1, 2, 4, 8]);
  });

  it('starts from what an earlier run learned: the limit at once after the first reset', async () => {
    const options = { limit: 20, windowMs: 4_000 };
    const result = await burst(
      free({ learned: { limit: 20, windowMs: 4_000, skewMs: 0 } }),
      fixedWindowServer(options),
      60,
    );
    expect(result.refused).toBe(0);
    expect(result.spanMs).toBeLessThanOrEqual(idealSpanMs(options, 60) + 500);
  });

  it('relearns a limit the platform lowered, with at most one 429', async () => {
    const governor = free({ learned: { limit: 40, windowMs: 4_000, skewMs: 0 } });
    const result = await burst(governor, fixedWindowServer({ limit: 20, windowMs: 4_000 }), 80);
    expect(result.refused).toBeLessThanOrEqual(1);
    expect(governor.learned()).toMatchObject({ limit: 20 });
  });

  it('a limit cut from 20 to 10 between windows costs at most one 429: each window opens with one request', async () => {
    let limit = 20;
    const windows = new Map<number, ReturnType<typeof fixedWindowServer>>();
    // The server's limit as it stands when each window begins.
    const server = (now: number) => {
      const start = now - (now % 4_000);
      if (!windows.has(start)) windows.set(start, fixedWindowServer({ limit, windowMs: 4_000 }));
      return windows.get(start)?.(now) ?? { status: 500, headers: new Headers() };
    };
    const governor = free();
    const first = await burst(governor, server, 40);
    expect(governor.learned()).toMatchObject({ limit: 20 });
    limit = 10;
    await vi.advanceTimersByTimeAsync(4_000);
    const after = await burst(governor, server, 40);
    expect(first.refused + after.refused).toBeLessThanOrEqual(1);
    expect(governor.learned()).toMatchObject({ limit: 10 });
  });
});

describe('RateGovernor: every 429 obeyed', () => {
  it('Retry-After sets exactly when the next request may go, not the window’s end', async () => {
    const governor = free();
    const [first] = await grants(governor, 1);
    governor.observe(
      200,
      parseRateLimit(
        new Headers({ 'X-RateLimit-Remaining': '5', 'X-RateLimit-Reset': '60' }),
        Date.now(),
      ),
    );
    first?.();
    const [second] = await grants(governor, 1);
    governor.observe(
      429,
      parseRateLimit(
        new Headers({
          'Retry-After': '3',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': '60',
        }),
        Date.now(),
      ),
    );
    second?.();
    const granted = await grants(governor, 2);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(granted).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toHaveLength(1); // one probe, then the answers say how many more
  });

  it('reads Retry-After as an HTTP date', async () => {
    const governor = free();
    const [first] = await grants(governor, 1);
    const at = new Date(Date.now() + 5_000).toUTCString();
    governor.observe(429, parseRateLimit(new Headers({ 'Retry-After': at }), Date.now()));
    first?.();
    const granted = await grants(governor, 1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(granted).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toHaveLength(1);
  });

  it('a 429 with no headers pauses everything and backs off, exponentially, with jitter', async () => {
    const governor = free({ random: () => 0.5 });
    const sentAt: number[] = [];
    const loop = (async () => {
      while (Date.now() < T0 + 60_000) {
        const release = await governor.acquire(PRIORITY.due);
        if (Date.now() >= T0 + 60_000) return release();
        sentAt.push(Date.now());
        await sleep(LATENCY_MS);
        governor.observe(429, null, LATENCY_MS);
        release();
      }
    })();
    await vi.advanceTimersByTimeAsync(200_000);
    await loop;
    expect(sentAt.length).toBeLessThanOrEqual(10);
    const gaps = sentAt.slice(1).map((at, i) => at - (sentAt[i] ?? 0) - LATENCY_MS);
    expect(gaps.slice(0, 4)).toEqual([750, 1_500, 3_000, 6_000]);
  });

  it('wakes a waiter whose block ends between its look at the clock and its timer', async () => {
    // The clock reads 1 ms before the block's end when the governor checks whether it may grant,
    // and at the end when it sets its timer (a busy machine between two reads of the clock).
    let clock = T0;
    const readings: number[] = [];
    const governor = free({ random: () => 1, now: () => readings.shift() ?? clock });
    const [first] = await grants(governor, 1);
    governor.observe(429, null);
    first!();
    // The first step of the header-less 429 backoff, with the jitter at its top.
    const blockedUntil = T0 + 1_000;
    clock = blockedUntil;
    readings.push(blockedUntil - 1, blockedUntil - 1);
    let granted = false;
    void governor.acquire(PRIORITY.due).then(() => (granted = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(granted).toBe(true);
  });

  it('a 429 with Reset but no Retry-After waits for that reset', async () => {
    const governor = free();
    const [first] = await grants(governor, 1);
    governor.observe(
      429,
      parseRateLimit(
        new Headers({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '2' }),
        Date.now(),
      ),
    );
    first?.();
    const granted = await grants(governor, 1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(granted).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toHaveLength(1);
  });
});

describe('RateGovernor: order and holding', () => {
  it('serves the user first, then due publishing, then hand-offs, then sync', async () => {
    const governor = free();
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
    const [first] = await grants(governor, 1);
    governor.observe(
      200,
      parseRateLimit(
        new Headers({ 'X-RateLimit-Remaining': '5999', 'X-RateLimit-Reset': '60' }),
        Date.now(),
      ),
    );
    first?.();
    const granted = await grants(governor, 20);
    expect(granted).toHaveLength(8);
    granted.splice(0, 4).forEach((release) => release());
    await vi.advanceTimersByTimeAsync(0);
    expect(governor.state().inFlight).toBe(8);
  });

  it('holds everything while paused', async () => {
    const governor = free();
    governor.pause('token refused');
    const granted = await grants(governor, 2);
    expect(granted).toHaveLength(0);
    expect(governor.state().paused).toBe('token refused');
    governor.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(1);
  });
});
