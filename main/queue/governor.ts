// The rate-limit governor (Node, main process): the one place that decides when any request to
// an account may go, whoever asks (publishing, sync, the user's own clicks). It starts from the
// plan's limit, then trusts the platform's headers; it keeps as many requests in flight as the
// window allows, never more than the platform says remain.
import type { RateGauge } from '../../shared/domain';
import type { Priority } from '../../shared/domain';
import type { RateLimitState } from '../platform/rate-limit';

export interface GovernorOptions {
  /** Requests per window from the plan, until the platform says otherwise. */
  limit: number;
  windowMs?: number;
  /** Upper bound on requests in flight, whatever the budget. */
  maxInFlight?: number;
  now?: () => number;
}

export type GovernorState = RateGauge;

interface Waiter {
  priority: Priority;
  order: number;
  grant: (release: Release) => void;
}

/** Frees the slot of a finished request. Calling it again does nothing. */
export type Release = () => void;

export class RateGovernor {
  private limit: number;
  private remaining: number;
  private resetAtMs: number;
  private inFlight = 0;
  private paused: string | null = null;
  private readonly waiting: Waiter[] = [];
  private order = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly windowMs: number;
  private readonly maxInFlight: number;
  private readonly now: () => number;

  constructor(options: GovernorOptions) {
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxInFlight = options.maxInFlight ?? 64;
    this.limit = options.limit;
    this.remaining = options.limit;
    this.resetAtMs = this.now() + this.windowMs;
  }

  /** Resolves when a request of this priority may go. */
  acquire(priority: Priority): Promise<Release> {
    return new Promise((grant) => {
      this.waiting.push({ priority, order: this.order++, grant });
      this.waiting.sort((a, b) => a.priority - b.priority || a.order - b.order);
      this.pump();
    });
  }

  pause(reason: string): void {
    this.paused = reason;
  }

  resume(): void {
    this.paused = null;
    this.pump();
  }

  state(): GovernorState {
    this.rollWindow();
    return {
      limit: this.limit,
      remaining: Math.max(0, this.remaining),
      resetAtMs: this.resetAtMs,
      inFlight: this.inFlight,
      waiting: this.waiting.length,
      paused: this.paused,
    };
  }

  private grant(waiter: Waiter): void {
    this.inFlight++;
    this.remaining--;
    let released = false;
    waiter.grant(() => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.pump();
    });
  }

  /**
   * Learns from an answer to a request still in flight (the client reports every answer here).
   * The platform's word beats our estimate: its count includes requests we could not see.
   */
  observe(status: number | null, rateLimit: RateLimitState | null): void {
    if (!rateLimit) return;
    const othersInFlight = Math.max(0, this.inFlight - 1);
    if (rateLimit.limit !== null) this.limit = rateLimit.limit;
    if (status === 429) {
      this.remaining = 0;
      const wait =
        rateLimit.retryAfterMs ?? (rateLimit.resetAtMs ?? this.now() + 1_000) - this.now();
      this.resetAtMs = Math.max(this.resetAtMs, this.now() + Math.max(0, wait));
      return;
    }
    if (rateLimit.remaining === null) return;
    const reset = rateLimit.resetAtMs;
    if (reset !== null && reset > this.resetAtMs) {
      // A new window began on the platform; requests still in flight may not be counted in it yet.
      this.resetAtMs = reset;
      this.remaining = rateLimit.remaining - othersInFlight;
    } else {
      if (reset !== null) this.resetAtMs = reset;
      this.remaining = Math.min(this.remaining, rateLimit.remaining - othersInFlight);
    }
    this.pump();
  }

  private rollWindow(): void {
    const now = this.now();
    if (now < this.resetAtMs) return;
    // The platform has reset the window; until an answer says otherwise, assume the full limit.
    const windows = Math.floor((now - this.resetAtMs) / this.windowMs) + 1;
    this.resetAtMs += windows * this.windowMs;
    this.remaining = this.limit - this.inFlight;
  }

  private pump(): void {
    this.rollWindow();
    while (
      this.waiting.length > 0 &&
      !this.paused &&
      this.inFlight < this.maxInFlight &&
      this.remaining > 0
    ) {
      const next = this.waiting.shift();
      if (next) this.grant(next);
    }
    this.schedule();
  }

  /** Wakes at the window's reset when requests wait for budget. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.waiting.length === 0 || this.paused || this.remaining > 0) return;
    this.timer = setTimeout(() => this.pump(), Math.max(1, this.resetAtMs - this.now()));
  }
}
