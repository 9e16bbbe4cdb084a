// Rate-limit headers of the platform's answers, read into one state (Node, main process). Every
// family a platform might send is read (docs/platform-api.md, "Rate limits"): X-RateLimit-*,
// X-Rate-Limit-*, the IETF draft's RateLimit-* and its structured RateLimit / RateLimit-Policy
// fields. Anything else is ignored, never thrown.

import type { ResetFormat } from './wire';

export type { ResetFormat } from './wire';

/** A Reset value as the server wrote it, not yet placed on our clock. */
export interface ResetValue {
  format: ResetFormat;
  /** Milliseconds: the delay for delta-seconds, else the instant on the server's clock. */
  ms: number;
  /**
   * How far the instant it stands for may be from what is written: 1000 for a delay in whole
   * seconds (rounded, and counted from an instant we only know to within the round trip); 1 for
   * an instant, which a server writes exactly (or rounded up, which errs on the side of waiting).
   */
  precisionMs: number;
}

export interface RateLimitState {
  /** Requests per window (…-Limit, or the policy's quota), when sent. */
  limit: number | null;
  /** Requests left in this window (…-Remaining). */
  remaining: number | null;
  /** Local epoch ms at which the window resets, from this one answer's Date header alone. */
  resetAtMs: number | null;
  /** The Reset value as sent; the governor places it on our clock with a smoothed skew. */
  reset: ResetValue | null;
  /** The window length a RateLimit-Policy names (`w=`), in ms. */
  windowMs: number | null;
  /** How long to wait before trying again (Retry-After), in ms. */
  retryAfterMs: number | null;
  /** The server's Date header, on its own clock. */
  serverDateMs: number | null;
  observedAtMs: number;
}

// Numbers below 10⁹ are delays: no window lasts 31 years, and no epoch value is that small since
// 2001-09-09. Below 10¹² they are epoch seconds, above epoch milliseconds.
const EPOCH_SECONDS_FROM = 1e9;
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

/** A Reset header's value and form, or null when it is none of the forms we know. */
export function readReset(value: string | null | undefined): ResetValue | null {
  if (!value?.trim()) return null;
  const numeric = number(value);
  if (numeric === null) {
    const date = httpDate(value);
    return date === null ? null : { format: 'http-date', ms: date, precisionMs: 1 };
  }
  const whole = Number.isInteger(numeric);
  if (numeric < EPOCH_SECONDS_FROM)
    return { format: 'delta-seconds', ms: numeric * 1000, precisionMs: whole ? 1000 : 1 };
  if (numeric < EPOCH_MS_FROM)
    return { format: 'epoch-seconds', ms: numeric * 1000, precisionMs: 1 };
  return { format: 'epoch-milliseconds', ms: numeric, precisionMs: 1 };
}

/** A Reset value as a local instant, given the server's clock's lead over ours (ms). */
export function resetInstant(reset: ResetValue, receivedAtMs: number, skewMs: number): number {
  return reset.format === 'delta-seconds' ? receivedAtMs + reset.ms : reset.ms - skewMs;
}

/**
 * X-RateLimit-Reset as an absolute local instant, from one answer alone. Epoch forms are corrected
 * for the server's clock when its Date header differs from ours by more than 2 s (the Date header
 * has whole seconds; the governor smooths the skew over many answers instead).
 */
export function parseResetHeader(
  value: string | null | undefined,
  nowMs: number,
  serverDateMs: number | null = null,
): number | null {
  const reset = readReset(value);
  if (!reset) return null;
  const skew = serverDateMs === null ? 0 : serverDateMs - nowMs;
  return resetInstant(reset, nowMs, Math.abs(skew) > SKEW_TOLERANCE_MS ? skew : 0);
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

/**
 * The parameters of a structured RateLimit or RateLimit-Policy field, first item only:
 * `"default";r=50;t=30` (draft 07 on), `limit=100, remaining=50, reset=5` (draft 01) and
 * `100;w=60` (drafts 03–06) alike. A bare leading number is kept as `_`.
 */
function structured(value: string | null): Map<string, string> {
  const found = new Map<string, string>();
  if (!value) return found;
  for (const part of value.split(/[;,]/)) {
    const pair = /^\s*([a-z_-]+)\s*=\s*"?([^"\s]*)"?\s*$/i.exec(part);
    if (pair?.[1] && pair[2] !== undefined) {
      if (!found.has(pair[1].toLowerCase())) found.set(pair[1].toLowerCase(), pair[2]);
    } else if (/^\s*\d+\s*$/.test(part) && !found.has('_')) found.set('_', part.trim());
  }
  return found;
}

const FAMILIES = ['x-ratelimit-', 'x-rate-limit-', 'ratelimit-'] as const;

/** The first family's header of this name that is present. */
function header(headers: Headers, name: 'limit' | 'remaining' | 'reset'): string | null {
  for (const family of FAMILIES) {
    const value = headers.get(family + name);
    if (value !== null) return value;
  }
  return null;
}

function parameter(fields: Map<string, string>, ...names: string[]): string | null {
  for (const name of names) {
    const value = fields.get(name);
    if (value !== undefined) return value;
  }
  return null;
}

/** The rate-limit state an answer's headers give, or null when it carries none of them. */
export function parseRateLimit(headers: Headers, nowMs: number): RateLimitState | null {
  const serverDateHeader = headers.get('date');
  const serverDateMs = serverDateHeader ? httpDate(serverDateHeader) : null;
  const combined = structured(headers.get('ratelimit'));
  const policy = structured(headers.get('ratelimit-policy'));
  const resetText = header(headers, 'reset') ?? parameter(combined, 't', 'reset');
  const reset = readReset(resetText);
  const windowSeconds = count(parameter(policy, 'w'));
  const state: RateLimitState = {
    limit:
      count(header(headers, 'limit')) ??
      count(parameter(combined, 'limit')) ??
      count(parameter(policy, 'q', '_')),
    remaining: count(header(headers, 'remaining')) ?? count(parameter(combined, 'r', 'remaining')),
    resetAtMs: parseResetHeader(resetText, nowMs, serverDateMs),
    reset,
    windowMs: windowSeconds ? windowSeconds * 1000 : null,
    retryAfterMs: parseRetryAfter(headers.get('retry-after'), nowMs),
    serverDateMs,
    observedAtMs: nowMs,
  };
  const empty =
    state.limit === null &&
    state.remaining === null &&
    state.reset === null &&
    state.retryAfterMs === null;
  return empty ? null : state;
}

/** Which family of rate-limit headers an answer uses, as a person would name it; null: none. */
export function rateLimitFamily(headers: Headers): string | null {
  const families: [string, string][] = [
    ['x-ratelimit-', 'X-RateLimit-*'],
    ['x-rate-limit-', 'X-Rate-Limit-*'],
    ['ratelimit-', 'RateLimit-*'],
  ];
  for (const [prefix, name] of families) {
    if (['limit', 'remaining', 'reset'].some((field) => headers.has(prefix + field))) return name;
  }
  if (headers.has('ratelimit') || headers.has('ratelimit-policy')) return 'RateLimit';
  return null;
}
