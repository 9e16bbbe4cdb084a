// People (Node, main process): subscribers and orders as the cache holds them, and what the user
// sends them: a message, a tag, a broadcast to everyone with a tag.
import { randomUUID } from 'node:crypto';
import type { CheckedInput } from '../../../shared/contract';
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
import type { CacheStore } from '../../store/cache';
import type { Transactional } from '../../store/transaction';
import { InvalidInput, NotAllowed } from '../errors';
import type { GovernedClient } from '../governed-client';
import type { Outbox } from '../outbox';

/** What people reads of the store: the cache of the platform's records. */
export interface PeopleData extends Transactional {
  cache: CacheStore;
}

export class PeopleService {
  constructor(
    private readonly store: PeopleData,
    private readonly outbox: Outbox,
    private readonly now: () => number,
    private readonly platform: GovernedClient,
  ) {}

  listSubscribers(input: CheckedInput<'listSubscribers'>): Page<SubscriberSummary> {
    return this.store.cache.subscribers(input);
  }

  getSubscriber(input: CheckedInput<'getSubscriber'>): SubscriberDetail {
    const { id } = input;
    const subscriber = this.store.cache.subscriber(id);
    if (!subscriber) throw new InvalidInput([{ field: 'id', message: `no subscriber ${id}` }]);
    return subscriber;
  }

  listOrders(input: CheckedInput<'listOrders'>): Page<OrderSummary> {
    return this.store.cache.orders(input);
  }

  /** Queues a message to one subscriber; it goes ahead of routine work. */
  sendMessage(input: CheckedInput<'sendMessage'>): OutboxItem {
    const { subscriberId, text } = input;
    return this.outbox.enqueueUserWrite('send_message', { subscriber_id: subscriberId, text });
  }

  addTag(input: CheckedInput<'addTag'>): OutboxItem {
    const { subscriberId, tag } = input;
    return this.outbox.enqueueUserWrite('add_tag', { subscriber_id: subscriberId, tag });
  }

  listTagAudiences(): TagAudience[] {
    return this.store.cache.tagAudiences();
  }

  /**
   * Queues the message for every active subscriber with the tag (as the platform lists them now),
   * one outbox item each, rate-limited like the rest. Progress: `broadcastProgress(group)`.
   */
  async broadcast(
    input: CheckedInput<'broadcast'>,
  ): Promise<{ group: string; recipients: number }> {
    const { tag, text, recipients: agreed } = input;
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
    const dueAt = this.now();
    this.store.transaction(() =>
      this.outbox.enqueue(
        recipients.map((subscriberId) => ({
          kind: 'send_message' as const,
          payload: { subscriber_id: subscriberId, text },
          priority: PRIORITY.due,
          dueAt,
          groupId: group,
        })),
      ),
    );
    return { group, recipients: recipients.length };
  }

  broadcastProgress(input: CheckedInput<'broadcastProgress'>): Record<OutboxItem['state'], number> {
    return this.outbox.counts(input.group);
  }
}
