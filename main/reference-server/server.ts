// The reference server of Platform API v1 (Node, main process): the demo workspace and the
// platform every test talks to. One node:http server over the request pipeline (requests.ts),
// with the parts tests and the admin API reach: store, clock, faults, limiter, quirks.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../platform/wire';
import type { Plan } from '../platform/wire';
import { AiRouter } from './ai';
import { DEFAULT_CONVENTIONS } from './conventions';
import type { Conventions } from './conventions';
import { DEFAULT_QUIRKS } from './quirks';
import type { Quirks } from './quirks';
import { openReferenceServerDb } from './db';
import { errorReply } from './error-replies';
import { EventSource, startDemoActivity } from './events';
import { seededRandom } from './random';
import { FixedWindowLimiter } from './rate-limiter';
import type { RateHeaderStyle } from './rate-limiter';
import { RequestPipeline } from './requests';
import { seedDemo } from './seed';
import { emptyStats, noFaults } from './server-state';
import type { Faults, ServerClock, ServerStats } from './server-state';
import { ReferenceServerStore } from './store';
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
  store: ReferenceServerStore;
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
  const db = openReferenceServerDb(options.dbFile);
  const store = new ReferenceServerStore(db, now);
  // Requests cut off mid-way by a stop never finished; their keys must not block retries.
  db.prepare('DELETE FROM idempotency WHERE status IS NULL').run();
  const accountId = openDefaultAccount(store, options, random, now());
  const parts = serverParts(store, options, random, clock);

  const purge = setInterval(() => store.idempotency.purge(now() - IDEMPOTENCY_TTL_MS), 3_600_000);
  purge.unref();
  const stopActivity = options.demoActivityMs
    ? startDemoActivity(parts.events, store, random, options.demoActivityMs)
    : null;

  const self: PlatformServer = {
    baseUrl: '',
    origin: '',
    token: store.accounts.mintToken(accountId),
    adminToken: options.admin ? `adm_${randomBytes(24).toString('base64url')}` : null,
    accountId,
    store,
    ...parts,
    close: async () => {
      clearInterval(purge);
      stopActivity?.();
      await parts.webhooks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      db.close();
    },
  };
  const conventions: Conventions = { ...DEFAULT_CONVENTIONS, ...options.conventions };
  const { rateHeaders, mediaFolder } = options;
  const pipeline = new RequestPipeline(self, { random, conventions, rateHeaders, mediaFolder });
  const server = await listen(pipeline, options);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  self.origin = `http://${host}:${address.port}`;
  self.baseUrl = `${self.origin}${API_PREFIX}`;
  return self;
}

/** The account the server starts with: made (and seeded) on a new database, else the first. */
function openDefaultAccount(
  store: ReferenceServerStore,
  options: PlatformServerOptions,
  random: () => number,
  now: number,
): number {
  const plan = options.plan ?? 'free';
  let accountId = store.accounts.all()[0]?.id;
  if (accountId === undefined) {
    accountId = store.accounts.createAccount('Demo workspace', plan);
    if (options.seed === 'demo') seedDemo(store, accountId, random, now);
  } else {
    store.accounts.updateAccount(accountId, { plan });
  }
  if (options.rateLimit !== undefined)
    store.accounts.updateAccount(accountId, { rateLimit: options.rateLimit });
  return accountId;
}

/** The server's working parts that tests and the admin API reach through PlatformServer. */
function serverParts(
  store: ReferenceServerStore,
  options: PlatformServerOptions,
  random: () => number,
  clock: ServerClock,
) {
  const now = () => clock.now();
  const timeScale = options.timeScale ?? 1;
  const webhooks = new WebhookDispatcher({
    timeScale,
    random,
    now,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    onGone: (subscriptionId) =>
      store.webhooks.deactivateWebhook(Number(subscriptionId.slice('wh_'.length))),
  });
  return {
    ai: new AiRouter({ now, random, timeScale }),
    webhooks,
    events: new EventSource(store, webhooks, random, now),
    limiter: new FixedWindowLimiter(options.windowMs ?? 60_000, now),
    faults: noFaults(),
    stats: emptyStats(),
    clock,
    quirks: { ...DEFAULT_QUIRKS, ...options.quirks } satisfies Quirks,
  };
}

/** One node:http server over the pipeline, each request numbered for its answer's request id. */
async function listen(pipeline: RequestPipeline, options: PlatformServerOptions): Promise<Server> {
  const requestPrefix = randomBytes(3).toString('hex');
  let requestCount = 0;
  const server = createServer((request, response) => {
    const requestId = `req_${requestPrefix}${(++requestCount).toString(36)}`;
    pipeline.handle(request, response, requestId).catch((error: unknown) => {
      pipeline.send(response, errorReply(error, requestId));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  return server;
}
