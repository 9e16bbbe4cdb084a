// Idempotency-Key handling of the reference server (Node, main process): the rule of
// docs/platform-api.md, "Idempotency", over the keys kept in data/idempotency.ts.
import type { IdempotencyStore } from './data/idempotency';
import { errorBody } from './error-replies';
import { HttpError, IDEMPOTENCY_KEY } from './http';
import type { Reply } from './http';

/** docs/platform-api.md, "Idempotency": replay, refuse a reused key, or run and remember. */
export async function idempotent(
  keys: IdempotencyStore,
  accountId: number,
  key: string,
  fingerprint: string,
  run: () => Reply | Promise<Reply>,
): Promise<Reply> {
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new HttpError(
      400,
      'invalid_request',
      'Idempotency-Key must be 1 to 255 visible ASCII characters',
    );
  }
  const previous = keys.find(accountId, key);
  if (previous) {
    if (previous.fingerprint !== fingerprint) {
      throw new HttpError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request',
      );
    }
    if (previous.status === null) {
      throw new HttpError(
        409,
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still running',
      );
    }
    return {
      status: previous.status,
      ...(previous.body === null ? {} : { body: JSON.parse(previous.body) as unknown }),
      headers: { 'Idempotent-Replayed': 'true' },
    };
  }
  keys.begin(accountId, key, fingerprint);
  let reply: Reply;
  try {
    reply = await run();
  } catch (error) {
    if (error instanceof HttpError && error.status < 500 && error.status !== 429) {
      keys.finish(accountId, key, error.status, JSON.stringify(errorBody(error, 'replayed')));
    } else {
      keys.forget(accountId, key);
    }
    throw error;
  }
  keys.finish(accountId, key, reply.status, JSON.stringify(reply.body ?? null));
  return reply;
}
