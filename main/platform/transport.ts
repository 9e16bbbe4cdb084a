// How one request to Platform API v1 goes (Node, main process): the bearer token and a timeout
// on every request, the answer's body read within a size limit, rate-limit headers parsed from
// every answer, and anything but a readable 2xx turned into a typed PlatformError. The endpoint
// table (client.ts) says what to ask; this says how.
import type { z } from 'zod';
import { SliceSizer, inSlices, loopTurn } from '../../shared/slices';
import { describeIssues, summarizeIssues } from '../../shared/validation';
import { BodyTooLarge, idleTimeout, parseJsonExact, readBodyText } from './body';
import type { IdleTimeout } from './body';
import {
  LOCAL_ADDRESS_REFUSED,
  PlatformError,
  describeHtmlPage,
  idOfLocation,
  kindOfStatus,
  writeWasSent,
} from './errors';
import { readErrorBody } from './normalize/errors';
import { parseJsonUninterned } from './json-slices';
import { nextFromLinkHeader, readList, unwrapOne } from './normalize/lists';
import type { Page, RejectedItem } from './lists';
import { parseRateLimit, parseRetryAfter } from './rate-limit';
import { platformFetch } from './http-fetch';
import type { RateLimitState } from './rate-limit';

export interface ResponseInfo {
  method: string;
  path: string;
  /** null when no answer came (network error, timeout, abort). */
  status: number | null;
  durationMs: number;
  rateLimit: RateLimitState | null;
}

export interface PlatformClientOptions {
  /** Ends in /api/v1; a trailing slash is fine. */
  baseUrl: string;
  token: string;
  /** How long a request waits for its answer to start, or for its next bytes; 15 s unless given. */
  timeoutMs?: number;
  /** The largest answer body read; 64 MiB unless given. */
  maxBodyBytes?: number;
  fetch?: typeof fetch;
  now?: () => number;
  userAgent?: string;
  /** Called for every answer and every request that got none. */
  onResponse?: (info: ResponseInfo) => void;
  /**
   * Whether a read follows a redirect (true unless given; writes never do). A check of an
   * address the page gave says false: where a redirect leads was never checked.
   */
  followRedirects?: boolean;
}

export type Query = Record<string, string | number | undefined>;

export interface RequestOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** The whole address, when the server gave it (a next-page link); else base + path + query. */
  url?: URL;
  query?: Query | undefined;
  body?: unknown;
  options?: RequestOptions | undefined;
}

export interface Answer {
  status: number;
  body: unknown;
  call: Call;
  rateLimit: RateLimitState | null;
  /** Its headers: paging (Link) for a list, and Location for a write whose body does not say. */
  headers: Headers | null;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

export class Transport {
  readonly base: string;
  private readonly send: typeof fetch;
  private readonly now: () => number;

  constructor(private readonly options: PlatformClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.send = options.fetch ?? platformFetch;
    this.now = options.now ?? Date.now;
  }

  /** `parse` reads a body's JSON; a list's pages are read uninterned (json-slices.ts says why). */
  async request(call: Call, parse: (text: string) => unknown = parseJsonExact): Promise<Answer> {
    const url = call.url ?? new URL(this.base + call.path);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const started = this.now();
    const report = (status: number | null, rateLimit: RateLimitState | null) =>
      this.options.onResponse?.({
        method: call.method,
        path: call.path,
        status,
        durationMs: this.now() - started,
        rateLimit,
      });
    const { response, text } = await this.exchange(call, url, report);
    const rateLimit = parseRateLimit(response.headers, this.now());
    report(response.status, rateLimit);
    if (response.status >= 300 && response.status < 400) throw redirected(call, response, url);
    let body: unknown;
    try {
      body = text.trim() === '' ? null : parse(text);
    } catch {
      body = undefined; // not JSON: an error keeps the text, a success is a bad response
    }
    if (!response.ok) throw this.refusal(call, response, text, body, rateLimit);
    const answer = { status: response.status, body, call, rateLimit, headers: response.headers };
    if (body === undefined) throw badResponse(answer, 'the answer is not JSON');
    return answer;
  }

  /** Sends the call and reads its whole body; no answer (or too big a one) throws. */
  private async exchange(
    call: Call,
    url: URL,
    report: (status: number | null, rateLimit: RateLimitState | null) => void,
  ): Promise<{ response: Response; text: string }> {
    const timeoutMs = call.options?.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const idle = idleTimeout(timeoutMs);
    const signal = call.options?.signal
      ? AbortSignal.any([call.options.signal, idle.signal])
      : idle.signal;
    let head: Response | undefined;
    try {
      const response = await this.send(url, {
        method: call.method,
        headers: this.headersOf(call),
        signal,
        // A write sent on to another address would arrive there as a GET: say where instead.
        redirect:
          call.method === 'GET' && this.options.followRedirects !== false ? 'follow' : 'manual',
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      });
      idle.restart();
      head = response;
      const maxBytes = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      return { response, text: await readBodyText(response, maxBytes, signal, idle) };
    } catch (error) {
      // A write answered 2xx happened, whatever became of the rest of its answer.
      if (head && !(error instanceof BodyTooLarge) && writeWasSent(call.method, head.status)) {
        const rateLimit = parseRateLimit(head.headers, this.now());
        report(head.status, rateLimit);
        const answer = { call, status: head.status, rateLimit, headers: head.headers };
        const why = call.options?.signal?.aborted
          ? 'its reading was cancelled'
          : idle.fired()
            ? 'its body stopped coming before the timeout'
            : 'the connection broke while its body came';
        throw badResponse(answer, why);
      }
      throw this.noAnswer(call, error, idle, report);
    } finally {
      idle.stop();
    }
  }

  private headersOf(call: Call): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.token}`,
      Accept: 'application/json',
      'User-Agent': this.options.userAgent ?? 'Pressroom',
    };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (call.options?.idempotencyKey) headers['Idempotency-Key'] = call.options.idempotencyKey;
    return headers;
  }

  private noAnswer(
    call: Call,
    error: unknown,
    idle: IdleTimeout,
    report: (status: number | null, rateLimit: RateLimitState | null) => void,
  ): PlatformError {
    if (error instanceof BodyTooLarge) {
      report(error.status, null);
      const answer = { call, status: error.status, rateLimit: null, headers: null };
      return badResponse(answer, error.message);
    }
    report(null, null);
    const kind = call.options?.signal?.aborted ? 'aborted' : idle.fired() ? 'timeout' : 'network';
    return new PlatformError({
      kind,
      method: call.method,
      path: call.path,
      cause: causeOf(error, kind),
    });
  }

  /** A non-2xx answer as the error it is, with what the server said in whatever form. */
  private refusal(
    call: Call,
    response: Response,
    text: string,
    body: unknown,
    rateLimit: RateLimitState | null,
  ): PlatformError {
    const htmlPage = describeHtmlPage(text, response.headers.get('content-type'));
    const facts = readErrorBody(body, htmlPage ? '' : text);
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.now());
    return new PlatformError({
      kind: kindOfStatus(response.status),
      method: call.method,
      path: call.path,
      status: response.status,
      code: facts.code,
      serverMessage: htmlPage ?? facts.message ?? response.statusText,
      fieldErrors: facts.fieldErrors,
      existingId: facts.existingId,
      requestId: facts.requestId,
      retryAfterMs: rateLimit?.retryAfterMs ?? retryAfter,
      rateLimit,
    });
  }

  /** One record, read with its schema; an answer that does not fit is a bad response. */
  async one<S extends z.ZodType>(schema: S, call: Call): Promise<z.output<S>> {
    const answer = await this.request(call);
    return read(schema, answer, unwrapOne(answer.body));
  }

  /**
   * One page of a list: items that do not fit their schema are set aside, not fatal. Its items
   * are read in slices with turns of the event loop between: a page of 200 orders took 10 to
   * 45 ms to read at once, a stall of the app's other calls (#32).
   */
  async list<T>(reader: ItemReader<T>, call: Call): Promise<Page<T>> {
    const answer = await this.request(listCall(call, this.base), parseJsonUninterned);
    const shape = readList(answer.body, pageAsked(call.query));
    if (!shape) throw badResponse(answer, 'the answer is not a list');
    const items: T[] = [];
    const rejected: RejectedItem[] = [];
    let index = 0;
    await inSlices(shape.items, new SliceSizer(ITEMS_PER_SLICE), SLICE_CLOCK, (slice) => {
      for (const item of slice) {
        const result = reader.safeParse(item);
        if (result.success) items.push(result.data);
        else rejected.push(rejectedItem(item, index, result.error));
        index++;
      }
    });
    return {
      items,
      rejected,
      page: shape.page,
      perPage: shape.perPage,
      total: shape.total,
      next: nextFromLinkHeader(answer.headers?.get('link') ?? null) ?? shape.next,
    };
  }
}

/** What reads a list's items: a zod schema, or a faster reader with a schema behind it. */
export interface ItemReader<T> {
  safeParse(value: unknown): z.ZodSafeParseResult<T>;
}

/** A page's items read per slice: a few at first, then as many as the budget fits. */
export const ITEMS_PER_SLICE = { first: 20, min: 1, max: 1_000 };

/** The main process's clock for slices; its turn lets timers and I/O in. */
const SLICE_CLOCK = { now: () => performance.now(), turn: () => loopTurn(setImmediate) };

export function read<S extends z.ZodType>(schema: S, answer: Answer, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badResponse(answer, summarizeIssues(describeIssues(result.error.issues)));
}

/** The page number a list query asks for: 1 unless it says, none when it follows a link or cursor. */
function pageAsked(query: Query | undefined): number | null {
  if (query?.next_url !== undefined || query?.cursor !== undefined) return null;
  if (query?.starting_after !== undefined || query?.offset !== undefined) return null;
  return Number(query?.page ?? 1);
}

/**
 * A list call as sent: a next-page link from the server replaces the query, and must stay on the
 * base URL's origin, the only one the token is sent to.
 */
function listCall(call: Call, base: string): Call {
  const link = call.query?.next_url;
  if (link === undefined) return call;
  const url = new URL(String(link), base + call.path);
  if (url.origin !== new URL(base).origin) {
    throw new PlatformError({
      kind: 'bad_response',
      method: call.method,
      path: call.path,
      serverMessage: `the next page is on another site (${url.origin}); Pressroom sends its token only to ${new URL(base).origin}`,
    });
  }
  return { ...call, url, path: url.pathname, query: undefined };
}

function rejectedItem(item: unknown, index: number, error: z.ZodError): RejectedItem {
  const raw =
    typeof item === 'object' && item !== null ? (item as Record<string, unknown>).id : null;
  const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null;
  const issues = summarizeIssues(describeIssues(error.issues));
  return { id, why: `item ${index}${id === null ? '' : ` (id ${id})`}: ${issues}` };
}

/** A write answered with a redirect, which `redirect: 'manual'` did not follow. */
function redirected(call: Call, response: Response, url: URL): PlatformError {
  const location = response.headers.get('location');
  const target = location ? new URL(location, url) : null;
  const said = target
    ? `the base URL redirects to ${target.origin}${target.pathname}; use that address`
    : 'the base URL redirects elsewhere without saying where';
  return new PlatformError({
    kind: 'bad_response',
    method: call.method,
    path: call.path,
    status: response.status,
    serverMessage: said,
  });
}

/**
 * An answer that cannot be read. To a write it is still a 2xx: the write happened (`sent`), and
 * its Location header, if any, says what it made.
 */
function badResponse(answer: Omit<Answer, 'body'>, why: string): PlatformError {
  const { call, status } = answer;
  const sent = writeWasSent(call.method, status);
  return new PlatformError({
    kind: 'bad_response',
    method: call.method,
    path: call.path,
    status,
    serverMessage: `unreadable answer: ${why}`,
    rateLimit: answer.rateLimit,
    sent,
    createdId: sent ? idOfLocation(answer.headers?.get('location') ?? null) : null,
  });
}

/** The reason a request got no answer, without the URL (and so without anything secret). */
function causeOf(error: unknown, kind: 'aborted' | 'timeout' | 'network'): string {
  if (kind === 'timeout') return 'no answer before the timeout';
  if (kind === 'aborted') return 'cancelled';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  if (code === LOCAL_ADDRESS_REFUSED)
    return 'refused: the address now leads to this computer or its local network';
  return code ? `connection failed (${code})` : 'connection failed';
}
