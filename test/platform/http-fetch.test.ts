// The platform's fetch on Node's http client (main/platform/http-fetch.ts), against real servers
// on 127.0.0.1: what the transport relies on fetch for, kept.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../main/platform/client';
import { PlatformError } from '../../main/platform/errors';
import { httpFetch } from '../../main/platform/http-fetch';

const servers: Server[] = [];

/** A server on 127.0.0.1 answering with `handle`; `connections` counts the sockets it accepted. */
async function serve(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  connections = { count: 0 },
): Promise<string> {
  const server = createServer(handle);
  server.on('connection', () => connections.count++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const send = httpFetch();

describe('the platform fetch on Node’s http client', () => {
  it('follows a GET redirect, sending the token only to the same origin', async () => {
    const seen: (string | undefined)[] = [];
    const other = await serve((request, response) => {
      seen.push(request.headers.authorization);
      response.setHeader('content-type', 'application/json');
      response.end('{"elsewhere":true}');
    });
    const origin = await serve((request, response) => {
      seen.push(request.headers.authorization);
      if (request.url === '/first') {
        response.writeHead(302, { location: '/second' }).end();
      } else if (request.url === '/second') {
        response.writeHead(307, { location: `${other}/third` }).end();
      }
    });
    const response = await send(`${origin}/first`, {
      headers: { Authorization: 'Bearer secret' },
    });
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toEqual({ elsewhere: true });
    expect(seen).toEqual(['Bearer secret', 'Bearer secret', undefined]);
  });

  it('hands a write its redirect back with redirect: manual, sending nothing on', async () => {
    const bodies: string[] = [];
    const origin = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        bodies.push(`${request.method} ${request.url} ${body}`);
        response.writeHead(308, { location: '/elsewhere' }).end();
      });
    });
    const response = await send(`${origin}/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"text":"hi"}',
      redirect: 'manual',
    });
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(bodies).toEqual(['POST /posts {"text":"hi"}']);
  });

  it('gives a 204 no body, keeps repeated headers and the status text', async () => {
    const origin = await serve((request, response) => {
      if (request.url === '/gone') {
        response.writeHead(204).end();
        return;
      }
      response.statusMessage = 'Teapot Here';
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.writeHead(418).end('short');
    });
    const gone = await send(`${origin}/gone`, { method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect(gone.body).toBeNull();
    const teapot = await send(`${origin}/teapot`);
    expect([teapot.status, teapot.statusText, teapot.ok]).toEqual([418, 'Teapot Here', false]);
    expect(teapot.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    await expect(teapot.text()).resolves.toBe('short');
  });

  it('fails as fetch does: the signal’s reason once aborted, else "fetch failed" with the cause', async () => {
    const silent = await serve(() => undefined);
    const controller = new AbortController();
    const reason = new DOMException('no progress for 50 ms', 'TimeoutError');
    setTimeout(() => controller.abort(reason), 50);
    await expect(send(`${silent}/slow`, { signal: controller.signal })).rejects.toBe(reason);

    const closed = await serve(() => undefined);
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const failure = await send(`${closed}/nobody`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('turns a POST into a GET on a 303, and stops after twenty redirects', async () => {
    const seen: string[] = [];
    const origin = await serve((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers['content-type'] ?? ''}`);
      if (request.url === '/posts') response.writeHead(303, { location: '/posts/1' }).end();
      else if (request.url === '/posts/1') response.end('{"id":1}');
      else response.writeHead(302, { location: `/loop${seen.length}` }).end();
    });
    const created = await send(`${origin}/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    await expect(created.json()).resolves.toEqual({ id: 1 });
    expect(seen).toEqual(['POST /posts application/json', 'GET /posts/1 ']);

    const failure = await send(`${origin}/loop`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as Error).message).toBe('redirect count exceeded');
    expect(seen.length).toBe(2 + 21);
  });

  it('asks for compressed answers and reads gzip and brotli', async () => {
    const accepted: (string | undefined)[] = [];
    const page = JSON.stringify({ data: Array.from({ length: 500 }, (_, id) => ({ id })) });
    const origin = await serve((request, response) => {
      accepted.push(request.headers['accept-encoding']);
      const gzip = request.url === '/gzip';
      response.writeHead(200, { 'content-encoding': gzip ? 'gzip' : 'br' });
      response.end(gzip ? gzipSync(page) : brotliCompressSync(page));
    });
    await expect((await send(`${origin}/gzip`)).text()).resolves.toBe(page);
    await expect((await send(`${origin}/br`)).text()).resolves.toBe(page);
    expect(accepted).toEqual(['gzip, deflate, br', 'gzip, deflate, br']);
  });

  it('sends one request after another on one connection, but none on a connection about to close', async () => {
    const kept = { count: 0 };
    const keeping = await serve((_request, response) => response.end('{}'), kept);
    for (let i = 0; i < 5; i++) await (await send(`${keeping}/bots`)).text();
    expect(kept.count).toBe(1);
    // A server that keeps an idle connection two seconds: it is let go a second before. A write
    // sent on it as the server closes it would meet a reset, and nobody could say if it was done.
    const brief = { count: 0 };
    const closing = await serve(
      (_request, response) => response.writeHead(200, { 'keep-alive': 'timeout=2' }).end('{}'),
      brief,
    );
    await (await send(`${closing}/bots`)).text();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await (await send(`${closing}/bots`)).text();
    expect(brief.count).toBe(2);
  });

  it('fails the body’s read when the connection is cut in the middle, or a gzip body is broken', async () => {
    const origin = await serve((request, response) => {
      if (request.url === '/cut') {
        response.writeHead(200, { 'content-length': '1000' });
        response.write('{"data":[');
        setTimeout(() => response.socket?.destroy(), 20);
      } else {
        response.writeHead(200, { 'content-encoding': 'gzip' });
        response.end(Buffer.concat([gzipSync('{"data":[]}').subarray(0, 10), Buffer.alloc(40, 7)]));
      }
    });
    const cut = await send(`${origin}/cut`);
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow();
    const broken = await send(`${origin}/broken`);
    await expect(broken.text()).rejects.toThrow();
  });

  it('refuses a compressed answer that inflates past the client’s size cap, and goes on', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '));
    const origin = await serve((request, response) => {
      const gzip = request.url?.startsWith('/api/v1/bots');
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      response.end(gzip ? bomb : '[]');
    });
    const client = createPlatformClient({
      baseUrl: `${origin}/api/v1`,
      token: 'tok_bomb',
      maxBodyBytes: 1024 * 1024,
    });
    const error = await client.listBots().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect((error as Error).message).toContain('the answer is over');
    // The stopped read left nothing behind: the next request is answered.
    expect((await client.listPosts()).items).toEqual([]);
  });

  it('tells a write the platform answered 201 as sent when the line drops mid-body', async () => {
    const origin = await serve((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json', 'content-length': '200' });
      response.write('{"id": "post_9');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const client = createPlatformClient({ baseUrl: `${origin}/api/v1`, token: 'tok_cut' });
    const error = await client
      .createPost({ bot_id: 'bot_1', text: 'Hello' })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ kind: 'bad_response', status: 201, sent: true });
  });

  it('fails as when no answer came for a status HTTP has not', async () => {
    const origin = await serve((_request, response) => response.writeHead(799).end('{}'));
    const failure = await send(`${origin}/odd`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as Error).message).toMatch(/status 799/);
  });

  it('refuses what the transport never sends: a Request, a body that is not text', async () => {
    const origin = await serve((_request, response) => response.end());
    await expect(send(new Request(`${origin}/x`))).rejects.toThrow(/takes a URL/);
    await expect(send(`${origin}/x`, { method: 'POST', body: new Uint8Array(2) })).rejects.toThrow(
      /text bodies only/,
    );
  });
});
