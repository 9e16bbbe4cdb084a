// The retry rules, one per kind of failure.
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../main/platform/errors';
import type { PlatformErrorInit } from '../../main/platform/errors';
import { DEFAULT_RETRY_RULES, backoffMs, decide } from '../../main/queue/retry';

const error = (init: Partial<PlatformErrorInit> & Pick<PlatformErrorInit, 'kind'>) =>
  new PlatformError({ method: 'POST', path: '/posts', ...init });
const rules = { baseMs: 1_000, capMs: 60_000, maxAttempts: 5 };

describe('decide', () => {
  it('retries network errors, timeouts and 5xx with full-jitter backoff, then fails', () => {
    for (const kind of ['network', 'timeout', 'server'] as const) {
      const decision = decide(
        error({ kind, status: kind === 'server' ? 503 : null }),
        3,
        rules,
        () => 0.5,
      );
      expect(decision).toMatchObject({ action: 'retry', delayMs: 2_000 });
    }
    expect(decide(error({ kind: 'server', status: 500 }), 5, rules, () => 0.5)).toMatchObject({
      action: 'fail',
      reason: expect.stringContaining('Gave up after 5 attempts'),
    });
  });

  it('keeps the unknown outcome of an unanswered write or a 5xx, so it is looked up before resending', () => {
    expect(decide(error({ kind: 'timeout' }), 1, rules, () => 0)).toMatchObject({
      action: 'retry',
      outcomeUnknown: true,
    });
    // A proxy's 502 or an empty 500 may come after the platform committed.
    expect(decide(error({ kind: 'server', status: 502 }), 1, rules, () => 0)).toMatchObject({
      outcomeUnknown: true,
    });
    const read = new PlatformError({ kind: 'server', status: 502, method: 'GET', path: '/posts' });
    expect(decide(read, 1, rules, () => 0)).toMatchObject({ outcomeUnknown: false });
  });

  it('takes an unreadable 2xx to a write as sent, never as a failure', () => {
    const unreadable = error({
      kind: 'bad_response',
      status: 204,
      sent: true,
      createdId: 'post_9',
    });
    expect(decide(unreadable, 1, rules, () => 0)).toEqual({ action: 'sent', remoteId: 'post_9' });
  });

  it('retries a 429 exactly after Retry-After, and counts it: a platform that keeps refusing ends the item', async () => {
    const limited = error({ kind: 'rate_limited', status: 429, retryAfterMs: 3_000 });
    expect(decide(limited, 1, rules, () => 0.9)).toMatchObject({
      action: 'retry',
      delayMs: 3_000,
    });
    const headerless = error({ kind: 'rate_limited', status: 429 });
    expect(decide(headerless, 3, rules, () => 0.5)).toMatchObject({
      action: 'retry',
      delayMs: 2_000,
    });
    expect(decide(headerless, 5, rules, () => 0.5)).toEqual({
      action: 'fail',
      reason:
        'The platform keeps refusing: rate limited (5 attempts answered 429). Retry it later.',
      fieldErrors: [],
    });
    expect(
      decide(error({ kind: 'server', status: 503, retryAfterMs: 30_000 }), 1, rules, () => 0.1),
    ).toMatchObject({ delayMs: 30_000 });
  });

  it('fails 400/404/422 at once with the field errors', () => {
    const invalid = error({
      kind: 'validation',
      status: 422,
      fieldErrors: [{ field: 'text', message: 'must not be empty' }],
    });
    expect(decide(invalid, 1, rules, () => 0.5)).toEqual({
      action: 'fail',
      reason: invalid.message,
      fieldErrors: [{ field: 'text', message: 'must not be empty' }],
    });
    expect(decide(error({ kind: 'not_found', status: 404 }), 1, rules, () => 0.5)).toMatchObject({
      action: 'fail',
    });
  });

  it('takes a SKU that exists as done with the existing id', () => {
    expect(
      decide(
        error({ kind: 'conflict', status: 409, code: 'duplicate_sku', existingId: 'prod_4' }),
        1,
        rules,
        () => 0,
      ),
    ).toEqual({
      action: 'done',
      remoteId: 'prod_4',
    });
    expect(
      decide(
        error({ kind: 'conflict', status: 409, code: 'subscriber_unsubscribed' }),
        1,
        rules,
        () => 0,
      ),
    ).toMatchObject({ action: 'fail' });
  });

  it('pauses everything when the token is refused', () => {
    expect(
      decide(
        error({ kind: 'auth', status: 401, serverMessage: 'The API token is not valid' }),
        1,
        rules,
        () => 0,
      ),
    ).toEqual({
      action: 'pause',
      reason: 'The platform refused the API token (401): The API token is not valid',
    });
    expect(decide(error({ kind: 'forbidden', status: 403 }), 1, rules, () => 0)).toMatchObject({
      action: 'pause',
    });
  });
});

describe('backoffMs', () => {
  it('draws from zero up to an exponential, capped ceiling', () => {
    expect(
      [1, 2, 3, 4].map((attempt) => backoffMs(attempt, DEFAULT_RETRY_RULES, () => 0.999999)),
    ).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(30, DEFAULT_RETRY_RULES, () => 0.999999)).toBe(DEFAULT_RETRY_RULES.capMs);
    expect(backoffMs(5, DEFAULT_RETRY_RULES, () => 0)).toBe(0);
  });
});
