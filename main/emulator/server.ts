// The reference server of Platform API v1 (Node, main process): the demo workspace and the
// platform every test talks to. One node:http server; requests pass authentication, the rate
// limit, fault injection and idempotency before reaching their handler in routes.ts.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_PREFIX, PLANS } from '../platform/wire';
import type { Plan } from '../platform/wire';
import { adminRoutes } from './admin';
import type { AdminContext } from './admin';
import { AiRouter } from './ai';
import {
  DEFAULT_CONVENTIONS,
  inboundQuery,
  inboundText,
  isDefault,
  outboundReply,
} from './conventions';
import type { Conventions } from './conventions';
import { DEFAULT_QUIRKS, quirkyBody, quirkyQuery, quirkyReply } from './quirks';
import type { Quirks } from './quirks';
import { hashToken } from './data/accounts';
import type { AccountRow } from './data/accounts';
import { openEmulatorDb } from './db';
import { errorReply, rateLimitedReply, replyOf } from './error-replies';
import { EventSource, startDemoActivity } from './events';
import { HttpError, matchRoute, parseJson, readBody } from './http';
import type { Reply } from './http';
import { idempotent } from './idempotency';
import { DEMO_MEDIA_PATH, serveDemoMedia } from './demo-media';
import { openApiDocument, OPENAPI_PATH } from './openapi';
import { seededRandom } from './random';
import { FixedWindowLimiter } from './rate-limiter';
import type { RateHeaderStyle } from './rate-limiter';
import { apiRoutes } from './routes';
import type { ApiContext } from './routes';
import { seedDemo } from './seed';
import { emptyStats, noFaults } from './server-state';
import type { Faults, OddAnswer, ServerClock, ServerStats } from './server-state';
import { EmulatorStore } from './store';
import { WebhookDispatcher } from './webhooks';

export interface PlatformServerOptions {
  port?: number;
  host?: string;
  /** SQLite file of the server's data; memory when absent. */
  dbFile?: string;
  /** Plan of the default account. */
  plan?: Plan;
  /** Rate-limit window; one minute on the platform, shorter in tests. */
  windowMs?: number;
  /** Requests per window of the default account, instead of its plan's (e.g. below it). */
  rateLimit?: number;
  /** How the rate-limit headers are written (Limit sent or not, the Reset's form). */
  rateHeaders?: RateHeaderStyle;
  /** The server's clock runs this far ahead of the machine's (negative: behind). */
  clockOffsetMs?: number;
  /** Serves the admin API under /admin/v1 (seed, events, faults), behind its own token. */
  admin?: boolean;
  seed?: 'demo' | 'none';
  /** Multiplies the server's own delays (AI latency, provider cool-down, webhook retries). */
  timeScale?: number;
  /** How often the demo raises an event on its own; 0 or absent: never. */
  demoActivityMs?: number;
  /** The demo's web space: pictures in this folder are served under /demo-media/. */
  mediaFolder?: string;
  now?: () => number;
  randomSeed?: number;
  /** Used to deliver webhooks. */
  fetch?: typeof fetch;
  /** Other platforms' answer shapes (conventions.ts); docs/platform-api.md's when absent. */
  conventions?: Partial<Conventions>;
  /** Servers that read the spec literally or their own way (quirks.ts); none when absent. */
  quirks?: Partial<Quirks>;
}

export interface PlatformServer {
  /** Ends in /api/v1. */
  baseUrl: string;
  origin: string;
  /** A token of the default account, minted at start. */
  token: string;
  adminToken: string | null;
  accountId: number;
  store: EmulatorStore;
  ai: AiRouter;
  events: EventSource;
  webhooks: WebhookDispatcher;
  faults: Faults;
  stats: ServerStats;
  limiter: FixedWindowLimiter;
  clock: ServerClock;
  /** Changed in place by the admin API. */
  quirks: Quirks;
  close(): Promise<void>;
}

const WRITE_METHODS = new Set(['POST', 'PATCH', 'DELETE']);
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export async function startPlatformServer(
  options: PlatformServerOptions = {},
): Promise<PlatformServer> {
  const baseNow = options.now ?? Date.now;
  const clock: ServerClock = {
    offsetMs: options.clockOffsetMs ?? 0,
    now: () => baseNow() + clock.offsetMs,
  };
  const now = () => clock.now();
  const random = seededRandom(options.randomSeed ?? (randomBytes(4).readUInt32LE() || 1));
  const timeScale = options.timeScale ?? 1;
  const db = openEmulatorDb(options.dbFile);
  const store = new EmulatorStore(db, now);
  // Requests cut off mid-way by a stop never finished; their keys must not block retries.
  db.prepare('DELETE FROM idempotency WHERE status IS NULL').run();

  const plan = options.plan ?? 'free';
  let accountId = store.accounts.all()[0]?.id;
  if (accountId === undefined) {
    accountId = store.accounts.createAccount('Demo workspace', plan);
    if (options.seed === 'demo') seedDemo(store, accountId, random, now());
  } else {
    store.accounts.updateAccount(accountId, { plan });
  }
  if (options.rateLimit !== undefined)
    store.accounts.updateAccount(accountId, { rateLimit: options.rateLimit });
  const token = store.accounts.mintToken(accountId);
  const adminToken = options.admin ? `adm_${randomBytes(24).toString('base64url')}` : null;

  const ai = new AiRouter({ now, random, timeScale });
  const webhooks = new WebhookDispatcher({
    timeScale,
    random,
    now,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    onGone: (subscriptionId) =>
      store.webhooks.deactivateWebhook(Number(subscriptionId.slice('wh_'.length))),
  });
  const events = new EventSource(store, webhooks, random, now);
  const limiter = new FixedWindowLimiter(options.windowMs ?? 60_000, now);
  const faults = noFaults();
  const stats = emptyStats();
  const conventions: Conventions = { ...DEFAULT_CONVENTIONS, ...options.conventions };
  const quirks: Quirks = { ...DEFAULT_QUIRKS, ...options.quirks };
  const requestPrefix = randomBytes(3).toString('hex');
  let openapi: unknown;
  let requestCount = 0;

  const purge = setInterval(() => store.idempotency.purge(now() - IDEMPOTENCY_TTL_MS), 3_600_000);
  purge.unref();
  const stopActivity = options.demoActivityMs
    ? startDemoActivity(events, store, random, options.demoActivityMs)
    : null;

  const server = createServer((request, response) => {
    const requestId = `req_${requestPrefix}${(++requestCount).toString(36)}`;
    handle(request, response, requestId).catch((error: unknown) => {
      send(response, errorReply(error, requestId));
    });
  });
  server.keepAliveTimeout = 30_000;

  const self: PlatformServer = {
    baseUrl: '',
    origin: '',
    token,
    adminToken,
    accountId,
    store,
    ai,
    events,
    webhooks,
    faults,
    stats,
    limiter,
    clock,
    quirks,
    close: async () => {
      clearInterval(purge);
      stopActivity?.();
      await webhooks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      db.close();
    },
  };

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
  ): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://platform.invalid');
    const method = request.method ?? 'GET';
    const conventional = !isDefault(conventions) && url.pathname.startsWith(`${API_PREFIX}/`);
    if (conventional) {
      inboundQuery(conventions, url.searchParams);
      url.pathname = inboundText(conventions, url.pathname);
    }
    if (adminToken && url.pathname.startsWith('/admin/v1/')) {
      return handleAdmin(request, response, url, method, requestId);
    }
    if (method === 'GET' && options.mediaFolder && url.pathname.startsWith(DEMO_MEDIA_PATH)) {
      return serveDemoMedia(options.mediaFolder, url.pathname, response);
    }
    // The API's own description is public: a client generator needs no account.
    if (method === 'GET' && url.pathname === OPENAPI_PATH) {
      openapi ??= openApiDocument(self.baseUrl);
      return send(response, { status: 200, body: openapi });
    }
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
      return send(
        response,
        errorReply(new HttpError(404, 'not_found', `Nothing at ${url.pathname}`), requestId),
      );
    }
    const account = authenticate(request.headers.authorization);
    const limit = account.rate_limit ?? PLANS[account.plan];
    const decision = limiter.take(hashToken(bearer(request.headers.authorization) ?? ''), limit);
    const rateHeaders = FixedWindowLimiter.headers(decision, now(), options.rateHeaders);
    if (!decision.allowed) {
      stats.rateLimited++;
      return send(response, rateLimitedReply(decision, now(), requestId), rateHeaders);
    }
    stats.requests++;
    const handled = await replyOf(requestId, async () => {
      if (account.suspended) throw new HttpError(403, 'forbidden', 'This account is suspended');
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);
      if (faults.errorRate > 0 && random() < faults.errorRate) {
        stats.injectedErrors++;
        throw new HttpError(503, 'service_unavailable', 'The service is briefly unavailable');
      }
      return handleApi(request, url, method, account);
    });
    const quirky = quirkyReply(quirks, handled);
    const shaped = conventional ? outboundReply(conventions, quirky, url) : quirky;
    const reply = { ...shaped, headers: { ...shaped.headers, ...rateHeaders } };
    const committedWrite = WRITE_METHODS.has(method) && reply.status < 300;
    if (committedWrite && faults.dropAfterCommitRate > 0 && random() < faults.dropAfterCommitRate) {
      stats.droppedAfterCommit++;
      request.socket.destroy();
      return;
    }
    if (committedWrite && faults.oddAnswerRate > 0 && random() < faults.oddAnswerRate) {
      stats.oddAfterCommit++;
      sendOddly(response, reply, faults.oddAnswer, url.pathname);
      return;
    }
    send(response, reply);
  }

  async function handleApi(
    request: IncomingMessage,
    url: URL,
    method: string,
    account: AccountRow,
  ): Promise<Reply> {
    const match = matchRoute(apiRoutes, method, url.pathname.slice(API_PREFIX.length));
    if (match.kind === 'none') throw new HttpError(404, 'not_found', `Nothing at ${url.pathname}`);
    if (match.kind === 'wrong_method') {
      throw new HttpError(
        405,
        'method_not_allowed',
        `${method} is not allowed on ${url.pathname}`,
        undefined,
        {},
        {
          Allow: match.allow.join(', '),
        },
      );
    }
    const raw = WRITE_METHODS.has(method)
      ? quirkyBody(quirks, inboundText(conventions, await readBody(request)))
      : '';
    const run = () => {
      const query = new URLSearchParams(url.searchParams);
      if (faults.ignoreReferenceFilter) query.delete('client_reference');
      quirkyQuery(quirks, query);
      const context: ApiContext = {
        account,
        store,
        ai,
        now,
        query,
        body: parseJson(raw),
      };
      return match.route.handler(context, match.params);
    };
    const key = request.headers['idempotency-key'];
    const keyIgnored = faults.ignoreIdempotency || quirks.specLiteral;
    if (typeof key !== 'string' || !WRITE_METHODS.has(method) || keyIgnored) return run();
    return idempotent(
      store.idempotency,
      account.id,
      key,
      createHash('sha256').update(`${method} ${url.pathname}\n${raw}`).digest('hex'),
      run,
    );
  }

  function authenticate(header: string | undefined): AccountRow {
    const token = bearer(header);
    const account = token ? store.accounts.accountForTokenHash(hashToken(token)) : undefined;
    if (!account) {
      throw new HttpError(
        401,
        'unauthorized',
        token
          ? 'The API token is not valid'
          : 'Send an API token in the Authorization header: Bearer <token>',
        undefined,
        {},
        { 'WWW-Authenticate': 'Bearer realm="api"' },
      );
    }
    return account;
  }

  async function handleAdmin(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    method: string,
    requestId: string,
  ): Promise<void> {
    const reply = await replyOf(requestId, async () => {
      if (!sameToken(bearer(request.headers.authorization), adminToken)) {
        throw new HttpError(401, 'unauthorized', 'The admin API needs the admin token');
      }
      const match = matchRoute<AdminContext>(
        adminRoutes,
        method,
        url.pathname.slice('/admin/v1'.length),
      );
      if (match.kind !== 'found')
        throw new HttpError(404, 'not_found', `Nothing at ${url.pathname}`);
      const body = parseJson(
        WRITE_METHODS.has(method) || method === 'PUT' ? await readBody(request) : '',
      );
      return match.route.handler(
        { server: self, random, body, query: url.searchParams },
        match.params,
      );
    });
    send(response, reply);
  }

  function send(
    response: ServerResponse,
    reply: Reply,
    extraHeaders: Record<string, string> = {},
  ): void {
    if (response.headersSent || response.destroyed) return;
    const key = String(reply.status);
    stats.byStatus[key] = (stats.byStatus[key] ?? 0) + 1;
    // Date from the server's own clock (node:http would write the machine's).
    const headers = { Date: new Date(now()).toUTCString(), ...reply.headers, ...extraHeaders };
    if (reply.status === 204 || (reply.body === undefined && reply.text === undefined)) {
      response.writeHead(reply.status, headers).end();
      return;
    }
    const payload = reply.text ?? JSON.stringify(reply.body);
    response
      .writeHead(reply.status, {
        ...headers,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(payload),
      })
      .end(payload);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  self.origin = `http://${host}:${address.port}`;
  self.baseUrl = `${self.origin}${API_PREFIX}`;
  return self;
}

/** A committed write's answer as a proxy or a lax platform may give it (Faults.oddAnswer). */
function sendOddly(response: ServerResponse, reply: Reply, how: OddAnswer, path: string): void {
  const created = reply.body as { id?: unknown } | undefined;
  const payload = JSON.stringify(reply.body ?? null);
  switch (how) {
    case 'no_content':
      response.writeHead(204, reply.headers).end();
      return;
    case 'location_only':
      response
        .writeHead(201, { ...reply.headers, Location: `${path}/${String(created?.id ?? '')}` })
        .end();
      return;
    case 'truncated':
      response
        .writeHead(reply.status, {
          ...reply.headers,
          'Content-Type': 'application/json; charset=utf-8',
        })
        .end(payload.slice(0, Math.floor(payload.length / 2)));
      return;
    case 'html_502':
      response
        .writeHead(502, { 'Content-Type': 'text/html' })
        .end(
          '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        );
      return;
    case 'empty_500':
      response.writeHead(500).end();
      return;
  }
}

/**
 * Whether `given` is the admin token, in constant time: both are hashed first, so the comparison
 * takes as long whatever their lengths and however much of the token was right.
 */
function sameToken(given: string | null, token: string | null): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return given !== null && token !== null && timingSafeEqual(digest(given), digest(token));
}

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
