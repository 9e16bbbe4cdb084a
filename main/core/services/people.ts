// People (Node, main process): subscribers and orders as the cache holds them, and what the user
// sends them: a message, a tag, a broadcast to everyone with a tag.
import { randomUUID } from 'node:crypto';
import type { OperationInput } from '../../../shared/contract';
import type {
  OrderSummary,
  OutboxItem,
  Page,
  SubscriberDetail,
  SubscriberSummary,
  TagAudience,
} from '../../../shared/domain';
import { PRIORITY } from '../../../shared/domain';
import { readWholeList } from '../../platform/client';
import type { PageRequest } from '../../platform/normalize';
import type { WorkspaceStore } from '../../store';
import { InvalidInput, NotAllowed } from '../errors';
import type { GovernedClient } from '../governed-client';
import { validate } from '../input';
import type { QueueService } from './queue';

export class PeopleService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly now: () => number,
    private readonly platform: GovernedClient,
    private readonly queue: QueueService,
  ) {}

  listSubscribers(input: OperationInput<'listSubscribers'> = {}): Page<SubscriberSummary> {
    return this.store.cache.subscribers(validate('listSubscribers', input));
  }

  getSubscriber(input: OperationInput<'getSubscriber'>): SubscriberDetail {
    const { id } = validate('getSubscriber', input);
    const subscriber = this.store.cache.subscriber(id);
    if (!subscriber) throw new InvalidInput([{ field: 'id', message: `no subscriber ${id}` }]);
    return subscriber;
  }

  listOrders(input: OperationInput<'listOrders'> = {}): Page<OrderSummary> {
    return this.store.cache.orders(validate('listOrders', input));
  }

  /** Queues a message to one subscriber; it goes ahead of routine work. */
  sendMessage(input: OperationInput<'sendMessage'>): OutboxItem {
    const { subscriberId, text } = validate('sendMessage', input);
    return this.queue.enqueueUserWrite('send_message', { subscriber_id: subscriberId, text });
  }

  addTag(input: OperationInput<'addTag'>): OutboxItem {
    const { subscriberId, tag } = validate('addTag', input);
    return this.queue.enqueueUserWrite('add_tag', { subscriber_id: subscriberId, tag });
  }

  listTagAudiences(): TagAudience[] {
    return this.store.cache.tagAudiences();
  }

  /**
   * Queues the message for every active subscriber with the tag (as the platform lists them now),
   * one outbox item each, rate-limited like the rest. Progress: `broadcastProgress(group)`.
   */
  async broadcast(
    input: OperationInput<'broadcast'>,
  ): Promise<{ group: string; recipients: number }> {
    const { tag, text, recipients: agreed } = validate('broadcast', input);
    const client = this.platform.require();
    const recipients: string[] = [];
    const listPage = (request: PageRequest) =>
      this.platform.gated(PRIORITY.user, () =>
        client.listSubscribers({ tag, status: 'active', per_page: 200, ...request }),
      );
    const { items } = await readWholeList(listPage);
    recipients.push(
      ...items
        .filter(
          (s) => s.status === 'active' && s.tags.some((t) => t.toLowerCase() === tag.toLowerCase()),
        )
        .map((s) => s.id),
    );
    // The user said yes to a number: another number is another question, so nothing goes.
    if (agreed !== undefined && agreed !== recipients.length)
      throw new NotAllowed(
        `The tag “${tag}” now has ${recipients.length} active subscriber${recipients.length === 1 ? '' : 's'} on the platform, not ${agreed}. Nothing was sent; check the count and send again.`,
      );
    const group = `broadcast-${randomUUID()}`;
    this.store.transaction(() => {
      for (const subscriberId of recipients) {
        this.store.outbox.enqueue({
          kind: 'send_message',
          payload: { subscriber_id: subscriberId, text },
          priority: PRIORITY.due,
          dueAt: this.now(),
          groupId: group,
        });
      }
    });
    this.queue.changed();
    return { group, recipients: recipients.length };
  }

  broadcastProgress(
    input: OperationInput<'broadcastProgress'>,
  ): Record<OutboxItem['state'], number> {
    return this.store.outbox.counts(validate('broadcastProgress', input).group);
  }
}
