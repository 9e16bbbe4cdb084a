// The reference server's rate limit (Node, main process): fixed windows per token, aligned to
// multiples of the window length since the epoch, as docs/platform-api.md, "Rate limits", says.
// Its headers can be written as other platforms write them, for testing clients against them.
import type { ResetFormat } from '../platform/wire';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAtMs: number;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request against `key` when it fits; a refused request is not counted. */
  take(key: string, limit: number): RateDecision {
    const now = this.now();
    const start = now - (now % this.windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, used: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.used < limit;
    if (allowed) window.used++;
    // A limit lowered mid-window (admin PATCH /accounts/:id) may leave more used than it allows.
    const remaining = Math.max(0, limit - window.used);
    return { allowed, limit, remaining, resetAtMs: start + this.windowMs };
  }

  /** The headers of every answer to a known token, at `nowMs` on the server's clock. */
  static headers(
    decision: RateDecision,
    nowMs: number,
    style: RateHeaderStyle = {},
  ): Record<string, string> {
    return {
      ...(style.limit === false ? {} : { 'X-RateLimit-Limit': String(decision.limit) }),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': writeReset(style.reset ?? 'epoch-seconds', decision.resetAtMs, nowMs),
    };
  }
}

/** How the rate-limit headers are written: the documented form unless told otherwise. */
export interface RateHeaderStyle {
  /** Send X-RateLimit-Limit (the spec names only Remaining and Reset). */
  limit?: boolean;
  reset?: ResetFormat;
}

/** A window's reset as a platform writing it in `format` would, at `nowMs`. */
export function writeReset(format: ResetFormat, resetAtMs: number, nowMs: number): string {
  switch (format) {
    case 'delta-seconds':
      // Rounded up, so a client never comes back before the window has turned.
      return String(Math.max(0, Math.ceil((resetAtMs - nowMs) / 1000)));
    case 'epoch-seconds': {
      const seconds = resetAtMs / 1000;
      // A fraction only for windows that are not whole seconds, which only test servers use.
      return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(3);
    }
    case 'epoch-milliseconds':
      return String(resetAtMs);
    case 'http-date':
      return new Date(Math.ceil(resetAtMs / 1000) * 1000).toUTCString();
  }
}
