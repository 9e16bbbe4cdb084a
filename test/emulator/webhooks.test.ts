// The webhook dispatcher on its own: retry limit, 410, timeouts and close.
import { describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../main/emulator/webhooks';
import type { DeliveryAttempt } from '../../main/emulator/webhooks';
import type { WebhookEvent } from '../../main/platform/wire';

const event: WebhookEvent = {
  id: 'evt_1',
  type: 'comment.posted',
  created_at: '2026-11-22T15:00:00.000Z',
  data: {
    comment: {
      id: 'cmt_1',
      post_id: null,
      bot_id: 'bot_1',
      author_name: 'Ana',
      text: 'Hi',
      created_at: '2026-11-22T15:00:00.000Z',
    },
  },
};
const target = { id: 'wh_1', url: 'http://receiver.invalid/hook', secret: 'sixteen-chars-secret' };

function dispatcher(
  answer: (attempt: number) => Promise<Response>,
  extra: { maxAttempts?: number; timeoutMs?: number } = {},
) {
  const attempts: DeliveryAttempt[] = [];
  const gone: string[] = [];
  let calls = 0;
  const instance = new WebhookDispatcher({
    timeScale: 0.001,
    random: () => 0.5,
    fetch: (async (_url: string | URL | Request, init?: RequestInit) => {
      calls++;
      const response = answer(calls);
      return init?.signal
        ? Promise.race([
            response,
            new Promise<Response>((_r, reject) =>
              init.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
            ),
          ])
        : response;
    }) as typeof fetch,
    onAttempt: (attempt) => attempts.push(attempt),
    onGone: (id) => gone.push(id),
    ...extra,
  });
  return { instance, attempts, gone };
}

describe('WebhookDispatcher', () => {
  it('gives up after maxAttempts', async () => {
    const { instance, attempts } = dispatcher(async () => new Response(null, { status: 500 }), {
      maxAttempts: 4,
    });
    instance.dispatch(target, event);
    await instance.idle();
    expect(attempts.map((a) => [a.attempt, a.status, a.delivered])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 500, false],
    ]);
  });

  it('stops and reports the subscription gone on 410', async () => {
    const { instance, attempts, gone } = dispatcher(
      async () => new Response(null, { status: 410 }),
    );
    instance.dispatch(target, event);
    await instance.idle();
    expect(attempts).toHaveLength(1);
    expect(gone).toEqual(['wh_1']);
  });

  it('retries a receiver that does not answer in time', async () => {
    const { instance, attempts } = dispatcher(
      (attempt) =>
        attempt === 1
          ? new Promise<Response>(() => undefined)
          : Promise.resolve(new Response(null, { status: 204 })),
      { timeoutMs: 30 },
    );
    instance.dispatch(target, event);
    await instance.idle();
    expect(attempts.map((a) => [a.attempt, a.delivered, a.error === null])).toEqual([
      [1, false, false],
      [2, true, true],
    ]);
  });

  it('cancels retries on close and ignores later events', async () => {
    const { instance, attempts } = dispatcher(async () => new Response(null, { status: 503 }));
    instance.dispatch(target, event);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await instance.close();
    const count = attempts.length;
    instance.dispatch(target, event);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(attempts.length).toBe(count);
    expect(count).toBeLessThan(8);
  });
});
