// A webhook receiver on 127.0.0.1 (Node, main process): the demo workspace subscribes it to the
// reference server's events, so the Webhooks screen shows a live feed without a public URL.
// Deliveries are checked against the shared secret before anything is kept, and only fresh ones
// (created in the last five minutes: a captured delivery cannot be replayed later) sent to our
// own host name (a page that rebinds a name of its own to 127.0.0.1 is refused) are taken.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../platform/webhook-signature';
import { WEBHOOK_HEADERS } from '../platform/wire';

export interface ReceivedDelivery {
  id: string;
  type: string;
  payload: unknown;
}

export interface WebhookReceiver {
  url: string;
  secret: string;
  close(): Promise<void>;
}

const MAX_BODY = 256 * 1024;
/** The oldest event taken (docs/platform-api.md, "Webhook deliveries"). */
const MAX_EVENT_AGE_MS = 5 * 60_000;

/**
 * `now` is this computer's clock: the demo's reference server, which stamps `created_at`, runs in
 * this process, so both times come from the same clock.
 */
export async function startWebhookReceiver(
  onEvent: (delivery: ReceivedDelivery) => void,
  now: () => number = Date.now,
): Promise<WebhookReceiver> {
  const secret = randomBytes(24).toString('base64url');
  let host = '';
  const server = createServer((request, response) => {
    if (request.headers.host !== host) return void response.writeHead(403).end('unknown host');
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (request.method !== 'POST') return void response.writeHead(405).end();
      if (
        !verifyWebhookSignature(secret, body, request.headers[WEBHOOK_HEADERS.signature] as string)
      )
        return void response.writeHead(401).end('bad signature');
      try {
        const event = JSON.parse(body.toString('utf8')) as {
          id?: unknown;
          type?: unknown;
          created_at?: unknown;
        };
        if (typeof event.id !== 'string' || typeof event.type !== 'string')
          return void response.writeHead(400).end('an event needs an id and a type');
        const createdAt = typeof event.created_at === 'string' ? Date.parse(event.created_at) : NaN;
        if (!(now() - createdAt <= MAX_EVENT_AGE_MS))
          return void response.writeHead(400).end('the event is more than five minutes old');
        onEvent({ id: event.id, type: event.type, payload: event });
        response.writeHead(204).end();
      } catch {
        response.writeHead(400).end('not JSON');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    secret,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
