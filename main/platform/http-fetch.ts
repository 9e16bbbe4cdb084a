// The fetch the platform's calls go through (Node, main process): Node's own http and https
// clients behind fetch's shape, which the transport, the probe and the tests share.
// Not fetch itself: undici's fetch keeps each request's abort controller and response behind
// WeakRefs and FinalizationRegistries that only a full collection clears, so every request's
// objects were promoted, and a sync's peak memory grew with its list (176 MB at 400,000 orders).
// Not undici's `request` either, which kept it flat: loading undici took 55-107 ms in one step at
// a process's first request, and about 8 MB. These clients are built into Node and Electron.
// It does what the transport asks of fetch, no more: a method, headers, a text body, a signal,
// redirects followed or handed back, and compressed answers read.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export interface HttpFetchOptions {
  /** Resolves a name at every connection (public-address.ts refuses local ones there). */
  lookup?: LookupFunction;
  /** Why a host given as an address may not be connected to; a name goes through `lookup`. */
  refuseAddress?: (address: string) => Error | null;
}

/** fetch's own limit. */
const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Answers that have no body, which a Response refuses one for. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
/**
 * How long an idle connection is kept for the next request, as undici does. A server's
 * `Keep-Alive: timeout=N` hint shortens it to a second less (Node's agent): a connection is let
 * go before the server says it closes it, where a write would meet a reset and its fate be
 * unknown (the queue then looks it up before sending again).
 */
const IDLE_CONNECTION_MS = 4_000;
/** What a server may send back compressed, as fetch asks. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
/** Lenient about a truncated end, as fetch is. */
const ZLIB_OPTIONS = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
/** Headers that stay with their origin when a redirect leads to another (fetch drops them too). */
const ORIGIN_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** fetch's failure when no answer came: a TypeError caused by what the network said. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** A fetch with keep-alive connections of its own (one pool for http, one for https). */
export function httpFetch(options: HttpFetchOptions = {}): typeof fetch {
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };

  /** One exchange, no redirect followed: the answer's head, its body still to read. */
  function exchange(
    url: URL,
    method: string,
    headers: Headers,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<IncomingMessage> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const refused = isIP(host) !== 0 ? options.refuseAddress?.(host) : null;
    if (refused) return Promise.reject(fetchFailed(refused));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(url, {
        method,
        headers: Object.fromEntries(headers),
        agent: agents[url.protocol as keyof typeof agents],
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(signal ? { signal } : {}),
      });
      request.once('response', resolve);
      // Every error is listened for, a late one too (its body's read sees it), or it would crash.
      request.on('error', (error) =>
        reject(signal?.aborted ? (signal.reason as Error) : fetchFailed(error)),
      );
      request.end(body);
    });
  }

  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    if (input instanceof Request) throw new TypeError('httpFetch takes a URL, not a Request');
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string')
      throw new TypeError('httpFetch sends text bodies only');
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    let url = new URL(input);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body ?? undefined;
    const headers = new Headers(init.headers);
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', ACCEPT_ENCODING);
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw fetchFailed(new Error(`${url.protocol} is not http or https`));
      if (body !== undefined) headers.set('content-length', String(Buffer.byteLength(body)));
      const answer = await exchange(url, method, headers, body, signal);
      const status = answer.statusCode ?? 0;
      const location = answer.headers.location;
      if (!REDIRECT_STATUSES.has(status) || !location || init.redirect === 'manual')
        return responseOf(answer, method);
      answer.resume();
      if (init.redirect === 'error') throw fetchFailed(new Error('unexpected redirect'));
      if (redirects === MAX_REDIRECTS) throw fetchFailed(new Error('redirect count exceeded'));
      const next = new URL(location, url);
      if (next.origin !== url.origin) for (const name of ORIGIN_HEADERS) headers.delete(name);
      // As fetch: a 303 is fetched with GET, and so is a 301 or 302 after a POST.
      if ((status === 303 && method !== 'HEAD') || (status <= 302 && method === 'POST')) {
        method = 'GET';
        body = undefined;
        for (const name of ['content-type', 'content-length']) headers.delete(name);
      }
      url = next;
    }
  }) as typeof fetch;
}

/** The answer as a Response: every header as sent (repeated ones too), its body decompressed. */
function responseOf(answer: IncomingMessage, method: string): Response {
  const headers = new Headers();
  const raw = answer.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [name, value] = [raw[i], raw[i + 1]];
    if (name !== undefined && value !== undefined) headers.append(name, value);
  }
  const status = answer.statusCode ?? 0;
  if (status < 200 || status > 599) {
    answer.resume();
    throw fetchFailed(new Error(`the server answered with status ${status}, which HTTP has not`));
  }
  const empty = method === 'HEAD' || NULL_BODY_STATUSES.has(status);
  if (empty) answer.resume();
  const stream = empty ? null : (Readable.toWeb(decoded(answer)) as WebReadableStream<Uint8Array>);
  return new Response(stream as ReadableStream<Uint8Array> | null, {
    status,
    statusText: answer.statusMessage ?? '',
    headers,
  });
}

/** The body with its content codings undone, last applied first; one not known is left as is. */
function decoded(answer: IncomingMessage): Readable {
  const codings = (answer.headers['content-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  let stream: Readable = answer;
  for (const coding of codings) {
    const decoder =
      coding === 'gzip' || coding === 'x-gzip'
        ? createGunzip(ZLIB_OPTIONS)
        : coding === 'deflate'
          ? createInflate(ZLIB_OPTIONS)
          : coding === 'br'
            ? createBrotliDecompress()
            : null;
    if (!decoder) return stream;
    // A failure on either side ends both, and reaches the body's reader.
    stream = pipeline(stream, decoder, () => undefined);
  }
  return stream;
}

/** The process's platform fetch, for every platform reached without the public-address check. */
export const platformFetch = httpFetch();
