// The web host (Node): the renderer and the core's contract over HTTP, on 127.0.0.1 only. Calls
// need the session token handed over in the printed URL's fragment (never sent in a request line,
// so never in a log), or traded once for the one-time code of a URL opened in the browser (a
// browser's command line is visible to every user of the computer); requests from another origin
// or for another host name are refused, which also stops DNS-rebinding pages.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { MAX_MEDIA_BASE64, MAX_UPLOAD_BYTES } from '../../shared/contract';
import { invokeFromRenderer, receiveUpload } from '../core/service';
import type { Session } from '../core/session';
import { contentTypeOf, encodedFile, fileInside } from './static-files';

export interface WebHostOptions {
  session: Session;
  port?: number;
  /** The built renderer; when it is missing, the page says how to build it. */
  staticDir?: string;
  /** How long a request's body may take to arrive (default 60 s; tests shorten it). */
  bodyTimeoutMs?: number;
}

export interface WebHost {
  /** Open this: it carries the session token in its fragment. */
  url: string;
  /**
   * A URL for the system browser's command line: a new one-time code in its fragment, which the
   * page trades once for the session token (POST /api/session).
   */
  oneTimeUrl(): string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
/** A post's picture is sent inline, base64-encoded, so its call may be bigger than others. */
const UPLOAD_OPERATIONS = new Set(['addMedia']);
const MAX_UPLOAD_BODY = MAX_MEDIA_BASE64 + 64 * 1024;
/**
 * Uploads at once (pictures, and files for an import, which are streamed to a private file via
 * POST /api/upload): a third is answered 429 with Retry-After (not queued: a queue would still
 * have to hold or stall the bodies it waits with).
 */
const MAX_UPLOADS_IN_FLIGHT = 2;
const UPLOAD_RETRY_SECONDS = 2;
/**
 * Contract calls answered at once, and event streams open at once: one page needs a few of each,
 * so more is a runaway or hostile client, answered 429 instead of holding memory and sockets.
 */
const MAX_CALLS_IN_FLIGHT = 32;
const MAX_EVENT_STREAMS = 8;
/** The whole of a request (an upload's body included) must arrive within this (Node's 408). */
const BODY_TIMEOUT_MS = 60_000;
/** How long a one-time code of oneTimeUrl may wait for its page. */
const ONE_TIME_CODE_MS = 2 * 60_000;
/**
 * The renderer runs under the same policy in Electron. Pictures only from the page itself and
 * data: URLs that main built (core/services/media.ts thumbnailUrls): a picture address in an
 * imported file is never fetched by the page, so its author cannot learn who looked, or when.
 * Styles only from our stylesheets: Svelte sets dynamic styles through the CSSOM, which the
 * policy allows, and an injected style attribute or <style> element is refused.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

function json(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(payload),
    })
    .end(payload);
}

function sameSecret(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One-time codes for oneTimeUrl: each is traded once for the session token, within its time. */
class OneTimeCodes {
  private readonly codes = new Map<string, number>();

  issue(): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, Date.now() + ONE_TIME_CODE_MS);
    return code;
  }

  /** True once for a code issued and not yet traded nor expired; it is gone afterwards. */
  trade(given: unknown): boolean {
    const now = Date.now();
    let found: string | null = null;
    for (const [code, expires] of this.codes) {
      if (expires < now) this.codes.delete(code);
      else if (typeof given === 'string' && sameSecret(given, code)) found = code;
    }
    if (found !== null) this.codes.delete(found);
    return found !== null;
  }
}

function tooMany(response: ServerResponse, message: string): void {
  response.setHeader('Retry-After', String(UPLOAD_RETRY_SECONDS));
  json(response, 429, { ok: false, error: { kind: 'not_allowed', message } });
}

/** A body over its limit: answered 413, naming the limit. */
class TooLarge extends Error {
  constructor(limit: number) {
    super(`The request is over the limit of ${Math.round(limit / 1024 / 1024)} MiB`);
  }
}

/** A request body that is not JSON: answered 400 without the parser's words. */
class NotJson extends Error {
  constructor() {
    super('The request body is not JSON');
  }
}

/**
 * A call that failed outside the core's own answers: the caller's body (too large, not JSON) is
 * a 4xx naming what was wrong; anything else is a 500 whose details go to the log only, never to
 * the page (they may quote files, paths or data).
 */
function answerFailure(request: IncomingMessage, response: ServerResponse, error: unknown): void {
  if (response.headersSent) return;
  if (error instanceof TooLarge || error instanceof NotJson) {
    // The rest of an oversized body is not read: the connection closes after the answer.
    if (error instanceof TooLarge) response.setHeader('Connection', 'close');
    json(response, error instanceof TooLarge ? 413 : 400, {
      ok: false,
      error: { kind: 'invalid_input', message: error.message },
    });
    return;
  }
  const what = /^\/api\/call\/([A-Za-z]+)$/.exec(request.url ?? '')?.[1] ?? 'The request';
  console.error(`[web] ${what} failed:`, error);
  json(response, 500, {
    ok: false,
    error: { kind: 'internal', message: `${what} failed unexpectedly; the log has the details` },
  });
}

async function readJson(request: IncomingMessage, limit: number): Promise<unknown> {
  if (Number(request.headers['content-length'] ?? 0) > limit) throw new TooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new TooLarge(limit);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new NotJson();
  }
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = randomBytes(24).toString('base64url');
  const staticDir = options.staticDir ? resolve(options.staticDir) : null;
  let origin = '';
  const streams = new Set<ServerResponse>();
  const codes = new OneTimeCodes();
  let uploadsInFlight = 0;
  let callsInFlight = 0;
  const unsubscribe = options.session.subscribe((event) => {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const stream of streams) stream.write(line);
  });

  const requestTimeout = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  // Node checks requestTimeout on this interval; its default (30 s) would stretch a short limit.
  const timeouts = { requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout) };
  const server = createServer(timeouts, (request, response) => {
    handle(request, response).catch((error: unknown) => answerFailure(request, response, error));
  });

  /** Runs an upload while fewer than MAX_UPLOADS_IN_FLIGHT are; otherwise answers 429. */
  async function withUploadSlot(response: ServerResponse, upload: () => Promise<void>) {
    if (uploadsInFlight >= MAX_UPLOADS_IN_FLIGHT) {
      response.setHeader('Retry-After', String(UPLOAD_RETRY_SECONDS));
      response.setHeader('Connection', 'close');
      return json(response, 429, {
        ok: false,
        error: {
          kind: 'not_allowed',
          message: `${MAX_UPLOADS_IN_FLIGHT} files are already being uploaded; try again when one is done`,
        },
      });
    }
    uploadsInFlight++;
    try {
      await upload();
    } finally {
      uploadsInFlight--;
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    // Only our own host name and origin: a page elsewhere cannot drive the core.
    const allowedHosts = [new URL(origin).host, `localhost:${new URL(origin).port}`];
    if (!allowedHosts.includes(request.headers.host ?? ''))
      return json(response, 403, {
        ok: false,
        error: { kind: 'not_allowed', message: 'Unknown host' },
      });
    const from = request.headers.origin;
    if (from !== undefined && !allowedHosts.map((host) => `http://${host}`).includes(from)) {
      return json(response, 403, {
        ok: false,
        error: { kind: 'not_allowed', message: 'Requests from other sites are refused' },
      });
    }

    if (url.pathname === '/api/session' && request.method === 'POST') {
      const { code } = (await readJson(request, 1024)) as { code?: unknown };
      if (!codes.trade(code))
        return json(response, 401, {
          ok: false,
          error: {
            kind: 'not_allowed',
            message: 'This link was used already; open Pressroom again',
          },
        });
      return json(response, 200, { ok: true, value: { token } });
    }

    if (url.pathname.startsWith('/api/')) {
      const events = url.pathname === '/api/events' && request.method === 'GET';
      // EventSource cannot send headers, so the event stream alone takes the token in its query.
      const bearer =
        /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ??
        (events ? url.searchParams.get('token') : null);
      if (!sameSecret(bearer, token))
        return json(response, 401, {
          ok: false,
          error: {
            kind: 'not_allowed',
            message: 'Open Pressroom from the link the server printed',
          },
        });
      if (url.pathname === '/api/upload' && request.method === 'POST') {
        if (!/^application\/octet-stream\b/.test(request.headers['content-type'] ?? ''))
          return json(response, 415, {
            ok: false,
            error: { kind: 'invalid_input', message: 'Send the file as application/octet-stream' },
          });
        if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES)
          throw new TooLarge(MAX_UPLOAD_BYTES);
        return withUploadSlot(response, async () => {
          // Streamed into a private file as it arrives: the host never holds the file whole.
          const received = await receiveUpload(
            options.session,
            url.searchParams.get('name'),
            request,
          );
          // Refused midway (over the limit), the rest of the body is not read.
          if (!received.ok) response.setHeader('Connection', 'close');
          json(response, 200, received);
        });
      }
      const call = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
      if (call?.[1] && request.method === 'POST') {
        if (callsInFlight >= MAX_CALLS_IN_FLIGHT)
          return tooMany(response, 'Pressroom is answering too many calls at once; try again');
        callsInFlight++;
        response.once('close', () => callsInFlight--);
        if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) {
          return json(response, 415, {
            ok: false,
            error: { kind: 'invalid_input', message: 'Send JSON' },
          });
        }
        if (!UPLOAD_OPERATIONS.has(call[1]))
          return json(
            response,
            200,
            await invokeFromRenderer(options.session, call[1], await readJson(request, MAX_BODY)),
          );
        const operation = call[1];
        return withUploadSlot(response, async () => {
          const input = await readJson(request, MAX_UPLOAD_BODY);
          json(response, 200, await invokeFromRenderer(options.session, operation, input));
        });
      }
      if (events) {
        if (streams.size >= MAX_EVENT_STREAMS)
          return tooMany(response, `${MAX_EVENT_STREAMS} event streams are open already`);
        response.writeHead(200, {
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
        });
        response.write(': connected\n\n');
        streams.add(response);
        request.on('close', () => streams.delete(response));
        return;
      }
      return json(response, 404, {
        ok: false,
        error: { kind: 'unknown_operation', message: `Nothing at ${url.pathname}` },
      });
    }

    if (request.method !== 'GET')
      return json(response, 405, {
        ok: false,
        error: { kind: 'not_allowed', message: 'Only GET here' },
      });
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = staticDir ? fileInside(staticDir, path) : null;
    if (file === null || !existsSync(file) || !statSync(file).isFile()) {
      if (path === '/index.html') {
        response
          .writeHead(200, {
            'Content-Type': 'text/html; charset=utf-8',
            'Content-Security-Policy': CONTENT_SECURITY_POLICY,
          })
          .end(
            '<!doctype html><title>Pressroom</title><p>The interface is not built yet. The core answers at <code>/api/call/…</code>.</p>',
          );
        return;
      }
      return json(response, 404, {
        ok: false,
        error: { kind: 'unknown_operation', message: `Nothing at ${url.pathname}` },
      });
    }
    const sent = encodedFile(file, request.headers['accept-encoding']);
    response.writeHead(200, {
      'Content-Type': contentTypeOf(file),
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
      ...(sent.encoding ? { 'Content-Encoding': sent.encoding } : {}),
    });
    createReadStream(sent.path).pipe(response);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/#token=${token}`,
    oneTimeUrl: () => `${origin}/#code=${codes.issue()}`,
    origin,
    token,
    close: async () => {
      unsubscribe();
      for (const stream of streams) stream.end();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}
