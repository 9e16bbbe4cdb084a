// What the orders, subscribers and bots screens rely on from the core, against the reference
// server: a write's queue events carry the item the call returned, the cache learns of a write
// at the next sync, and every sync tells the screens so.
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/answers';
import { testWorkspace } from '../support/workspace';
import { startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

async function workspace() {
  const platform = await startTestPlatform({ seed: 'demo' });
  const pressroom = testWorkspace({
    platform,
  });
  const events: CoreEvent[] = [];
  pressroom.subscribe((event) => events.push(event));
  return { platform, pressroom, events };
}

const cacheChanges = (events: CoreEvent[]) =>
  events.filter((event) => event.type === 'changed' && event.what === 'cache').length;

describe('the people screens’ operations', () => {
  it('announces every sync as a cache change', async () => {
    const { pressroom, events } = await workspace();
    const report = await call(pressroom, 'sync');
    expect(report).toMatchObject({ bots: 3, subscribers: expect.any(Number) });
    expect(cacheChanges(events)).toBe(1);
    expect(
      call(pressroom, 'listOrders', { limit: 5, status: 'paid' }).rows.every(
        (order) => order.status === 'paid',
      ),
    ).toBe(true);
  });

  it('names each order’s customer, and finds orders by the customer’s name', async () => {
    const { pressroom } = await workspace();
    await pressroom.queue.sync();
    const orders = call(pressroom, 'listOrders', { limit: 1000 }).rows;
    const named = orders.filter((order) => order.customer !== null);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((order) => /^sub_/.test(order.customer ?? ''))).toEqual([]);
    const customer = named[0]!.customer!;
    const found = call(pressroom, 'listOrders', {
      limit: 1000,
      search: customer.toUpperCase(),
    }).rows;
    expect(found.map((order) => order.id).sort()).toEqual(
      named
        .filter((order) => order.customer === customer)
        .map((order) => order.id)
        .sort(),
    );
  });

  it('settles a tag under the item the call returned, and the cache has it after a sync', async () => {
    const { pressroom, events } = await workspace();
    await call(pressroom, 'sync');
    const someone = call(pressroom, 'listSubscribers', { limit: 50 }).rows.find(
      (subscriber) => subscriber.status === 'active',
    );
    if (!someone) throw new Error('the demo seed has active subscribers');
    const item = call(pressroom, 'addTag', { subscriberId: someone.id, tag: 'screen-test' });
    await call(pressroom, 'publishDue');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'done', item: expect.objectContaining({ id: item.id }) }),
    );
    expect(call(pressroom, 'getSubscriber', { id: someone.id }).tags).not.toContain('screen-test');
    await call(pressroom, 'sync');
    expect(call(pressroom, 'getSubscriber', { id: someone.id }).tags).toContain('screen-test');
    expect(
      call(pressroom, 'listSubscribers', { tag: 'SCREEN-TEST' }).rows.map((row) => row.id),
    ).toEqual([someone.id]);

    expect(call(pressroom, 'listTagAudiences')).toContainEqual({
      tag: 'screen-test',
      recipients: 1,
    });
    // The user agreed to another count than the platform now has: nothing goes.
    await expect(
      call(pressroom, 'broadcast', { tag: 'screen-test', text: 'Hello', recipients: 2 }),
    ).rejects.toThrow(/now has 1 active subscriber on the platform, not 2\. Nothing was sent/);
    expect(call(pressroom, 'status').outbox.queued).toBe(0);
    const { group, recipients } = await call(pressroom, 'broadcast', {
      tag: 'screen-test',
      text: 'Hello',
      recipients: 1,
    });
    expect(recipients).toBe(1);
    await call(pressroom, 'publishDue');
    expect(call(pressroom, 'broadcastProgress', { group })).toMatchObject({ done: 1, failed: 0 });
  });

  it('fails a message to an unknown subscriber with the server’s reason on the item', async () => {
    const { pressroom, events } = await workspace();
    const item = call(pressroom, 'sendMessage', { subscriberId: 'sub_999999', text: 'Hi' });
    await call(pressroom, 'publishDue');
    const failed = events.find((event) => event.type === 'failed' && event.item.id === item.id);
    expect(failed).toMatchObject({ type: 'failed', reason: expect.stringMatching(/\S/) });
  });

  it('lists a created, renamed bot only after a sync, with its pending writes counted before', async () => {
    const { pressroom } = await workspace();
    await call(pressroom, 'sync');
    const created = call(pressroom, 'createBot', { name: 'Night shift', channel: 'web' });
    await call(pressroom, 'publishDue');
    const botId = pressroom.store.outbox.require(created.id).remoteId ?? '';
    expect(call(pressroom, 'listBots').map((bot) => bot.id)).not.toContain(botId);
    await call(pressroom, 'sync');
    expect(call(pressroom, 'listBots').find((bot) => bot.id === botId)).toMatchObject({
      name: 'Night shift',
      pending: 0,
    });
    call(pressroom, 'renameBot', { botId, name: 'Day shift' });
    expect(call(pressroom, 'listBots').find((bot) => bot.id === botId)?.pending).toBe(1);
    await call(pressroom, 'publishDue');
    await call(pressroom, 'sync');
    expect(call(pressroom, 'listBots').find((bot) => bot.id === botId)).toMatchObject({
      name: 'Day shift',
      pending: 0,
    });
  });
});
