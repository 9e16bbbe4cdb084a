// The demo's webhook receiver: a delivery counts only when it is signed with the shared secret,
// fresh (created in the last five minutes) and addressed to the receiver's own host.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../main/platform/webhook-signature';
import { WEBHOOK_HEADERS } from '../../main/platform/wire';
import { startWebhookReceiver } from '../../main/core/receiver';
import type { ReceivedDelivery, WebhookReceiver } from '../../main/core/receiver';

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver() {
  const received: ReceivedDelivery[] = [];
  const started = await startWebhookReceiver((delivery) => received.push(delivery));
  receivers.push(started);
  return { ...started, received };
}

/** Posts `event`, signed with `secret`, to `url`, with `host` as its Host header. */
function deliver(url: string, secret: string, event: object, host = new URL(url).host) {
  const body = JSON.stringify(event);
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          Host: host,
          'Content-Type': 'application/json',
          [WEBHOOK_HEADERS.signature]: signWebhookBody(secret, body),
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const event = (id: string, createdAt: number) => ({
  id,
  type: 'order.created',
  created_at: new Date(createdAt).toISOString(),
  data: {},
});

describe('webhook receiver', () => {
  it('takes a fresh, signed event, and refuses one older than five minutes', async () => {
    const { url, secret, received } = await receiver();
    expect(await deliver(url, secret, event('evt_1', Date.now() - 60_000))).toBe(204);
    expect(await deliver(url, secret, event('evt_2', Date.now() - 6 * 60_000))).toBe(400);
    expect(await deliver(url, secret, { id: 'evt_3', type: 'order.created' })).toBe(400);
    expect(received.map((delivery) => delivery.id)).toEqual(['evt_1']);
  });

  it('refuses a delivery addressed to another host name (a DNS-rebinding page)', async () => {
    const { url, secret, received } = await receiver();
    const port = new URL(url).port;
    expect(await deliver(url, secret, event('evt_1', Date.now()), `evil.example:${port}`)).toBe(
      403,
    );
    expect(received).toEqual([]);
  });
});
