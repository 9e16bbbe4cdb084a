// The web host (Node): the renderer and the core's contract over HTTP, on 127.0.0.1 only. Calls
// need the session token handed over in the printed URL's fragment (never sent in a request line,
// so never in a log), or traded once for the one-time code of a URL opened in the browser (a
// browser's command line is visible to every user of the computer); requests from another origin
// or for another host name are refused, which also stops DNS-rebinding pages.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Session } from '../core/session';
import { FirstCall } from './first-page';
import { answerFailure, WebRequests } from './web-requests';

export { CONTENT_SECURITY_POLICY } from './web-requests';

export interface WebHostOptions {
  /**
   * The session, or how to open it: opened once the host listens, so the page loads while the
   * workspace opens and its first sync runs; its calls wait for it.
   */
  session: Session | (() => Promise<Session>);
  port?: number;
  /** The built renderer; when it is missing, the page says how to build it. */
  staticDir?: string;
  /** How long a request's body may take to arrive (default 60 s; tests shorten it). */
  bodyTimeoutMs?: number;
  /**
   * How long the session's opening may wait for a page's first call (first-page.ts): for
   * `serve`, whose printed URL a browser opens at once. Unset: it opens at once.
   */
  pageFirstMs?: number;
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
  /** The session once open; rejected when it could not be opened. */
  session: Promise<Session>;
  close(): Promise<void>;
}

/**
 * An event stream this far behind its reader (a stalled tab, a client that stopped reading) is
 * closed rather than held in memory: a big import's publishing sends an event per item. A page
 * that still lives reconnects, as EventSource does after any break.
 */
const MAX_STREAM_BACKLOG = 1024 * 1024;

/** The whole of a request (an upload's body included) must arrive within this (Node's 408). */
const BODY_TIMEOUT_MS = 60_000;

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = randomBytes(24).toString('base64url');
  const staticDir = options.staticDir ? resolve(options.staticDir) : null;
  let opened!: (session: Session | Promise<Session>) => void;
  const session = new Promise<Session>((resolveSession) => (opened = resolveSession));
  const requests = new WebRequests(session, token, staticDir);
  let unsubscribe = () => {};
  let closed = false;
  // A failure to open is the opener's to report (host.session); each call answers it too.
  session.then(
    (open) => {
      if (closed) return;
      unsubscribe = open.subscribe((event) => {
        const line = `data: ${JSON.stringify(event)}\n\n`;
        for (const stream of requests.streams) {
          if (stream.writableLength <= MAX_STREAM_BACKLOG) stream.write(line);
          else {
            requests.streams.delete(stream);
            stream.destroy();
          }
        }
      });
    },
    () => {},
  );

  const requestTimeout = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  // Node checks requestTimeout on this interval; its default (30 s) would stretch a short limit.
  const timeouts = { requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout) };
  const firstCall = options.pageFirstMs ? new FirstCall(options.pageFirstMs) : null;
  const server = createServer(timeouts, (request, response) => {
    if (request.url?.startsWith('/api/')) firstCall?.done();
    requests
      .handle(request, response)
      .catch((error: unknown) => answerFailure(request, response, error));
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  requests.origin = origin;
  const open = options.session;
  const pageReady = firstCall?.ready ?? Promise.resolve();
  opened(typeof open === 'function' ? pageReady.then(open) : open);
  return {
    url: `${origin}/#token=${token}`,
    oneTimeUrl: () => `${origin}/#code=${requests.codes.issue()}`,
    origin,
    token,
    session,
    close: async () => {
      closed = true;
      firstCall?.done();
      unsubscribe();
      for (const stream of requests.streams) stream.end();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}
