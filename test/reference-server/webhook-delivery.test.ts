// Events raised by the reference server reach a subscribed receiver, signed.
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../main/platform/webhook-signature';
import { WEBHOOK_HEADERS } from '../../main/platform/wire';
import type { WebhookEvent } from '../../main/platform/wire';
import { startTestPlatform } from '../support/platform';
import { receiver } from '../support/webhook-receiver';

describe('webhook deliveries', () => {
  it('delivers each subscribed event type, signed over the body', async () => {
    const { client, admin } = await startTestPlatform({ seed: 'demo' });
    const hook = await receiver();
    const subscription = await client.createWebhook({
      url: hook.url,
      events: ['order.created', 'message.received'],
      secret: 'a-secret-of-sixteen+',
    });
    const order = await admin<WebhookEvent>('POST', '/events', { type: 'order.created' });
    await admin('POST', '/events', { type: 'comment.posted' }); // not subscribed
    await admin('POST', '/events', { type: 'message.received' });
    await hook.until(2);

    const [first, second] = hook.received;
    expect(
      first &&
        verifyWebhookSignature(
          subscription.secret ?? '',
          first.body,
          first.headers[WEBHOOK_HEADERS.signature] as string,
        ),
    ).toBe(true);
    expect(
      first &&
        verifyWebhookSignature(
          'another-secret-xxxx',
          first.body,
          first.headers[WEBHOOK_HEADERS.signature] as string,
        ),
    ).toBe(false);
    const event = JSON.parse(first?.body ?? '{}') as WebhookEvent;
    expect(event).toEqual(order);
    expect(event.type === 'order.created' && event.data.order.items.length).toBeGreaterThan(0);
    expect(first?.headers[WEBHOOK_HEADERS.eventType]).toBe('order.created');
    expect(first?.headers[WEBHOOK_HEADERS.subscription]).toBe(subscription.id);
    expect(JSON.parse(second?.body ?? '{}')).toMatchObject({
      type: 'message.received',
      data: { message: { text: expect.any(String) } },
    });
    expect(hook.received).toHaveLength(2);
    // The order really exists on the platform.
    const orders = await client.listOrders({ per_page: 200 });
    expect(
      orders.items.some((o) => event.type === 'order.created' && o.id === event.data.order.id),
    ).toBe(true);
  });

  it('retries a failing receiver with the same event and a rising attempt number', async () => {
    const { client, admin } = await startTestPlatform({ seed: 'demo' });
    const hook = await receiver([500, 503]);
    await client.createWebhook({ url: hook.url, events: ['comment.posted'] });
    await admin('POST', '/events', { type: 'comment.posted' });
    await hook.until(3);
    expect(hook.received.map((r) => r.headers[WEBHOOK_HEADERS.attempt])).toEqual(['1', '2', '3']);
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
  });

  it('raises events on its own in the demo workspace', async () => {
    const { client } = await startTestPlatform({ seed: 'demo', demoActivityMs: 20 });
    const hook = await receiver();
    await client.createWebhook({
      url: hook.url,
      events: ['order.created', 'message.received', 'comment.posted'],
    });
    await hook.until(3);
    const types = hook.received.map((r) => (JSON.parse(r.body) as WebhookEvent).type);
    expect(
      types.every((type) => ['order.created', 'message.received', 'comment.posted'].includes(type)),
    ).toBe(true);
  });
});
