// Rate-limit headers of the platform's answers, read into one state (Node, main process). Every
// form a platform might send is read (docs/platform-api.md, "Rate limits"); anything else is
// ignored, never thrown.

export interface RateLimitState {
  /** Requests per window (X-RateLimit-Limit), when sent. */
  limit: number | null;
  /** Requests left in this window (X-RateLimit-Remaining). */
  remaining: number | null;
  /** Local epoch ms at which the window resets (X-RateLimit-Reset). */
  resetAtMs: number | null;
  /** How long to wait before trying again (Retry-After), in ms. */
  retryAfterMs: number | null;
  observedAtMs: number;
}

const EPOCH_SECONDS_FROM = 1e9; // 2001-09-09: no delay is that long, no epoch that short
const EPOCH_MS_FROM = 1e12;
const SKEW_TOLERANCE_MS = 2_000;

function number(value: string): number | null {
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  const parsed = Number(trimmed);
  return Number.isFinite(parsed) ? parsed : null;
}

/** An HTTP date (or ISO date-time); Date.parse alone would read "-5" as a year. */
function httpDate(value: string): number | null {
  const text = value.trim();
  const monthName = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.test(text);
  if (!monthName && !/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * X-RateLimit-Reset as an absolute local instant. Numbers are told apart by magnitude: a delay in
 * seconds, epoch seconds, or epoch milliseconds; text is read as an HTTP date. Epoch forms are
 * corrected for the server's clock when its Date header differs from ours by more than 2 s.
 */
export function parseResetHeader(
  value: string | null | undefined,
  nowMs: number,
  serverDateMs: number | null = null,
): number | null {
  if (!value?.trim()) return null;
  const numeric = number(value);
  let resetMs: number | null;
  if (numeric === null) resetMs = httpDate(value);
  else if (numeric < EPOCH_SECONDS_FROM) return nowMs + numeric * 1000;
  else resetMs = numeric < EPOCH_MS_FROM ? numeric * 1000 : numeric;
  if (resetMs === null) return null;
  const skew = serverDateMs === null ? 0 : serverDateMs - nowMs;
  return Math.abs(skew) > SKEW_TOLERANCE_MS ? resetMs - skew : resetMs;
}

/** Retry-After as a delay in ms: seconds, or an HTTP date (never negative). */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value?.trim()) return null;
  const seconds = number(value);
  if (seconds !== null) return Math.round(seconds * 1000);
  const date = httpDate(value);
  return date === null ? null : Math.max(0, date - nowMs);
}

/** A non-negative whole count; also the leading number of "60, 60;w=60" (IETF draft style). */
function count(value: string | null): number | null {
  const match = /^\s*(\d+)(?:\s*[,;]|\s*$)/.exec(value ?? '');
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** The rate-limit state an answer's headers give, or null when it carries none of them. */
export function parseRateLimit(headers: Headers, nowMs: number): RateLimitState | null {
  const serverDate = headers.get('date');
  const state: RateLimitState = {
    limit: count(headers.get('x-ratelimit-limit')),
    remaining: count(headers.get('x-ratelimit-remaining')),
    resetAtMs: parseResetHeader(
      headers.get('x-ratelimit-reset'),
      nowMs,
      serverDate ? httpDate(serverDate) : null,
    ),
    retryAfterMs: parseRetryAfter(headers.get('retry-after'), nowMs),
    observedAtMs: nowMs,
  };
  const empty =
    state.limit === null &&
    state.remaining === null &&
    state.resetAtMs === null &&
    state.retryAfterMs === null;
  return empty ? null : state;
}
