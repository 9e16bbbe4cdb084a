// The reference server's request pipeline (Node): every request passes the conventions'
// translation, authentication, the rate limit, fault injection and idempotency before reaching
// its handler in routes.ts (or admin.ts), and every answer leaves through `send`, dated by the
// server's own clock.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_PREFIX, PLANS } from '../platform/wire';
import { adminRoutes } from './admin';
import type { AdminContext, AdminTarget } from './admin';
import { inboundQuery, inboundText, isDefault, outboundReply } from './conventions';
import type { Conventions } from './conventions';
import { quirkyBody, quirkyQuery, quirkyReply } from './quirks';
import { hashToken } from './data/accounts';
import type { AccountRow } from './data/accounts';
import { DEMO_MEDIA_PATH, serveDemoMedia } from './demo-media';
import { errorReply, rateLimitedReply, replyOf } from './error-replies';
import { HttpError, matchRoute, parseJson, readBody } from './http';
import type { Reply } from './http';
import { idempotent } from './idempotency';
import { openApiDocument, OPENAPI_PATH } from './openapi';
import { FixedWindowLimiter } from './rate-limiter';
import type { RateHeaderStyle } from './rate-limiter';
import { apiRoutes } from './routes';
import type { ApiContext } from './routes';
import type { OddAnswer } from './server-state';

const WRITE_METHODS = new Set(['POST', 'PATCH', 'DELETE']);

/** The server's parts the pipeline works on (PlatformServer, without importing the server). */
export interface PipelineTarget extends AdminTarget {
  adminToken: string | null;
  /** Read when the OpenAPI document is first asked for, once the server listens. */
  baseUrl: string;
}

/** What the pipeline needs beside the server's parts: the start options it honours. */
export interface PipelineSettings {
  random: () => number;
  conventions: Conventions;
  rateHeaders?: RateHeaderStyle | undefined;
  mediaFolder?: string | undefined;
}

export class RequestPipeline {
  private openapi: unknown;

  constructor(
    private readonly server: PipelineTarget,
    private readonly settings: PipelineSettings,
  ) {}

  private now(): number {
    return this.server.clock.now();
  }

  async handle(request: IncomingMessage, response: ServerResponse, requestId: string) {
    const { server, settings } = this;
    const url = new URL(request.url ?? '/', 'http://platform.invalid');
    const method = request.method ?? 'GET';
    const conventional =
      !isDefault(settings.conventions) && url.pathname.startsWith(`${API_PREFIX}/`);
    if (conventional) {
      inboundQuery(settings.conventions, url.searchParams);
      url.pathname = inboundText(settings.conventions, url.pathname);
    }
    if (server.adminToken && url.pathname.startsWith('/admin/v1/'))
      return this.handleAdmin(request, response, url, method, requestId);
    if (method === 'GET' && settings.mediaFolder && url.pathname.startsWith(DEMO_MEDIA_PATH))
      return serveDemoMedia(settings.mediaFolder, url.pathname, response);
    // The API's own description is public: a client generator needs no account.
    if (method === 'GET' && url.pathname === OPENAPI_PATH) {
      this.openapi ??= openApiDocument(server.baseUrl);
      return this.send(response, { status: 200, body: this.openapi });
    }
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
      const missing = new HttpError(404, 'not_found', `Nothing at ${url.pathname}`);
      return this.send(response, errorReply(missing, requestId));
    }
    const rated = this.rateLimited(request, requestId);
    if (rated.refused) return this.send(response, rated.refused, rated.headers);
    const handled = await replyOf(requestId, () =>
      this.answer(request, url, method, rated.account),
    );
    const quirky = quirkyReply(server.quirks, handled);
    const shaped = conventional ? outboundReply(settings.conventions, quirky, url) : quirky;
    const reply = { ...shaped, headers: { ...shaped.headers, ...rated.headers } };
    this.deliver(request, response, method, url.pathname, reply);
  }

  /** Authenticates the caller and takes its rate slot: the refusal to send when it has none. */
  private rateLimited(
    request: IncomingMessage,
    requestId: string,
  ): { account: AccountRow; headers: Record<string, string>; refused?: Reply } {
    const { server } = this;
    const account = this.authenticate(request.headers.authorization);
    const limit = account.rate_limit ?? PLANS[account.plan];
    const caller = hashToken(bearer(request.headers.authorization) ?? '');
    const decision = server.limiter.take(caller, limit);
    const headers = FixedWindowLimiter.headers(decision, this.now(), this.settings.rateHeaders);
    if (decision.allowed) {
      server.stats.requests++;
      return { account, headers };
    }
    server.stats.rateLimited++;
    return { account, headers, refused: rateLimitedReply(decision, this.now(), requestId) };
  }

  /** The account's state and the injected faults first, then the route. */
  private async answer(
    request: IncomingMessage,
    url: URL,
    method: string,
    account: AccountRow,
  ): Promise<Reply> {
    const { faults, stats } = this.server;
    if (account.suspended) throw new HttpError(403, 'forbidden', 'This account is suspended');
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (faults.errorRate > 0 && this.settings.random() < faults.errorRate) {
      stats.injectedErrors++;
      throw new HttpError(503, 'service_unavailable', 'The service is briefly unavailable');
    }
    return this.handleApi(request, url, method, account);
  }

  /** Sends the answer, unless a fault drops or garbles a committed write's. */
  private deliver(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    path: string,
    reply: Reply,
  ): void {
    const { faults, stats } = this.server;
    const random = this.settings.random;
    const committedWrite = WRITE_METHODS.has(method) && reply.status < 300;
    if (committedWrite && faults.dropAfterCommitRate > 0 && random() < faults.dropAfterCommitRate) {
      stats.droppedAfterCommit++;
      request.socket.destroy();
      return;
    }
    if (committedWrite && faults.oddAnswerRate > 0 && random() < faults.oddAnswerRate) {
      stats.oddAfterCommit++;
      sendOddly(response, reply, faults.oddAnswer, path);
      return;
    }
    this.send(response, reply);
  }

  private async handleApi(
    request: IncomingMessage,
    url: URL,
    method: string,
    account: AccountRow,
  ): Promise<Reply> {
    const { server, settings } = this;
    const match = matchRoute(apiRoutes, method, url.pathname.slice(API_PREFIX.length));
    if (match.kind === 'none') throw new HttpError(404, 'not_found', `Nothing at ${url.pathname}`);
    if (match.kind === 'wrong_method') {
      const allow = { Allow: match.allow.join(', ') };
      const message = `${method} is not allowed on ${url.pathname}`;
      throw new HttpError(405, 'method_not_allowed', message, undefined, {}, allow);
    }
    const raw = WRITE_METHODS.has(method)
      ? quirkyBody(server.quirks, inboundText(settings.conventions, await readBody(request)))
      : '';
    const run = () => {
      const query = new URLSearchParams(url.searchParams);
      if (server.faults.ignoreReferenceFilter) query.delete('client_reference');
      quirkyQuery(server.quirks, query);
      const { store, ai } = server;
      const now = () => this.now();
      const context: ApiContext = { account, store, ai, now, query, body: parseJson(raw) };
      return match.route.handler(context, match.params);
    };
    const key = request.headers['idempotency-key'];
    const keyIgnored = server.faults.ignoreIdempotency || server.quirks.specLiteral;
    if (typeof key !== 'string' || !WRITE_METHODS.has(method) || keyIgnored) return run();
    const fingerprint = createHash('sha256').update(`${method} ${url.pathname}\n${raw}`);
    return idempotent(server.store.idempotency, account.id, key, fingerprint.digest('hex'), run);
  }

  private authenticate(header: string | undefined): AccountRow {
    const token = bearer(header);
    const account = token
      ? this.server.store.accounts.accountForTokenHash(hashToken(token))
      : undefined;
    if (account) return account;
    const message = token
      ? 'The API token is not valid'
      : 'Send an API token in the Authorization header: Bearer <token>';
    const challenge = { 'WWW-Authenticate': 'Bearer realm="api"' };
    throw new HttpError(401, 'unauthorized', message, undefined, {}, challenge);
  }

  private async handleAdmin(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    method: string,
    requestId: string,
  ): Promise<void> {
    const reply = await replyOf(requestId, async () => {
      if (!sameToken(bearer(request.headers.authorization), this.server.adminToken)) {
        throw new HttpError(401, 'unauthorized', 'The admin API needs the admin token');
      }
      const path = url.pathname.slice('/admin/v1'.length);
      const match = matchRoute<AdminContext>(adminRoutes, method, path);
      if (match.kind !== 'found')
        throw new HttpError(404, 'not_found', `Nothing at ${url.pathname}`);
      const hasBody = WRITE_METHODS.has(method) || method === 'PUT';
      const body = parseJson(hasBody ? await readBody(request) : '');
      const context = { server: this.server, random: this.settings.random, body };
      return match.route.handler({ ...context, query: url.searchParams }, match.params);
    });
    this.send(response, reply);
  }

  send(response: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
    if (response.headersSent || response.destroyed) return;
    const key = String(reply.status);
    const stats = this.server.stats;
    stats.byStatus[key] = (stats.byStatus[key] ?? 0) + 1;
    // Date from the server's own clock (node:http would write the machine's).
    const headers = {
      Date: new Date(this.now()).toUTCString(),
      ...reply.headers,
      ...extraHeaders,
    };
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
    case 'cut_off': {
      // Half the body: the answer ends there (JSON cut short), or its head says the whole
      // length and the connection goes after the half.
      const half = payload.slice(0, Math.floor(payload.length / 2));
      response.writeHead(reply.status, {
        ...reply.headers,
        'Content-Type': 'application/json; charset=utf-8',
        ...(how === 'cut_off' ? { 'Content-Length': Buffer.byteLength(payload) } : {}),
      });
      if (how === 'truncated') response.end(half);
      else response.write(half, () => response.destroy());
      return;
    }
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
