// A webhook receiver for tests: records each delivery and answers with the statuses it is given.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

const receivers: (() => void)[] = [];
afterEach(() => receivers.splice(0).forEach((close) => close()));

/** A receiver that answers with the given statuses in turn, then 200. */
export async function receiver(statuses: number[] = []) {
  const received: Received[] = [];
  let waiting: (() => void) | null = null;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(statuses.shift() ?? 200).end();
      waiting?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receivers.push(() => server.close());
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    async until(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => (waiting = resolve));
    },
  };
}
