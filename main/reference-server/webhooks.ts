// Webhook deliveries of the reference server (runs in Node: main process, reference server): each
// event is POSTed to a subscribed URL, signed over the exact body bytes, and retried with backoff
// until a 2xx, a 410, or the last attempt (docs/platform-api.md, "Webhook deliveries").
import { signWebhookBody } from '../platform/webhook-signature';
import { WEBHOOK_HEADERS } from '../platform/wire';
import type { WebhookEvent } from '../platform/wire';

export interface WebhookTarget {
  id: string;
  url: string;
  secret: string;
}

export interface DeliveryAttempt {
  subscriptionId: string;
  eventId: string;
  attempt: number;
  /** The receiver's HTTP status; null when it never answered. */
  status: number | null;
  error: string | null;
  delivered: boolean;
  atMs: number;
}

export interface WebhookDispatcherOptions {
  timeScale: number;
  random: () => number;
  fetch?: typeof fetch;
  /** Real time, not scaled: a receiver gets this long to answer. Default 10 s. */
  timeoutMs?: number;
  /** Attempts in all, the first included. Default 8. */
  maxAttempts?: number;
  onAttempt?: (attempt: DeliveryAttempt) => void;
  /** The receiver answered 410 Gone: the subscription should be deactivated. */
  onGone?: (subscriptionId: string) => void;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 1_000;
const JITTER = 0.2;

/** One event on its way to one subscription. */
interface Delivery {
  target: WebhookTarget;
  event: WebhookEvent;
  body: string;
  signature: string;
}

export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly controller = new AbortController();
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: WebhookDispatcherOptions) {}

  /** Starts delivering `event` to `target` in the background; never throws. */
  dispatch(target: WebhookTarget, event: WebhookEvent): void {
    if (this.closed) return;
    let delivery: Delivery;
    try {
      // Serialised once: the signature covers exactly the bytes every attempt sends.
      const body = JSON.stringify(event);
      delivery = { target, event, body, signature: signWebhookBody(target.secret, body) };
    } catch (failure) {
      const error = `cannot prepare the delivery: ${describe(failure)}`;
      this.report(target, event, { attempt: 1, status: null, error, delivered: false });
      return;
    }
    this.send(delivery, 1);
  }

  /** Resolves when nothing is in flight or waiting to be retried. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Cancels pending retries and in-flight requests; later dispatch() calls are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.controller.abort();
    await Promise.allSettled([...this.inFlight]);
    this.settleIdle();
  }

  private send(delivery: Delivery, attempt: number): void {
    const request = this.attempt(delivery, attempt);
    this.inFlight.add(request);
    void request.finally(() => {
      this.inFlight.delete(request);
      this.settleIdle();
    });
  }

  private isIdle(): boolean {
    return this.inFlight.size === 0 && this.timers.size === 0;
  }

  private settleIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  // Never rejects: every failure becomes a reported attempt, so nothing escapes as an unhandled
  // rejection from the background.
  private async attempt(delivery: Delivery, attempt: number): Promise<void> {
    const { target, event, body, signature } = delivery;
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await (this.options.fetch ?? fetch)(target.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'PlatformWebhooks/1',
          [WEBHOOK_HEADERS.subscription]: target.id,
          [WEBHOOK_HEADERS.eventId]: event.id,
          [WEBHOOK_HEADERS.eventType]: event.type,
          [WEBHOOK_HEADERS.attempt]: String(attempt),
          [WEBHOOK_HEADERS.signature]: signature,
        },
        body,
        // A redirect is not a delivery: following it would send the signed event to a URL the
        // subscriber never registered.
        redirect: 'manual',
        signal: AbortSignal.any([this.controller.signal, timeout]),
      });
      status = response.status;
      // The answer's body is of no interest; cancelling it frees the connection.
      await response.body?.cancel();
    } catch (failure) {
      if (status === null)
        error = timeout.aborted ? `no answer within ${timeoutMs} ms` : describe(failure);
    }
    if (this.closed) return;

    const delivered = status !== null && status >= 200 && status < 300;
    this.report(target, event, { attempt, status, error, delivered });
    if (delivered) return;
    if (status === 410) {
      this.callback(() => this.options.onGone?.(target.id));
      return;
    }
    if (attempt >= (this.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) return;
    this.retryLater(delivery, attempt + 1);
  }

  /** Schedules `attempt` after 1, 2, 4 … s (scaled, ±20 % jitter) following the one before. */
  private retryLater(delivery: Delivery, attempt: number): void {
    const jitter = 1 + (this.options.random() * 2 - 1) * JITTER;
    const delay = FIRST_RETRY_MS * 2 ** (attempt - 2) * this.options.timeScale * jitter;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.send(delivery, attempt);
    }, delay);
    // A retry waiting for its turn must not keep the server's process alive.
    timer.unref();
    this.timers.add(timer);
  }

  private report(
    target: WebhookTarget,
    event: WebhookEvent,
    outcome: Pick<DeliveryAttempt, 'attempt' | 'status' | 'error' | 'delivered'>,
  ): void {
    const atMs = (this.options.now ?? Date.now)();
    this.callback(() =>
      this.options.onAttempt?.({ subscriptionId: target.id, eventId: event.id, ...outcome, atMs }),
    );
  }

  // A throwing listener must not stop the retries nor escape into the caller.
  private callback(call: () => void): void {
    try {
      call();
    } catch (failure) {
      console.error('[platform] webhook listener failed:', failure);
    }
  }
}

/** The error's message, with the cause Node's fetch hides behind "fetch failed". */
function describe(failure: unknown): string {
  if (!(failure instanceof Error)) return String(failure);
  return failure.cause instanceof Error
    ? `${failure.message}: ${failure.cause.message}`
    : failure.message;
}
