// A webhook receiver on 127.0.0.1 (Node, main process): the demo workspace subscribes it to the
// reference server's events, so the Webhooks screen shows a live feed without a public URL.
// Deliveries are checked against the shared secret before anything is kept.
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

export async function startWebhookReceiver(
  onEvent: (delivery: ReceivedDelivery) => void,
): Promise<WebhookReceiver> {
  const secret = randomBytes(24).toString('base64url');
  const server = createServer((request, response) => {
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
        const event = JSON.parse(body.toString('utf8')) as { id?: unknown; type?: unknown };
        if (typeof event.id !== 'string' || typeof event.type !== 'string')
          return void response.writeHead(400).end('an event needs an id and a type');
        onEvent({ id: event.id, type: event.type, payload: event });
        response.writeHead(204).end();
      } catch {
        response.writeHead(400).end('not JSON');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
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
