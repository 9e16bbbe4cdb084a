// A platform's fixed-window rate limit, simulated on the test's clock (for fake-time tests of the
// governor): it answers with the headers a real server would, in the form asked for.
import { writeReset } from '../../main/reference-server/rate-limiter';
import type { ResetFormat } from '../../main/platform/wire';

export interface FixedWindowOptions {
  limit: number;
  windowMs: number;
  /** The server's clock minus the test's. */
  offsetMs?: number;
  reset?: ResetFormat;
  /** Also send X-RateLimit-Limit. */
  sendLimit?: boolean;
  /** Send Retry-After with a 429. */
  retryAfter?: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
}

export function fixedWindowServer(options: FixedWindowOptions) {
  let windowStart = -1;
  let used = 0;
  return (localNowMs: number): Answer => {
    const now = localNowMs + (options.offsetMs ?? 0);
    const start = now - (now % options.windowMs);
    if (start !== windowStart) {
      windowStart = start;
      used = 0;
    }
    const allowed = used < options.limit;
    if (allowed) used++;
    const resetAt = start + options.windowMs;
    const headers = new Headers({
      Date: new Date(now).toUTCString(),
      'X-RateLimit-Remaining': String(options.limit - used),
      'X-RateLimit-Reset': writeReset(options.reset ?? 'epoch-seconds', resetAt, now),
    });
    if (options.sendLimit) headers.set('X-RateLimit-Limit', String(options.limit));
    if (!allowed && options.retryAfter)
      headers.set('Retry-After', String(Math.ceil((resetAt - now) / 1000)));
    return { status: allowed ? 200 : 429, headers };
  };
}
