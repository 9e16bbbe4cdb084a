// Typed errors of the platform client (Node, main process). Each says what happened (`kind`), what
// the server said, and whether trying again can help. The API token never appears in them.
import type { FieldError } from './wire';
import type { RateLimitState } from './rate-limit';

/** The code of a connection refused because its address is local (public-address.ts). */
export const LOCAL_ADDRESS_REFUSED = 'ELOCALADDRESS';

export type PlatformErrorKind =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'conflict'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'bad_response';

export interface PlatformErrorInit {
  kind: PlatformErrorKind;
  method: string;
  path: string;
  status?: number | null;
  code?: string | null;
  serverMessage?: string | null;
  fieldErrors?: FieldError[];
  retryAfterMs?: number | null;
  existingId?: string | null;
  requestId?: string | null;
  rateLimit?: RateLimitState | null;
  /** For failures without an answer: what went wrong on our side. */
  cause?: string;
  /** A write answered 2xx, though unreadably: it happened. */
  sent?: boolean;
  /** The id of what a sent write made, from its Location header. */
  createdId?: string | null;
}

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly status: number | null;
  readonly code: string | null;
  readonly serverMessage: string | null;
  readonly fieldErrors: FieldError[];
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  readonly existingId: string | null;
  readonly requestId: string | null;
  readonly rateLimit: RateLimitState | null;
  /** A write without a clear answer may still have happened on the platform: look before resending. */
  readonly mayHaveCommitted: boolean;
  /** A write the platform answered 2xx, though unreadably: it happened, and must not be resent. */
  readonly sent: boolean;
  readonly createdId: string | null;
  readonly method: string;
  readonly path: string;

  constructor(init: PlatformErrorInit) {
    const status = init.status ?? null;
    const said = init.serverMessage ?? init.cause ?? init.kind;
    const heading = [status, init.code]
      .filter((part) => part !== null && part !== undefined)
      .join(' ');
    super(`${init.method} ${init.path}: ${heading ? `${heading}: ` : ''}${said}`);
    this.name = 'PlatformError';
    this.kind = init.kind;
    this.status = status;
    this.code = init.code ?? null;
    this.serverMessage = init.serverMessage ?? null;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.existingId = init.existingId ?? null;
    this.requestId = init.requestId ?? null;
    this.rateLimit = init.rateLimit ?? null;
    this.method = init.method;
    this.path = init.path;
    const noAnswer = init.kind === 'network' || init.kind === 'timeout';
    this.sent = init.sent ?? false;
    this.createdId = init.createdId ?? null;
    this.mayHaveCommitted = this.sent || writeMayHaveHappened(init.kind, init.method);
    this.retryable =
      noAnswer ||
      init.kind === 'rate_limited' ||
      init.kind === 'server' ||
      (init.kind === 'conflict' && init.code === 'idempotency_in_progress');
  }
}

/** What an HTTP status means when the body does not say more. */
export function kindOfStatus(status: number): PlatformErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'server';
  return 'validation';
}

/**
 * Whether a write that failed this way may still have happened: no answer (a lost connection, a
 * timeout), a 5xx (a proxy's 502 or an empty 500 may come after the platform committed) or an
 * unreadable answer. Such a write is looked up before it is sent again.
 */
export function writeMayHaveHappened(kind: PlatformErrorKind, method: string): boolean {
  const unclear =
    kind === 'network' || kind === 'timeout' || kind === 'server' || kind === 'bad_response';
  return unclear && WRITE_METHODS.has(method);
}

/** Whether an answer of this status to this method says the write happened. */
export function writeWasSent(method: string, status: number): boolean {
  return WRITE_METHODS.has(method) && status >= 200 && status < 300;
}

/** The id a `Location` header points at (its last path segment), or null. */
export function idOfLocation(location: string | null): string | null {
  if (!location) return null;
  try {
    const segments = new URL(location, 'http://platform.invalid').pathname.split('/');
    const last = segments.filter(Boolean).pop();
    return last ? decodeURIComponent(last) : null;
  } catch {
    return null;
  }
}

/**
 * One sentence for an HTML page where an API answer should be (a proxy's or a gateway's error
 * page), from its title or first heading; null when the text is not HTML.
 */
export function describeHtmlPage(text: string, contentType: string | null): string | null {
  const html =
    /\bhtml\b/i.test(contentType ?? '') || /^\s*<(!doctype\s+html|html|head|body)\b/i.test(text);
  if (!html) return null;
  const heading = /<(title|h1)[^>]*>([^<]*)</i.exec(text)?.[2]?.replace(/\s+/g, ' ').trim();
  return heading
    ? `the server answered with an HTML page: "${heading.slice(0, 120)}"`
    : 'the server answered with an HTML page';
}
