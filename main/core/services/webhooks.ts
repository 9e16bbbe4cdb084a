// Webhooks (Node, main process): the platform's webhook subscriptions, and the events this
// workspace's own receiver got, kept once each and announced.
import type { CheckedInput } from '../../../shared/contract';
import type { ReceivedEvent, WebhookInfo } from '../../../shared/domain';
import { PRIORITY } from '../../../shared/domain';
import type { WebhooksStore } from '../../store/webhooks';
import type { CoreEvents } from '../events';
import type { GovernedClient } from '../governed-client';

/** This workspace's own webhook receiver (the demo workspace has one). */
export interface OwnReceiver {
  url: string;
  secret: string;
}

export class WebhooksService {
  constructor(
    private readonly store: { webhooks: WebhooksStore },
    private readonly events: CoreEvents,
    private readonly platform: GovernedClient,
    private readonly receiver: OwnReceiver | null,
  ) {}

  listWebhooks(): { subscriptions: WebhookInfo[]; receiverUrl: string | null } {
    return { subscriptions: this.store.webhooks.list(), receiverUrl: this.receiver?.url ?? null };
  }

  async createWebhook(input: CheckedInput<'createWebhook'>): Promise<WebhookInfo> {
    const { url, events } = input;
    const client = this.platform.require();
    // Our own receiver checks signatures with its secret; other receivers get the platform's.
    const secret = url === this.receiver?.url ? { secret: this.receiver.secret } : {};
    const created = await this.platform.gated(PRIORITY.user, () =>
      client.createWebhook({ url, events, ...secret }),
    );
    return this.store.webhooks.add({ id: created.id, url: created.url, events: created.events });
  }

  listReceivedEvents(input: CheckedInput<'listReceivedEvents'>): ReceivedEvent[] {
    return this.store.webhooks.received(input.limit);
  }

  /** An event the webhook receiver got (signature already checked); kept once, then announced. */
  receiveEvent(event: { id: string; type: string; payload: unknown }): void {
    const kept = this.store.webhooks.receive(event);
    if (kept) this.events.emit({ type: 'received', event: kept });
  }
}
