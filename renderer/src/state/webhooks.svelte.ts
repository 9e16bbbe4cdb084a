// The webhooks screen's state (browser): the workspace's subscriptions, the form that subscribes a
// URL to events, and the built-in receiver's live feed in the demo workspace. Also the app-wide
// notification for each new order, which the app starts once, whatever screen is shown.
import type { CoreEvent } from '../../../shared/answers';
import type { ReceivedEvent, WebhookInfo } from '../../../shared/domain';
import { WEBHOOK_EVENTS } from '../../../shared/domain';
import { coalesce } from '../lib/coalesce';
import { checkInput, formErrors, noErrors, type FormErrors } from './forms';
import type { Shell } from './shell.svelte';

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'message.received': 'A subscriber sent a message',
  'order.created': 'A new order',
  'comment.posted': 'A comment on a post',
};

/** As many events as the feed keeps and the core is asked for. */
export const FEED_LIMIT = 100;

const SUBSCRIBE_FIELDS = ['url', 'events'] as const;
type SubscribeField = (typeof SUBSCRIBE_FIELDS)[number];

/** A subscription as listed: `pending` while the platform has not answered yet. */
export type WebhookRow = WebhookInfo & { pending?: true };

/** One level down a payload the platform shaped; null where it is not an object. */
function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : null;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/**
 * One line about an event, read tolerantly from its payload (`{type, data: {order | message |
 * comment}}` on the reference server): what happened, not the raw JSON.
 */
export function describeEvent(event: ReceivedEvent): string {
  const data = field(event.payload, 'data');
  if (event.type === 'order.created') {
    const order = field(data, 'order');
    const number = textOf(field(order, 'number')) ?? textOf(field(order, 'id'));
    const total = textOf(field(order, 'total'));
    const currency = textOf(field(order, 'currency'));
    const items = field(order, 'items');
    const parts = [
      Array.isArray(items) ? `${items.length} ${items.length === 1 ? 'item' : 'items'}` : null,
      total ? [total, currency].filter(Boolean).join(' ') : null,
    ].filter(Boolean);
    return `New order${number ? ` ${number}` : ''}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
  }
  if (event.type === 'message.received') {
    const from = textOf(field(field(data, 'subscriber'), 'name'));
    const text = textOf(field(field(data, 'message'), 'text'));
    return `Message${from ? ` from ${from}` : ''}${text ? `: “${text}”` : ''}`;
  }
  if (event.type === 'comment.posted') {
    const comment = field(data, 'comment');
    const author = textOf(field(comment, 'author_name'));
    const text = textOf(field(comment, 'text'));
    return `Comment${author ? ` by ${author}` : ''}${text ? `: “${text}”` : ''}`;
  }
  return event.type;
}

/**
 * Shows a notice for every new order the receiver gets, on any screen. Call once when the app
 * starts; returns the way to stop.
 */
export function watchOrderNotifications(shell: Shell): () => void {
  return shell.onEvent((event) => {
    if (event.type === 'received' && event.event.type === 'order.created')
      shell.notices.show('info', describeEvent(event.event));
  });
}

export class WebhooksState {
  subscriptions = $state.raw<WebhookRow[]>([]);
  /** The built-in receiver's URL; only the demo workspace has one. */
  receiverUrl = $state<string | null>(null);
  /** Newest first. The receiver drops deliveries whose signature does not match. */
  feed = $state.raw<ReceivedEvent[]>([]);
  loaded = $state(false);
  error = $state<string | null>(null);
  draft = $state<{ url: string; events: WebhookEvent[] }>({ url: '', events: [...WEBHOOK_EVENTS] });
  errors = $state.raw<FormErrors<SubscribeField>>(noErrors());
  subscribing = $state(false);
  private nextPending = 1;

  constructor(private readonly shell: Shell) {}

  get receiverSubscribed(): boolean {
    return this.subscriptions.some((row) => !row.pending && row.url === this.receiverUrl);
  }

  readonly load = coalesce(async () => {
    const [hooks, received] = await Promise.all([
      this.shell.api.listWebhooks({}),
      this.shell.api.listReceivedEvents({ limit: FEED_LIMIT }),
    ]);
    if (hooks.ok) {
      this.subscriptions = [...hooks.value.subscriptions, ...this.pending()];
      this.receiverUrl = hooks.value.receiverUrl;
    }
    if (received.ok) this.feed = received.value;
    const failure = [hooks, received].find((result) => !result.ok);
    this.error = failure && !failure.ok ? failure.error.message : null;
    this.loaded = true;
  });

  /** Follows the receiver's events and workspace switches; returns the way to stop. */
  watch(): () => void {
    return this.shell.onEvent((event: CoreEvent) => {
      if (event.type === 'received') this.receive(event.event);
      else if (event.type === 'changed' && event.what === 'account') void this.load();
    });
  }

  private receive(event: ReceivedEvent): void {
    // The event may already be in a list that was loading when it arrived.
    if (this.feed.some((known) => known.id === event.id)) return;
    this.feed = [event, ...this.feed].slice(0, FEED_LIMIT);
  }

  private pending(): WebhookRow[] {
    return this.subscriptions.filter((row) => row.pending);
  }

  useReceiver(): void {
    if (this.receiverUrl) this.draft.url = this.receiverUrl;
  }

  /** The demo's one-click start: the built-in receiver, subscribed to every event. */
  subscribeReceiver(): Promise<void> {
    this.useReceiver();
    this.draft.events = [...WEBHOOK_EVENTS];
    return this.subscribe();
  }

  toggle(event: WebhookEvent, on: boolean): void {
    // Kept in WEBHOOK_EVENTS' order, whatever order they were ticked in.
    this.draft.events = WEBHOOK_EVENTS.filter((name) =>
      name === event ? on : this.draft.events.includes(name),
    );
  }

  /** Lists the subscription at once, then the platform's, or takes it away again on refusal. */
  async subscribe(): Promise<void> {
    const input = { url: this.draft.url.trim(), events: [...this.draft.events] };
    const problems = await checkInput('createWebhook', input, SUBSCRIBE_FIELDS);
    this.errors = problems ?? noErrors();
    if (problems) return;
    const placeholder: WebhookRow = {
      id: `pending-${this.nextPending++}`,
      ...input,
      createdAt: Date.now(),
      pending: true,
    };
    this.subscriptions = [...this.subscriptions, placeholder];
    this.subscribing = true;
    const result = await this.shell.api.createWebhook(input);
    this.subscribing = false;
    // A reload meanwhile may already list the new subscription.
    const others = this.subscriptions.filter(
      (row) => row.id !== placeholder.id && (!result.ok || row.id !== result.value.id),
    );
    this.subscriptions = result.ok ? [...others, result.value] : others;
    if (!result.ok) {
      this.errors = formErrors(result.error, SUBSCRIBE_FIELDS);
      return;
    }
    this.shell.notices.show('success', `Subscribed ${result.value.url}`);
    this.draft.url = '';
  }
}
