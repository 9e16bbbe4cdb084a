// The reference server's rate limit (Node, main process): fixed windows per token, aligned to
// multiples of the window length since the epoch, as docs/platform-api.md, "Rate limits", says.

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
    return { allowed, limit, remaining: limit - window.used, resetAtMs: start + this.windowMs };
  }

  /** The headers of every answer to a known token. */
  static headers(decision: RateDecision): Record<string, string> {
    const resetSeconds = decision.resetAtMs / 1000;
    return {
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': Number.isInteger(resetSeconds)
        ? String(resetSeconds)
        : resetSeconds.toFixed(3),
    };
  }
}
