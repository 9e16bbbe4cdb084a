// The web host's door: the session token (checked by its value, on calls and on the event
// stream), the one-time code a browser's command line carries instead of it, and the limits on
// connections a runaway or hostile client may hold.
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { setImmediate as turn } from 'node:timers/promises';
import type { CoreEvents } from '../../main/core/events';
import type { CoreEvent } from '../../shared/answers';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, startWebHost } from '../../main/host/web';
import type { WebHost, WebHostOptions } from '../../main/host/web';
import { openOfflineSession } from '../support/session';

const open: WebHost[] = [];
afterEach(async () => {
  for (const web of open.splice(0)) await web.close();
});

/** A web host over an offline workspace: no platform is needed to test its door. */
async function offlineHost(options: Partial<WebHostOptions> = {}): Promise<WebHost> {
  const web = await startWebHost({ session: await openOfflineSession(), ...options });
  open.push(web);
  return web;
}

/** The token with its last character changed: the same length, a different value. */
function nearMiss(token: string): string {
  return token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
}

const callStatus = (web: WebHost, token: string) =>
  fetch(`${web.origin}/api/call/status`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });

const trade = (web: WebHost, code: unknown) =>
  fetch(`${web.origin}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });

/**
 * A call whose body is still arriving: its headers and `start` are sent, the rest when the test
 * ends it; `status` is the host's answer (-1 when the connection broke).
 */
function heldCall(web: WebHost, operation: string, length: number, start: string) {
  let answered!: (status: number) => void;
  const status = new Promise<number>((resolve) => (answered = resolve));
  const req = request(
    `${web.origin}/api/call/${operation}`,
    {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${web.token}`,
        'Content-Type': 'application/json',
        'Content-Length': length,
      },
    },
    (res) => {
      res.resume();
      answered(res.statusCode ?? 0);
    },
  );
  req.on('error', () => answered(-1));
  req.write(start);
  return { req, status };
}

/** The status of `status` calls, asked again (for a while) until `wanted` says it is the one. */
async function statusOnceSettled(web: WebHost, wanted: (status: number) => boolean) {
  let status = 0;
  for (let tries = 0; tries < 50; tries++) {
    status = (await callStatus(web, web.token)).status;
    if (wanted(status)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return status;
}

describe('the session token', () => {
  it('is checked by its value: a wrong token of the right length is refused', async () => {
    const web = await offlineHost();
    const wrong = nearMiss(web.token);
    expect(wrong).toHaveLength(web.token.length);
    expect((await callStatus(web, wrong)).status).toBe(401);
    expect((await callStatus(web, web.token)).status).toBe(200);
  });

  it('guards the event stream: no token, a wrong one and one of the right length are refused', async () => {
    const web = await offlineHost();
    for (const query of ['', '?token=', '?token=wrong', `?token=${nearMiss(web.token)}`]) {
      const refused = await fetch(`${web.origin}/api/events${query}`);
      expect(refused.status, query).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      await refused.body?.cancel();
    }
    const stream = await fetch(`${web.origin}/api/events?token=${web.token}`);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await stream.body?.cancel();
  });
});

describe('the one-time code', () => {
  it('opens the browser on a URL without the token, whose code is traded once for it', async () => {
    const web = await offlineHost();
    const url = new URL(web.oneTimeUrl());
    expect(url.origin).toBe(web.origin);
    expect(url.href).not.toContain(web.token);
    const code = /^#code=([\w-]+)$/.exec(url.hash)?.[1];
    expect(code).toBeDefined();
    const first = await trade(web, code);
    expect(await first.json()).toEqual({ ok: true, value: { token: web.token } });
    // A second page (or a process that read the browser's command line) gets nothing.
    const second = await trade(web, code);
    expect(second.status).toBe(401);
    expect(JSON.stringify(await second.json())).not.toContain(web.token);
    // Each URL has its own code; made-up ones and the token itself are no codes.
    expect(web.oneTimeUrl()).not.toBe(url.href);
    for (const guess of [nearMiss(code ?? ''), web.token, '', 42])
      expect((await trade(web, guess)).status).toBe(401);
  });

  it('is traded only by our own page, not from another site', async () => {
    const web = await offlineHost();
    const code = new URL(web.oneTimeUrl()).hash.slice('#code='.length);
    const foreign = await fetch(`${web.origin}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' },
      body: JSON.stringify({ code }),
    });
    expect(foreign.status).toBe(403);
    expect((await trade(web, code)).status).toBe(200);
  });
});

describe('limits on connections', () => {
  it('closes an event stream whose reader stopped reading, instead of holding what it missed', async () => {
    const session = await openOfflineSession();
    const web = await offlineHost({ session });
    const stream = await new Promise<IncomingMessage>((resolve) =>
      request(`${web.origin}/api/events?token=${web.token}`, resolve).end(),
    );
    // A page that stopped reading (a stalled tab, a hostile client): nothing is read from here.
    stream.pause();
    // Every published product is an event; 32 MiB of them, far past what the sockets buffer.
    const events = (session.current as unknown as { events: CoreEvents }).events;
    const big = { type: 'changed', what: 'x'.repeat(64 * 1024) } as unknown as CoreEvent;
    for (let i = 0; i < 512; i++) {
      events.emit(big);
      await turn();
    }
    // Read again: what was sent ends, closed by the host, where it would have stayed open.
    const closed = new Promise<boolean>((resolve) => {
      stream.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 10_000);
    });
    stream.on('error', () => {}).resume();
    expect(await closed).toBe(true);
  });

  it('keeps at most eight event streams open; a ninth is told to come back', async () => {
    const web = await offlineHost();
    const streams = await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${web.origin}/api/events?token=${web.token}`)),
    );
    expect(streams.map((stream) => stream.status)).toEqual(Array(8).fill(200));
    const ninth = await fetch(`${web.origin}/api/events?token=${web.token}`);
    expect(ninth.status).toBe(429);
    expect(ninth.headers.get('retry-after')).toBe('2');
    await ninth.body?.cancel();
    await streams[0]!.body?.cancel();
    // Once one closes, another may open.
    let again = 429;
    for (let tries = 0; again === 429 && tries < 50; tries++) {
      const reopened = await fetch(`${web.origin}/api/events?token=${web.token}`);
      again = reopened.status;
      await reopened.body?.cancel();
      if (again === 429) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again).toBe(200);
    await Promise.all(streams.slice(1).map((stream) => stream.body?.cancel()));
  });

  it('answers at most 32 calls at once; the next is told to come back', async () => {
    const web = await offlineHost();
    // 32 calls whose bodies are still arriving hold their places.
    const held = Array.from({ length: 32 }, () => heldCall(web, 'status', 2, '{'));
    expect(await statusOnceSettled(web, (status) => status === 429)).toBe(429);
    for (const { req } of held) req.end('}');
    expect(await Promise.all(held.map(({ status }) => status))).toEqual(Array(32).fill(200));
    expect(await statusOnceSettled(web, (status) => status !== 429)).toBe(200);
  });

  it('gives up on a body that stops arriving, and answers other calls meanwhile', async () => {
    const web = await offlineHost({ bodyTimeoutMs: 300 });
    const stalled = heldCall(web, 'previewUpload', 1000, '{"kind":"posts",');
    expect((await callStatus(web, web.token)).status).toBe(200);
    expect(await stalled.status).toBe(408);
  });
});

describe('the page’s content security policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources.join(' ')] as const;
    }),
  );

  it('loads no picture from the web, and no inline style', async () => {
    // A picture's address in an imported file would tell its author who looked, and when.
    expect(directives.get('img-src')).toBe("'self' data: blob:");
    expect(directives.get('style-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    const web = await offlineHost();
    const page = await fetch(`${web.origin}/`);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    await page.body?.cancel();
  });
});
