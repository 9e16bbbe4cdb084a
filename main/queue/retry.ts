// What to do after a failed attempt (Node, main process): one pure rule per kind of failure.
// Retries back off exponentially with full jitter, honour Retry-After, and are bounded: 429s
// count too, so a platform that refuses everything ends the item instead of looping forever.
import { PlatformError } from '../platform/errors';

export interface RetryRules {
  /** First backoff step. */
  baseMs: number;
  /** Longest backoff step. */
  capMs: number;
  /** Attempts in all before an item fails, 429 answers included. */
  maxAttempts: number;
}

export const DEFAULT_RETRY_RULES: RetryRules = { baseMs: 1_000, capMs: 5 * 60_000, maxAttempts: 8 };

export type Decision =
  /** The thing exists on the platform already (a SKU that exists): done, with its id. */
  | { action: 'done'; remoteId: string | null }
  /** The platform answered 2xx but unreadably: sent, with its id when known, else to look up. */
  | { action: 'sent'; remoteId: string | null }
  | { action: 'retry'; delayMs: number; reason: string; outcomeUnknown: boolean }
  | {
      action: 'fail';
      reason: string;
      fieldErrors: { field: string; message: string }[];
      /** Given up on, but the last attempt may have happened: look it up before any resend. */
      outcomeUnknown?: boolean;
    }
  /** The token was refused: stop everything until the user fixes it. */
  | { action: 'pause'; reason: string };

export function backoffMs(attempt: number, rules: RetryRules, random: () => number): number {
  const ceiling = Math.min(rules.capMs, rules.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(random() * ceiling);
}

/** The decision after attempt number `attempts` (from 1) failed with `error`. */
export function decide(
  error: unknown,
  attempts: number,
  rules: RetryRules,
  random: () => number,
): Decision {
  if (!(error instanceof PlatformError)) {
    return {
      action: 'fail',
      reason: error instanceof Error ? error.message : String(error),
      fieldErrors: [],
    };
  }
  if (error.sent) return { action: 'sent', remoteId: error.createdId };
  const reason = error.message;
  switch (error.kind) {
    case 'auth':
    case 'forbidden':
      return {
        action: 'pause',
        reason:
          `The platform refused the API token (${error.status}): ${error.serverMessage ?? ''}`.trim(),
      };
    case 'conflict':
      if (
        error.code === 'duplicate_sku' ||
        (error.existingId && error.code !== 'idempotency_in_progress')
      ) {
        return { action: 'done', remoteId: error.existingId };
      }
      break;
    case 'rate_limited':
      return rateLimited(error, attempts, rules, random);
    default:
      break;
  }
  if (!error.retryable) return { action: 'fail', reason, fieldErrors: error.fieldErrors };
  if (attempts >= rules.maxAttempts) {
    return {
      action: 'fail',
      reason: `Gave up after ${attempts} attempts: ${reason}`,
      fieldErrors: [],
      outcomeUnknown: error.mayHaveCommitted,
    };
  }
  return {
    action: 'retry',
    delayMs: Math.max(error.retryAfterMs ?? 0, backoffMs(attempts, rules, random)),
    reason,
    outcomeUnknown: error.mayHaveCommitted,
  };
}

/**
 * A 429: the request was not handled. Retry-After says exactly when to try again (the governor
 * holds every other request until then too); without it, the usual backoff.
 */
function rateLimited(
  error: PlatformError,
  attempts: number,
  rules: RetryRules,
  random: () => number,
): Decision {
  if (attempts >= rules.maxAttempts) {
    return {
      action: 'fail',
      reason: `The platform keeps refusing: rate limited (${attempts} attempts answered 429). Retry it later.`,
      fieldErrors: [],
    };
  }
  return {
    action: 'retry',
    delayMs: error.retryAfterMs ?? backoffMs(attempts, rules, random),
    reason: error.message,
    outcomeUnknown: false,
  };
}
