// The rate-limit governor (Node, main process): the one place that decides when any request to
// an account may go, whoever asks (publishing, sync, the user's own clicks). It never assumes a
// limit the platform has not shown: one request at a time until an answer carries rate-limit
// headers, then no more than the last Remaining allows. Each window opens with one request whose
// Remaining says what this window allows (a limit the platform lowered costs no 429); from a
// platform that sends no Remaining, the limit learned (else 1, 2, 4 … until an answer says). The
// plan is only an upper bound.
// Every 429 stops everything: until Retry-After, else the window's reset, else a backoff.
import type { RateGauge } from '../../shared/domain';
import type { Priority } from '../../shared/domain';
import { ServerClock } from './server-clock';
import { resetInstant } from './rate-limit';
import type { RateLimitState, ResetValue } from './rate-limit';

/** What the governor learned of an account's limit, kept so the next run starts from it. */
export interface LearnedRateLimit {
  /** Requests per window the platform allowed (the largest Remaining + 1 seen). */
  limit: number | null;
  /** Time between two consecutive resets. */
  windowMs: number | null;
  /** The platform's clock minus ours. */
  skewMs: number | null;
}

export interface GovernorOptions {
  /** Requests per window of the plan: an upper bound, never a guess of what remains. */
  limit: number;
  /** Window length until the platform's resets show it; one minute unless given. */
  windowMs?: number;
  /** Upper bound on requests in flight, whatever the budget. */
  maxInFlight?: number;
  now?: () => number;
  random?: () => number;
  /** What an earlier run learned of this account. */
  learned?: LearnedRateLimit | null;
  /** Called when what is learned changes, to keep it. */
  onLearn?: (learned: LearnedRateLimit) => void;
  /** Waits after consecutive 429s that say nothing of when to come back. */
  refusalBackoff?: { baseMs: number; capMs: number };
}

export type GovernorState = RateGauge;

interface Waiter {
  priority: Priority;
  order: number;
  grant: (release: Release) => void;
}

/** Frees the slot of a finished request. Calling it again does nothing. */
export type Release = () => void;

const DEFAULT_REFUSAL_BACKOFF = { baseMs: 1_000, capMs: 5 * 60_000 };
/** A skew that moved less than this is not worth writing down again. */
const SKEW_WORTH_KEEPING_MS = 250;

export class RateGovernor {
  private readonly planLimit: number;
  /** The platform's own Limit header, when it sends one. */
  private headerLimit: number | null = null;
  private learnedLimit: number | null;
  private learnedWindowMs: number | null;
  private readonly clock: ServerClock;
  /** Requests the window still allows, less those granted since; null: not known. */
  private remaining: number | null = null;
  /** End of the current window on our clock; null until an answer names it. */
  private resetAtMs: number | null = null;
  /** The previous window's end: answers with a reset about there are late and say nothing new. */
  private windowStartMs: number | null = null;
  /** The platform's own reset of the current window, to learn the window's length from. */
  private serverResetAtMs: number | null = null;
  private resetIsEpoch = false;
  /** From a window's start until the first answer in it. */
  private freshWindow = false;
  /** Whether the platform sends Remaining: then each window opens with one request. */
  private remainingShown = false;
  /** The request opening this window is out: the rest wait for its Remaining. */
  private openerOut = false;
  /** No other request of ours was in flight beside the opener: its Remaining + 1 is the limit. */
  private openerAlone = false;
  /** One request at a time: at start, and after a 429, until an answer with headers. */
  private probing = true;
  /** The next window's guess while no limit is known: 1, 2, 4 … */
  private ramp = 1;
  /** No request before this instant (Retry-After, a reset, or a backoff after a 429). */
  private blockedUntilMs = 0;
  /** 429s in a row. */
  private refusals = 0;
  private acceptedInWindow = 0;
  private keptSkewMs: number | null;
  private kept: LearnedRateLimit | null = null;
  private inFlight = 0;
  private paused: string | null = null;
  private readonly waiting: Waiter[] = [];
  private order = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly windowMs: number;
  private readonly maxInFlight: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly refusalBackoff: { baseMs: number; capMs: number };

  constructor(private readonly options: GovernorOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxInFlight = options.maxInFlight ?? 64;
    this.refusalBackoff = options.refusalBackoff ?? DEFAULT_REFUSAL_BACKOFF;
    this.planLimit = options.limit;
    this.learnedLimit = options.learned?.limit ?? null;
    this.learnedWindowMs = options.learned?.windowMs ?? null;
    this.keptSkewMs = options.learned?.skewMs ?? null;
    this.clock = new ServerClock(this.keptSkewMs);
  }

  /** Resolves when a request of this priority may go; rejects if `signal` aborts first. */
  acquire(priority: Priority, signal?: AbortSignal): Promise<Release> {
    return new Promise((grant, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const waiter: Waiter = { priority, order: this.order++, grant };
      const giveUp = () => {
        const index = this.waiting.indexOf(waiter);
        if (index < 0) return;
        this.waiting.splice(index, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      waiter.grant = (release) => {
        signal?.removeEventListener('abort', giveUp);
        grant(release);
      };
      this.waiting.push(waiter);
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

  /** What is learned so far of this account's limit, window and clock. */
  learned(): LearnedRateLimit {
    return {
      limit: this.learnedLimit,
      windowMs: this.learnedWindowMs,
      skewMs: this.clock.known ? this.clock.skewMs : this.keptSkewMs,
    };
  }

  /** The platform's clock minus ours, as measured so far (0 before any Date header). */
  get skewMs(): number {
    return this.clock.skewMs;
  }

  /**
   * The platform's lead over our clock for judging due times: its lower bound, so a post is never
   * sent before the platform's clock reaches its time; 0 while the skew is not surely other than 0.
   */
  get dueTimeLeadMs(): number {
    const { skewMs, uncertaintyMs } = this.clock;
    return this.clock.known && Math.abs(skewMs) > uncertaintyMs
      ? Math.floor(skewMs - uncertaintyMs)
      : 0;
  }

  state(): GovernorState {
    this.rollWindow();
    const limit = this.knownLimit() ?? this.planLimit;
    const now = this.now();
    return {
      limit,
      remaining: Math.max(0, now < this.blockedUntilMs ? 0 : (this.remaining ?? 0)),
      resetAtMs: Math.max(this.blockedUntilMs, this.resetAtMs ?? now + this.currentWindowMs()),
      inFlight: this.inFlight,
      waiting: this.waiting.length,
      paused: this.paused,
    };
  }

  private grant(waiter: Waiter): void {
    this.inFlight++;
    if (this.remaining !== null) this.remaining--;
    const opener = this.opensWithOne();
    if (opener) {
      this.openerOut = true;
      this.openerAlone = this.inFlight === 1;
    }
    let released = false;
    waiter.grant(() => {
      if (released) return;
      released = true;
      this.inFlight--;
      // Its answer never opened the window (no answer, or one without headers): another will.
      if (opener && this.freshWindow) this.openerOut = false;
      this.pump();
    });
  }

  /** Whether the current window still waits for its first answer's Remaining. */
  private opensWithOne(): boolean {
    return this.freshWindow && this.remainingShown;
  }

  /**
   * Learns from an answer to a request still in flight (the client reports every answer here).
   * The platform's word beats our estimate: its count includes requests we could not see.
   */
  observe(status: number | null, rateLimit: RateLimitState | null, durationMs = 0): void {
    if (rateLimit?.serverDateMs != null) {
      this.clock.observe({
        serverDateMs: rateLimit.serverDateMs,
        sentAtMs: rateLimit.observedAtMs - durationMs,
        receivedAtMs: rateLimit.observedAtMs,
      });
    }
    if (status === 429) this.refused(rateLimit);
    else if (status !== null) this.answered(rateLimit);
    this.keepWhatIsLearned();
    this.pump();
  }

  private answered(rateLimit: RateLimitState | null): void {
    this.refusals = 0;
    if (!rateLimit) return;
    if (rateLimit.windowMs !== null) this.learnedWindowMs = rateLimit.windowMs;
    if (rateLimit.limit !== null) this.headerLimit = Math.min(rateLimit.limit, this.planLimit);
    if (rateLimit.remaining === null && rateLimit.limit === null && rateLimit.reset === null)
      return;
    const othersInFlight = Math.max(0, this.inFlight - 1);
    const reset = rateLimit.reset ? this.placeReset(rateLimit.reset, rateLimit.observedAtMs) : null;
    const tolerance = (rateLimit.reset?.precisionMs ?? 0) + 250;
    // A late answer from the window before says nothing about this one.
    if (reset !== null && this.windowStartMs !== null && reset <= this.windowStartMs + tolerance)
      return;
    if (rateLimit.reset && reset !== null) this.learnWindow(rateLimit.reset, reset);
    const opensWindow =
      this.freshWindow ||
      this.resetAtMs === null ||
      (reset !== null && reset > this.resetAtMs + tolerance);
    if (reset !== null) {
      this.resetIsEpoch = rateLimit.reset?.format !== 'delta-seconds';
      // A delay in whole seconds is rounded: the earliest answer's bound is the tightest.
      const rounded = rateLimit.reset?.format === 'delta-seconds' && !opensWindow;
      this.resetAtMs = rounded ? Math.min(this.resetAtMs ?? reset, reset) : reset;
    } else if (this.resetAtMs === null) {
      this.resetAtMs = this.now() + this.currentWindowMs();
    }
    if (rateLimit.remaining !== null) {
      this.remainingShown = true;
      // Remaining + 1 is never more than the limit; for the answer to a window's opener, sent
      // alone, it is the limit, so it may be lower than learned before (the platform cut it).
      const whole = this.freshWindow && this.openerAlone && othersInFlight === 0;
      this.learnedLimit = Math.min(
        this.planLimit,
        whole ? rateLimit.remaining + 1 : Math.max(this.learnedLimit ?? 0, rateLimit.remaining + 1),
      );
      const left = rateLimit.remaining - othersInFlight;
      this.remaining = opensWindow ? left : Math.min(this.remaining ?? Infinity, left);
    } else if (opensWindow && !this.freshWindow) {
      // A window we had not seen begin, and no Remaining: what is known of the limit, else the
      // ramp's next step, less this request and those in flight.
      this.remaining = this.assumedLimit() - 1 - othersInFlight;
    }
    this.acceptedInWindow = opensWindow ? 1 : this.acceptedInWindow + 1;
    this.freshWindow = false;
    this.probing = false;
  }

  /** A 429: nothing goes until the platform said, else its window's reset, else a backoff. */
  private refused(rateLimit: RateLimitState | null): void {
    this.refusals++;
    this.remaining = 0;
    this.probing = true;
    // The window allowed fewer than we thought: the platform lowered its limit.
    if (this.headerLimit === null && this.acceptedInWindow > 0)
      this.learnedLimit = Math.min(this.learnedLimit ?? Infinity, this.acceptedInWindow);
    const now = this.now();
    let until: number;
    if (rateLimit?.retryAfterMs != null) until = now + rateLimit.retryAfterMs;
    else if (rateLimit?.reset)
      until =
        this.placeReset(rateLimit.reset, rateLimit.observedAtMs) +
        (rateLimit.reset.format === 'delta-seconds' ? 0 : this.placementMarginMs());
    else until = now + this.refusalWaitMs();
    // Retry-After says when, exactly: not later than an earlier guess, not sooner.
    this.blockedUntilMs =
      rateLimit?.retryAfterMs != null ? until : Math.max(this.blockedUntilMs, until);
  }

  /** Exponential with equal jitter: at least half of each step, so refusals space out surely. */
  private refusalWaitMs(): number {
    const { baseMs, capMs } = this.refusalBackoff;
    const step = Math.min(capMs, baseMs * 2 ** (this.refusals - 1));
    return Math.round(step / 2 + (this.random() * step) / 2);
  }

  /** A Reset as an instant on our clock, through the skew measured so far. */
  private placeReset(reset: ResetValue, receivedAtMs: number): number {
    return resetInstant(reset, receivedAtMs, this.clock.skewMs);
  }

  /**
   * How long after a reset's instant a new window is surely open on the platform: an epoch reset
   * is placed on our clock through the measured skew, which may be off by half its uncertainty.
   */
  private placementMarginMs(): number {
    if (!this.resetIsEpoch || !this.clock.known) return 0;
    return Math.min(1_000, Math.ceil(this.clock.uncertaintyMs));
  }

  /**
   * Two resets in a row are a window apart; skipped windows give multiples, so keep the least.
   * Epoch resets are compared as written, on the server's clock, so a skew still being refined
   * does not blur them; delays only as placed on ours, to their whole seconds.
   */
  private learnWindow(reset: ResetValue, placedMs: number): void {
    const serverMs = reset.format === 'delta-seconds' ? placedMs : reset.ms;
    const previous = this.serverResetAtMs;
    if (previous !== null && serverMs <= previous + reset.precisionMs + 250) return;
    this.serverResetAtMs = serverMs;
    if (previous === null) return;
    const gap = Math.round((serverMs - previous) / reset.precisionMs) * reset.precisionMs;
    const known = this.learnedWindowMs;
    if (known === null || gap < known - reset.precisionMs) this.learnedWindowMs = gap;
  }

  private knownLimit(): number | null {
    const known = this.headerLimit ?? this.learnedLimit;
    return known === null ? null : Math.min(known, this.planLimit);
  }

  private currentWindowMs(): number {
    return this.learnedWindowMs ?? this.windowMs;
  }

  private rollWindow(): void {
    const now = this.now();
    if (this.resetAtMs === null || now < this.resetAtMs + this.placementMarginMs()) return;
    // The platform has reset the window; until an answer says otherwise, assume what it allowed
    // before (or a small, growing guess), less what is still in flight and may count in it.
    const windowMs = this.currentWindowMs();
    this.windowStartMs = this.resetAtMs;
    this.resetAtMs += (Math.floor((now - this.resetAtMs) / windowMs) + 1) * windowMs;
    this.freshWindow = true;
    this.openerOut = false;
    this.openerAlone = false;
    this.acceptedInWindow = 0;
    this.remaining = this.assumedLimit() - this.inFlight;
  }

  private assumedLimit(): number {
    const known = this.knownLimit();
    if (known !== null) return known;
    const guess = this.ramp;
    this.ramp = Math.min(this.planLimit, this.ramp * 2);
    return guess;
  }

  private mayGrant(): boolean {
    if (this.paused || this.inFlight >= this.maxInFlight) return false;
    if (this.now() < this.blockedUntilMs) return false;
    if (this.probing) return this.inFlight === 0;
    if (this.opensWithOne() && this.openerOut) return false;
    return (this.remaining ?? 0) > 0;
  }

  private pump(): void {
    this.rollWindow();
    while (this.waiting.length > 0 && this.mayGrant()) {
      const next = this.waiting.shift();
      if (next) this.grant(next);
    }
    this.schedule();
  }

  /** Wakes at the end of a block or the window's reset when requests wait for budget. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.waiting.length === 0 || this.paused) return;
    const now = this.now();
    let wakeAt: number | null = null;
    if (now < this.blockedUntilMs) wakeAt = this.blockedUntilMs;
    else if (!this.probing && (this.remaining ?? 0) <= 0 && this.resetAtMs !== null)
      wakeAt = this.resetAtMs + this.placementMarginMs();
    // A block can end between pump's check and this one: then nothing would wake the waiters.
    else if (this.mayGrant()) wakeAt = now;
    if (wakeAt === null) return;
    this.timer = setTimeout(() => this.pump(), Math.max(1, wakeAt - now));
  }

  private keepWhatIsLearned(): void {
    if (!this.options.onLearn) return;
    const learned = this.learned();
    const skewMoved =
      learned.skewMs !== null &&
      (this.keptSkewMs === null ||
        Math.abs(learned.skewMs - this.keptSkewMs) >= SKEW_WORTH_KEEPING_MS);
    const kept = this.kept ?? { limit: null, windowMs: null, skewMs: null };
    if (kept.limit === learned.limit && kept.windowMs === learned.windowMs && !skewMoved) return;
    if (skewMoved) this.keptSkewMs = learned.skewMs;
    this.kept = { ...learned, skewMs: this.keptSkewMs };
    this.options.onLearn(this.kept);
  }
}
