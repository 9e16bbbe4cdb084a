// How a platform speaks (Node, main process): a few read requests, and what their answers show of
// the token, the rate-limit headers, the server's clock, lists, ids and error bodies. For
// `pressroom check` and Settings' connection test; nothing here decides how Pressroom reads.
import { setTimeout as sleep } from 'node:timers/promises';
import { readErrorBody } from './normalize/errors';
import { parseRateLimit, rateLimitFamily } from './rate-limit';
import { platformFetch } from './http-fetch';
import type { ConnectionReport, ErrorShape, PaginationStyle } from '../../shared/connection';
import { ServerClock } from './server-clock';

export interface ProbeOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Between requests, so Date headers are read at different fractions of a second. */
  spacingMs?: number;
}

/** A path that names no resource on any platform, for an error body to look at. */
const MISSING_BOT = '/bots/pressroom-check-0';

interface Seen {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** At most four read requests: two lists (bots, posts), a missing item, and bots again. */
export async function probeConnection(options: ProbeOptions): Promise<ConnectionReport> {
  const clock = new ServerClock();
  const report: ConnectionReport = {
    token: { accepted: false, status: null, message: '' },
    rate_limit: { headers: null, reset: null, skew_ms: null, limit: null, remaining: null },
    lists: { envelope: null, pagination: null },
    ids: null,
    id_types: {},
    errors: { status: null, shape: null },
    requests: 0,
  };
  const get = (path: string) => probeGet(options, clock, report, path);
  const first = await get('/bots?per_page=1');
  if (first.status === 401 || first.status === 403) {
    const said = readErrorBody(first.body, first.text).message;
    report.token = {
      accepted: false,
      status: first.status,
      message: `The platform refused the token (${first.status}${said ? `: ${said}` : ''}).`,
    };
    report.errors = { status: first.status, shape: errorShape(first) };
  } else {
    report.token = {
      accepted: first.status < 400,
      status: first.status,
      message:
        first.status < 400
          ? 'The platform accepted the token.'
          : `The platform answered ${first.status} to a list of bots; is this its API v1 base URL?`,
    };
    await probeShapes(report, first, get);
  }
  // One more answer at another fraction of a second narrows the server's clock further.
  if (report.token.accepted && report.requests < 4) await get('/bots?per_page=1');
  report.rate_limit.skew_ms = clock.known ? clock.skewMs : null;
  return report;
}

/** One GET of the probe: the clock and the rate-limit headers learn from every answer. */
async function probeGet(
  options: ProbeOptions,
  clock: ServerClock,
  report: ConnectionReport,
  path: string,
): Promise<Seen> {
  if (report.requests > 0 && options.spacingMs) await sleep(options.spacingMs);
  report.requests++;
  const sentAtMs = Date.now();
  const send = options.fetch ?? platformFetch;
  const response = await send(options.baseUrl.replace(/\/+$/, '') + path, {
    headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  const receivedAtMs = Date.now();
  const rateLimit = parseRateLimit(response.headers, receivedAtMs);
  const date = response.headers.get('date');
  if (date && !Number.isNaN(Date.parse(date)))
    clock.observe({ serverDateMs: Date.parse(date), sentAtMs, receivedAtMs });
  if (rateLimit) {
    const known = report.rate_limit;
    known.headers ??= rateLimitFamily(response.headers);
    known.reset ??= rateLimit.reset?.format ?? null;
    known.limit = rateLimit.limit ?? known.limit;
    known.remaining = rateLimit.remaining ?? known.remaining;
  }
  let body: unknown;
  try {
    body = text.trim() === '' ? null : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The lists' envelope and paging, each list's id type, and the error shape of a missing bot. */
async function probeShapes(
  report: ConnectionReport,
  first: Seen,
  get: (path: string) => Promise<Seen>,
): Promise<void> {
  // Every list read tells its id type: a platform may number bots and name posts.
  const bots = listShape(first);
  const posts = listShape(await get('/posts?per_page=1'));
  const list = bots ?? posts;
  if (list) {
    const pagination = bots?.pagination ?? posts?.pagination ?? null;
    report.lists = { envelope: list.envelope, pagination };
  }
  for (const [name, shape] of [
    ['bots', bots],
    ['posts', posts],
  ] as const) {
    if (shape?.firstId !== undefined)
      report.id_types[name] = typeof shape.firstId === 'number' ? 'number' : 'string';
  }
  const types = new Set(Object.values(report.id_types));
  report.ids = types.size > 1 ? 'mixed' : ([...types][0] ?? null);
  const missing = await get(MISSING_BOT);
  if (missing.status >= 400) report.errors = { status: missing.status, shape: errorShape(missing) };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ENVELOPES = ['data', 'items', 'results'];

/** Where a list answer keeps its items, how it pages, and its first item's id. */
function listShape(seen: Seen) {
  const { body } = seen;
  let envelope: string | null = null;
  let items: unknown[] | null = null;
  if (Array.isArray(body)) [envelope, items] = ['array', body];
  else if (isRecord(body)) {
    const key =
      ENVELOPES.find((name) => Array.isArray(body[name])) ??
      Object.keys(body).find((name) => Array.isArray(body[name]));
    if (key) [envelope, items] = [key, body[key] as unknown[]];
  }
  if (envelope === null || items === null) return null;
  const first: unknown = items[0];
  const firstId = isRecord(first) ? (first.id as unknown) : undefined;
  return {
    envelope,
    pagination: paginationStyle(seen),
    firstId: typeof firstId === 'number' || typeof firstId === 'string' ? firstId : undefined,
  };
}

/** The paging a list answer shows: a Link header, a next URL, a cursor, or page numbers. */
function paginationStyle({ headers, body }: Seen): PaginationStyle | null {
  if (/rel="?next"?/i.test(headers.get('link') ?? '')) return 'link';
  if (!isRecord(body)) return null;
  const places = [body, body.meta, body.pagination, body.links, body.paging].filter(isRecord);
  const has = (...names: string[]) =>
    places.some((place) => names.some((name) => place[name] !== undefined));
  const nextIsUrl = places.some((place) =>
    ['next', 'next_url', 'next_page_url'].some(
      (name) =>
        typeof place[name] === 'string' &&
        /^(https?:\/\/|\/)|^[^\s?#]*\?[^\s#]*=/.test(place[name]),
    ),
  );
  if (nextIsUrl) return 'next-url';
  if (has('offset')) return 'offset';
  if (has('next_cursor', 'nextCursor', 'cursor', 'starting_after', 'after')) return 'cursor';
  if (has('page', 'per_page', 'current_page', 'last_page', 'next_page', 'total_pages'))
    return 'page';
  return null;
}

function errorShape({ headers, body, text }: Seen): ErrorShape {
  if (body === undefined) return text.trim() ? 'text' : 'empty';
  if (!isRecord(body)) return body === null ? 'empty' : 'text';
  if (
    /problem\+json/i.test(headers.get('content-type') ?? '') ||
    ('title' in body && 'status' in body)
  )
    return 'problem+json';
  if (isRecord(body.error)) return 'error-object';
  if (typeof body.error === 'string') return 'error-string';
  if (body.errors !== undefined) return 'errors-list';
  return 'message';
}
