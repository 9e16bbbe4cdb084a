// A small HTTP server in front of the reference server (or of nothing): each request is answered
// by `answer`, which may hand it on to the reference server unchanged. For platforms that behave
// as the reference server never does (a 429 without headers, a Retry-After of its own).
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface FrontRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export type FrontAnswer = { status: number; headers?: Record<string, string>; body?: string };

export interface Front {
  baseUrl: string;
  /** Every request seen, with the instant it came. */
  seen: { method: string; path: string; atMs: number }[];
}

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((close) => close()));
});

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Hands a request on to `origin` as it came, and its answer back as it was. */
export async function forward(origin: string, request: FrontRequest): Promise<FrontAnswer> {
  const { host: _host, 'content-length': _length, ...headers } = request.headers;
  const response = await fetch(origin + request.path, {
    method: request.method,
    headers,
    ...(request.body ? { body: request.body } : {}),
  });
  return {
    status: response.status,
    headers: Object.fromEntries(
      [...response.headers].filter(
        ([name]) =>
          !['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name),
      ),
    ),
    body: await response.text(),
  };
}

export async function startFront(
  answer: (request: FrontRequest) => FrontAnswer | Promise<FrontAnswer>,
): Promise<Front> {
  const seen: Front['seen'] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const front: FrontRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: await bodyOf(request),
      };
      seen.push({ method: front.method, path: front.path, atMs: Date.now() });
      const reply = await answer(front);
      response.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api/v1`, seen };
}
