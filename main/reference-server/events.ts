// Platform events of the reference server (Node, main process): makes the thing that happened
// (an order, an incoming message, a comment), records the event and hands it to the webhook
// dispatcher for every active subscription to its type.
import type { EventType, WebhookEvent } from '../platform/wire';
import { iso } from './ids';
import { pick } from './random';
import { createDemoOrder, demoComment, demoIncomingMessage } from './seed';
import type { ReferenceServerStore } from './store';
import type { WebhookDispatcher } from './webhooks';

export class EventSource {
  constructor(
    private readonly store: ReferenceServerStore,
    private readonly webhooks: WebhookDispatcher,
    private readonly random: () => number,
    private readonly now: () => number,
  ) {}

  /** Makes an event of `type` happen on the account; null when the account has nothing to build it from. */
  raise(accountId: number, type: EventType): WebhookEvent | null {
    const event = this.store.transaction(() => this.build(accountId, type));
    if (!event) return null;
    for (const webhook of this.store.webhooks.activeWebhooks(accountId, type)) {
      this.webhooks.dispatch({ id: webhook.id, url: webhook.url, secret: webhook.secret }, event);
    }
    return event;
  }

  private build(accountId: number, type: EventType): WebhookEvent | null {
    const header = () => {
      const { id, createdAt } = this.store.webhooks.createEvent(accountId, type);
      return { id, created_at: iso(createdAt) };
    };
    switch (type) {
      case 'order.created': {
        const order = createDemoOrder(this.store, accountId, this.random, this.now());
        return order && { ...header(), type, data: { order } };
      }
      case 'message.received': {
        const subscribers = this.store.subscribers.subscriberRowIds(accountId);
        if (subscribers.length === 0) return null;
        const subscriberId = pick(this.random, subscribers);
        const subscriber = this.store.subscribers.getSubscriber(accountId, subscriberId);
        if (!subscriber) return null;
        const message = this.store.subscribers.addMessage(accountId, {
          subscriberId,
          botId: Number(subscriber.bot_id.slice('bot_'.length)),
          direction: 'in',
          text: demoIncomingMessage(this.random),
          clientReference: null,
        });
        const { status: _status, client_reference: _reference, ...received } = message;
        return {
          ...header(),
          type,
          data: {
            message: received,
            subscriber: this.store.subscribers.getSubscriber(accountId, subscriberId) ?? subscriber,
          },
        };
      }
      case 'comment.posted': {
        const posts = this.store.posts.publishedPostRowIds(accountId);
        const bots = this.store.bots.botRowIds(accountId);
        const post = posts.length > 0 ? pick(this.random, posts) : null;
        const botId = post?.bot_id ?? (bots.length > 0 ? pick(this.random, bots) : null);
        if (botId === null) return null;
        const comment = this.store.posts.createComment(accountId, {
          postId: post?.id ?? null,
          botId,
          ...demoComment(this.random),
        });
        return { ...header(), type, data: { comment } };
      }
    }
  }
}

/** The demo workspace's life: now and then an order, a message or a comment, on every account. */
export function startDemoActivity(
  events: EventSource,
  store: ReferenceServerStore,
  random: () => number,
  intervalMs: number,
): () => void {
  const kinds: EventType[] = [
    'message.received',
    'message.received',
    'order.created',
    'comment.posted',
  ];
  const timer = setInterval(() => {
    for (const account of store.accounts.all()) events.raise(account.id, pick(random, kinds));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
