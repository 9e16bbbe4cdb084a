// The web host's requests (Node): each one is checked for its host name and origin, then is the
// session token's trade, a contract call, an upload, the event stream, or a file of the built
// renderer. Refusals are JSON answers with a kind and a sentence; bodies are bounded in size,
// time and number at once.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_MEDIA_BASE64, MAX_UPLOAD_BYTES } from '../../shared/upload-limits';
import type { Session } from '../core/session';
import { contentTypeOf, encodedFile, fileInside } from './static-files';

/**
 * The operation table, loaded with the first call: the page's files are served before the core's
 * code has loaded (a call waits for the session, which needs it anyway).
 */
const operations = () => import('../core/operations');

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
export function answerFailure(
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
): void {
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

/** A refusal: its status and the sentence the page shows. */
function refuse(response: ServerResponse, status: number, kind: string, message: string): void {
  json(response, status, { ok: false, error: { kind, message } });
}

/** Static files up to this size are read whole (all of the built renderer's are). */
const WHOLE_FILE_BYTES = 1024 * 1024;

export class WebRequests {
  /** Set once the server listens: the host name and origin requests must name. */
  origin = '';
  readonly streams = new Set<ServerResponse>();
  readonly codes = new OneTimeCodes();
  private uploadsInFlight = 0;
  private callsInFlight = 0;

  constructor(
    /** The session the calls go to; while it opens, the page loads and its calls wait. */
    private readonly session: Promise<Session>,
    readonly token: string,
    private readonly staticDir: string | null,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    if (!this.fromOurOwnPage(request, response)) return;
    if (url.pathname === '/api/session' && request.method === 'POST')
      return this.tradeCode(request, response);
    if (url.pathname.startsWith('/api/')) return this.api(request, response, url);
    if (request.method !== 'GET') return refuse(response, 405, 'not_allowed', 'Only GET here');
    this.serveFile(request, response, url);
  }

  /** Only our own host name and origin: a page elsewhere cannot drive the core. */
  private fromOurOwnPage(request: IncomingMessage, response: ServerResponse): boolean {
    const ours = new URL(this.origin);
    const allowedHosts = [ours.host, `localhost:${ours.port}`];
    if (!allowedHosts.includes(request.headers.host ?? '')) {
      refuse(response, 403, 'not_allowed', 'Unknown host');
      return false;
    }
    const from = request.headers.origin;
    if (from !== undefined && !allowedHosts.map((host) => `http://${host}`).includes(from)) {
      refuse(response, 403, 'not_allowed', 'Requests from other sites are refused');
      return false;
    }
    return true;
  }

  private async tradeCode(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { code } = (await readJson(request, 1024)) as { code?: unknown };
    if (!this.codes.trade(code))
      return refuse(
        response,
        401,
        'not_allowed',
        'This link was used already; open Pressroom again',
      );
    json(response, 200, { ok: true, value: { token: this.token } });
  }

  private async api(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const events = url.pathname === '/api/events' && request.method === 'GET';
    // EventSource cannot send headers, so the event stream alone takes the token in its query.
    const bearer =
      /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ??
      (events ? url.searchParams.get('token') : null);
    if (!sameSecret(bearer, this.token))
      return refuse(
        response,
        401,
        'not_allowed',
        'Open Pressroom from the link the server printed',
      );
    if (url.pathname === '/api/upload' && request.method === 'POST')
      return this.upload(request, response, url);
    const call = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
    if (call?.[1] && request.method === 'POST') return this.call(request, response, call[1]);
    if (events) return this.openEventStream(request, response);
    refuse(response, 404, 'unknown_operation', `Nothing at ${url.pathname}`);
  }

  private async upload(request: IncomingMessage, response: ServerResponse, url: URL) {
    if (!/^application\/octet-stream\b/.test(request.headers['content-type'] ?? ''))
      return refuse(response, 415, 'invalid_input', 'Send the file as application/octet-stream');
    if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES)
      throw new TooLarge(MAX_UPLOAD_BYTES);
    return this.withUploadSlot(response, async () => {
      // Streamed into a private file as it arrives: the host never holds the file whole.
      const name = url.searchParams.get('name');
      const { receiveUpload } = await operations();
      const received = await receiveUpload(await this.session, name, request);
      // Refused midway (over the limit), the rest of the body is not read.
      if (!received.ok) response.setHeader('Connection', 'close');
      json(response, 200, received);
    });
  }

  private async call(request: IncomingMessage, response: ServerResponse, operation: string) {
    if (this.callsInFlight >= MAX_CALLS_IN_FLIGHT)
      return tooMany(response, 'Pressroom is answering too many calls at once; try again');
    this.callsInFlight++;
    response.once('close', () => this.callsInFlight--);
    if (!/^application\/json\b/.test(request.headers['content-type'] ?? ''))
      return refuse(response, 415, 'invalid_input', 'Send JSON');
    if (!UPLOAD_OPERATIONS.has(operation)) {
      const input = await readJson(request, MAX_BODY);
      return json(response, 200, await this.invoke(operation, input));
    }
    return this.withUploadSlot(response, async () => {
      const input = await readJson(request, MAX_UPLOAD_BODY);
      json(response, 200, await this.invoke(operation, input));
    });
  }

  private async invoke(operation: string, input: unknown) {
    const { invokeFromRenderer } = await operations();
    return invokeFromRenderer(await this.session, operation, input);
  }

  /** Runs an upload while fewer than MAX_UPLOADS_IN_FLIGHT are; otherwise answers 429. */
  private async withUploadSlot(response: ServerResponse, upload: () => Promise<void>) {
    if (this.uploadsInFlight >= MAX_UPLOADS_IN_FLIGHT) {
      response.setHeader('Connection', 'close');
      return tooMany(
        response,
        `${MAX_UPLOADS_IN_FLIGHT} files are already being uploaded; try again when one is done`,
      );
    }
    this.uploadsInFlight++;
    try {
      await upload();
    } finally {
      this.uploadsInFlight--;
    }
  }

  private openEventStream(request: IncomingMessage, response: ServerResponse): void {
    if (this.streams.size >= MAX_EVENT_STREAMS)
      return tooMany(response, `${MAX_EVENT_STREAMS} event streams are open already`);
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write(': connected\n\n');
    this.streams.add(response);
    request.on('close', () => this.streams.delete(response));
  }

  private serveFile(request: IncomingMessage, response: ServerResponse, url: URL): void {
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = this.staticDir ? fileInside(this.staticDir, path) : null;
    if (file === null || !existsSync(file) || !statSync(file).isFile()) {
      if (path !== '/index.html')
        return refuse(response, 404, 'unknown_operation', `Nothing at ${url.pathname}`);
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
    const sent = encodedFile(file, request.headers['accept-encoding']);
    const size = statSync(sent.path).size;
    response.writeHead(200, {
      'Content-Type': contentTypeOf(file),
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
      ...(sent.encoding ? { 'Content-Encoding': sent.encoding } : {}),
      'Content-Length': size,
    });
    // The page's files are small: read whole in one call, as a stream's open, reads and close
    // would each wait their turn while `serve` opens the session after printing its URL.
    if (size <= WHOLE_FILE_BYTES) response.end(readFileSync(sent.path));
    else createReadStream(sent.path).pipe(response);
  }
}
