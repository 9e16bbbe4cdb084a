// Error answers of the reference server (Node, main process): the error body of
// docs/platform-api.md with its request id, any thrown error as an answer, and the 429.
import type { ErrorBody } from '../platform/wire';
import { HttpError } from './http';
import type { Reply } from './http';
import type { RateDecision } from './rate-limiter';

export function errorBody(error: HttpError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details
        ? { details: error.details as NonNullable<ErrorBody['error']['details']> }
        : {}),
      ...error.extra,
      request_id: requestId,
    },
  };
}

export function errorReply(error: unknown, requestId: string): Reply {
  if (error instanceof HttpError) {
    return { status: error.status, body: errorBody(error, requestId), headers: error.headers };
  }
  const internal = new HttpError(500, 'internal_error', 'The server failed to handle this request');
  console.error(`[platform] ${requestId}:`, error);
  return { status: 500, body: errorBody(internal, requestId) };
}

/** Runs the work; an error becomes its answer. */
export async function replyOf(requestId: string, work: () => Promise<Reply>): Promise<Reply> {
  try {
    return await work();
  } catch (error) {
    return errorReply(error, requestId);
  }
}

export function rateLimitedReply(decision: RateDecision, nowMs: number, requestId: string): Reply {
  const retryAfter = Math.max(1, Math.ceil((decision.resetAtMs - nowMs) / 1000));
  const error = new HttpError(
    429,
    'rate_limited',
    `Rate limit of ${decision.limit} requests per window exceeded; retry in ${retryAfter} s`,
    undefined,
    { retry_after: retryAfter },
  );
  return {
    status: 429,
    body: errorBody(error, requestId),
    headers: { 'Retry-After': String(retryAfter) },
  };
}
