// Typed errors of the platform client (Node, main process). Each says what happened (`kind`), what
// the server said, and whether trying again can help. The API token never appears in them.
import type { FieldError } from './wire';
import type { RateLimitState } from './rate-limit';

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
  /** A write that got no answer may still have happened on the platform: look before resending. */
  readonly mayHaveCommitted: boolean;
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
    this.mayHaveCommitted = noAnswer && WRITE_METHODS.has(init.method);
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
