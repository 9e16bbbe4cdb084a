// Webhook deliveries of the reference server (Node, main process, reference server): each event
// is POSTed to every subscribed URL, signed over the exact body bytes, and retried with backoff
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
  status: number | null;
  error: string | null;
  delivered: boolean;
  atMs: number;
}

export interface WebhookDispatcherOptions {
  timeScale: number;
  random: () => number;
  fetch?: typeof fetch;
  /** Real time, not scaled: a receiver gets this long to answer. */
  timeoutMs?: number;
  maxAttempts?: number;
  onAttempt?: (attempt: DeliveryAttempt) => void;
  onGone?: (subscriptionId: string) => void;
  now?: () => number;
}

const FIRST_RETRY_MS = 1_000;
const JITTER = 0.2;

export class WebhookDispatcher {
  private readonly pending = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly controller = new AbortController();
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: WebhookDispatcherOptions) {}

  dispatch(target: WebhookTarget, event: WebhookEvent): void {
    if (this.closed) return;
    // Serialised once: the signature covers exactly the bytes every attempt sends.
    const body = JSON.stringify(event);
    this.track(this.deliver(target, event, body, signWebhookBody(target.secret, body), 1));
  }

  /** Resolves when nothing is in flight or waiting to be retried. */
  idle(): Promise<void> {
    if (this.pending.size === 0 && this.timers.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.controller.abort();
    await Promise.allSettled([...this.pending]);
    this.settleIdle();
  }

  private track(delivery: Promise<void>): void {
    this.pending.add(delivery);
    void delivery.finally(() => {
      this.pending.delete(delivery);
      this.settleIdle();
    });
  }

  private settleIdle(): void {
    if (this.pending.size > 0 || this.timers.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  }

  private async deliver(
    target: WebhookTarget,
    event: WebhookEvent,
    body: string,
    signature: string,
    attempt: number,
  ) {
    const send = this.options.fetch ?? fetch;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await send(target.url, {
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
        signal: AbortSignal.any([
          this.controller.signal,
          AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        ]),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    if (this.closed) return;
    const delivered = status !== null && status >= 200 && status < 300;
    this.options.onAttempt?.({
      subscriptionId: target.id,
      eventId: event.id,
      attempt,
      status,
      error,
      delivered,
      atMs: (this.options.now ?? Date.now)(),
    });
    if (delivered) return;
    if (status === 410) {
      this.options.onGone?.(target.id);
      return;
    }
    if (attempt >= (this.options.maxAttempts ?? 8)) return;
    const jitter = 1 + (this.options.random() * 2 - 1) * JITTER;
    const delay = FIRST_RETRY_MS * 2 ** (attempt - 1) * this.options.timeScale * jitter;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.deliver(target, event, body, signature, attempt + 1));
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}
