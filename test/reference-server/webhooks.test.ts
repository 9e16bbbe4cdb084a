// The webhook dispatcher against a real HTTP receiver: signature over the raw bytes, headers,
// retries with backoff, the attempt limit, 410 Gone, timeouts, connection errors and close().
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookDispatcher } from '../../main/reference-server/webhooks';
import type {
  DeliveryAttempt,
  WebhookDispatcherOptions,
} from '../../main/reference-server/webhooks';
import { verifyWebhookSignature } from '../../main/platform/webhook-signature';
import type { WebhookEvent } from '../../main/platform/wire';

const SECRET = 'sixteen-chars-secret';
const event: WebhookEvent = {
  id: 'evt_1',
  type: 'comment.posted',
  created_at: '2026-11-22T15:00:00.000Z',
  data: {
    comment: {
      id: 'cmt_1',
      post_id: null,
      bot_id: 'bot_1',
      // Non-ASCII on purpose: the signature must cover the UTF-8 bytes sent, not UTF-16 text.
      author_name: 'Zoë',
      text: 'Olá! 🍞',
      created_at: '2026-11-22T15:00:00.000Z',
    },
  },
};

interface Received {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  atMs: number;
}

/** The receiver's check: the signature header against the raw bytes, as they arrived. */
function signedWith(secret: string, request: Received): boolean {
  const header = request.headers['x-webhook-signature'];
  return verifyWebhookSignature(secret, request.raw, typeof header === 'string' ? header : null);
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A receiver on 127.0.0.1 answering request n with `answer(n)`; 'hang' never answers, and a 3xx
 * points elsewhere on the same receiver.
 */
async function receiver(answer: (request: number) => number | 'hang' = () => 200) {
  const received: Received[] = [];
  const server = createServer((request, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: request.headers, atMs: Date.now() });
      const status = answer(received.length);
      if (status === 'hang') return;
      const redirect = status >= 300 && status < 400 ? { location: '/elsewhere' } : {};
      response.writeHead(status, redirect).end('ignored');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received };
}

function dispatcher(options: Partial<WebhookDispatcherOptions> = {}) {
  const attempts: DeliveryAttempt[] = [];
  const gone: string[] = [];
  const instance = new WebhookDispatcher({
    timeScale: 0.001,
    random: () => 0.5,
    onAttempt: (attempt) => attempts.push(attempt),
    onGone: (id) => gone.push(id),
    ...options,
  });
  cleanups.push(() => instance.close());
  return { instance, attempts, gone };
}

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WebhookDispatcher', () => {
  it('POSTs the event with its headers, signed over the exact bytes received', async () => {
    const hook = await receiver();
    const { instance, attempts } = dispatcher({ now: () => 1_234 });
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await instance.idle();

    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    if (!request) throw new Error('no request');
    expect(signedWith(SECRET, request)).toBe(true);
    expect(signedWith('another-secret-16', request)).toBe(false);
    expect(JSON.parse(request.raw.toString('utf8'))).toEqual(event);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'PlatformWebhooks/1',
      'x-webhook-id': 'wh_1',
      'x-event-id': 'evt_1',
      'x-event-type': 'comment.posted',
      'x-webhook-attempt': '1',
    });
    expect(attempts).toEqual([
      {
        subscriptionId: 'wh_1',
        eventId: 'evt_1',
        attempt: 1,
        status: 200,
        error: null,
        delivered: true,
        atMs: 1_234,
      },
    ]);
  });

  it('retries after 5xx with growing delays, the same signed bytes and the attempt counted', async () => {
    const hook = await receiver((n) => (n <= 2 ? 500 : 204));
    // 1 s and 2 s scaled by 0.01; random 0.5 means no jitter.
    const { instance, attempts } = dispatcher({ timeScale: 0.01 });
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await instance.idle();

    expect(hook.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    const [first, ...rest] = hook.received;
    for (const request of hook.received) {
      expect(signedWith(SECRET, request)).toBe(true);
      expect(request.raw.equals(first?.raw ?? Buffer.alloc(0))).toBe(true);
    }
    const gaps = rest.map((request, index) => request.atMs - (hook.received[index]?.atMs ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(9);
    expect(gaps[1]).toBeGreaterThanOrEqual(19);
    expect(attempts.map((a) => [a.attempt, a.status, a.delivered])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 204, true],
    ]);
  });

  it('gives up after maxAttempts', async () => {
    const hook = await receiver(() => 500);
    const { instance, attempts, gone } = dispatcher({ maxAttempts: 4 });
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await instance.idle();
    await sleep(30);

    expect(hook.received).toHaveLength(4);
    expect(attempts.map((a) => [a.attempt, a.status, a.delivered])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 500, false],
    ]);
    expect(gone).toEqual([]);
  });

  it('tries 8 times by default', async () => {
    const hook = await receiver(() => 503);
    const { instance } = dispatcher();
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await instance.idle();
    expect(hook.received.map((r) => r.headers['x-webhook-attempt'])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
    ]);
  });

  it('stops on 410 Gone and reports the subscription', async () => {
    const hook = await receiver(() => 410);
    const { instance, attempts, gone } = dispatcher();
    instance.dispatch({ id: 'wh_7', url: hook.url, secret: SECRET }, event);
    await instance.idle();
    await sleep(20);

    expect(hook.received).toHaveLength(1);
    expect(gone).toEqual(['wh_7']);
    expect(attempts.map((a) => [a.status, a.delivered])).toEqual([[410, false]]);
  });

  it('does not follow redirects: a 3xx is not a delivery', async () => {
    const hook = await receiver((n) => (n === 1 ? 302 : 200));
    const { instance, attempts } = dispatcher({ maxAttempts: 1 });
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await instance.idle();
    expect(hook.received).toHaveLength(1);
    expect(attempts.map((a) => [a.status, a.delivered])).toEqual([[302, false]]);
  });

  it('retries a receiver that does not answer in time', async () => {
    const hook = await receiver((n) => (n === 1 ? 'hang' : 204));
    const { instance, attempts } = dispatcher({ timeoutMs: 100 });
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await instance.idle();

    expect(attempts.map((a) => [a.attempt, a.status, a.error, a.delivered])).toEqual([
      [1, null, 'no answer within 100 ms', false],
      [2, 204, null, true],
    ]);
  });

  it('retries a connection error and says what failed', async () => {
    const closed = await receiver();
    await cleanups.pop()?.(); // nothing listens on that port any more
    const { instance, attempts } = dispatcher({ maxAttempts: 2 });
    instance.dispatch({ id: 'wh_1', url: closed.url, secret: SECRET }, event);
    await instance.idle();

    expect(attempts.map((a) => [a.attempt, a.status, a.delivered])).toEqual([
      [1, null, false],
      [2, null, false],
    ]);
    expect(attempts[0]?.error).toMatch(/ECONNREFUSED/);
  });

  it('spreads retries 1, 2 … s × timeScale with ±20 % jitter', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    cleanups.push(() => vi.useRealTimers());
    const calls: number[] = [];
    const fakeFetch = (async () => {
      calls.push(Date.now());
      return new Response(null, { status: 500 });
    }) as typeof fetch;
    const dice = [0, 1]; // the shortest, then the longest wait
    const { instance } = dispatcher({
      timeScale: 1,
      maxAttempts: 3,
      fetch: fakeFetch,
      random: () => dice.shift() ?? 0.5,
    });
    instance.dispatch({ id: 'wh_1', url: 'http://receiver.invalid/', secret: SECRET }, event);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(799);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_399);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
  });

  it('keeps no process alive while a retry waits', async () => {
    const hook = await receiver(() => 500);
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    cleanups.push(() => timeouts.mockRestore());
    const { instance, attempts } = dispatcher({ timeScale: 1 }); // first retry after 1 s
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await until(() => attempts.length === 1);

    const retry = timeouts.mock.calls.findIndex(([, delay]) => delay === 1_000);
    const timer = timeouts.mock.results[retry]?.value as NodeJS.Timeout | undefined;
    expect(timer?.hasRef()).toBe(false);
  });

  it('close() cancels pending retries and ignores later events', async () => {
    const hook = await receiver(() => 503);
    const { instance, attempts } = dispatcher({ timeScale: 0.05 }); // first retry after 50 ms
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await until(() => attempts.length === 1);
    await instance.close();
    await instance.idle();
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await sleep(150);

    expect(hook.received).toHaveLength(1);
    expect(attempts).toHaveLength(1);
  });

  it('close() aborts a request in flight without waiting for its timeout', async () => {
    const hook = await receiver(() => 'hang');
    const { instance, attempts } = dispatcher(); // 10 s timeout
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await until(() => hook.received.length === 1);
    const started = Date.now();
    await instance.close();

    expect(Date.now() - started).toBeLessThan(1_000);
    expect(attempts).toEqual([]);
  });

  it('never throws out of dispatch, nor lets a throwing listener stop the retries', async () => {
    const hook = await receiver((n) => (n === 1 ? 500 : 200));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    cleanups.push(() => error.mockRestore());
    let heard = 0;
    const instance = new WebhookDispatcher({
      timeScale: 0.001,
      random: () => 0.5,
      onAttempt: () => {
        heard++;
        throw new Error('listener broke');
      },
    });
    cleanups.push(() => instance.close());
    const unserialisable = { ...event, data: { size: 1n } } as unknown as WebhookEvent;
    expect(() =>
      instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, unserialisable),
    ).not.toThrow();
    instance.dispatch({ id: 'wh_1', url: hook.url, secret: SECRET }, event);
    await instance.idle();

    expect(hook.received).toHaveLength(2);
    expect(heard).toBe(3); // the unserialisable event, then both attempts of the other
    expect(error).toHaveBeenCalledTimes(3);
  });
});
