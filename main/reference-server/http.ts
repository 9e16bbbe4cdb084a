// HTTP plumbing of the reference server (Node, main process): replies, errors, routing by path
// pattern, and reading JSON bodies within a size limit.
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { describeIssues } from '../../shared/validation';
import type { FieldError } from '../platform/wire';

export interface Reply {
  status: number;
  body?: unknown;
  /** The body already written as JSON text (see conventions.ts); sent instead of `body`. */
  text?: string;
  headers?: Record<string, string>;
}

/** An error answer with the body of docs/platform-api.md, "Errors". */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown[],
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function notFound(what: string, id: string): HttpError {
  return new HttpError(404, 'not_found', `No ${what} with id "${id}"`);
}

export function validationFailed(
  details: FieldError[],
  code = 'validation_failed',
  status = 422,
): HttpError {
  const [first] = details;
  const message =
    details.length === 1 && first
      ? `${first.field ? `${first.field} ` : ''}${first.message}`
      : `${details.length} fields are invalid`;
  return new HttpError(status, code, message, details);
}

/** Parses with the schema or throws the answer that names every bad field. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code = 'validation_failed',
  status = 422,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(describeIssues(result.error.issues), code, status);
}

export function parseQuery<S extends z.ZodType>(schema: S, query: URLSearchParams): z.output<S> {
  return parseWith(schema, Object.fromEntries(query), 'invalid_query', 400);
}

export const MAX_BODY_BYTES = 1024 * 1024;

/** docs/platform-api.md, "Idempotency": 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The raw body text; refuses bodies over the limit and bodies that are not JSON-typed. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // The client went away mid-body: nothing was done, and nobody is left to answer.
    throw new HttpError(400, 'invalid_request', 'The request body was cut off');
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  const type = request.headers['content-type'] ?? '';
  if (raw.trim() !== '' && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json',
    );
  }
  return raw;
}

function tooLarge(): HttpError {
  return new HttpError(413, 'payload_too_large', `The body is over ${MAX_BODY_BYTES} bytes`);
}

export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw new HttpError(
      400,
      'invalid_json',
      `The body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

export type Params = Record<string, string>;

export interface Route<C> {
  method: string;
  segments: string[];
  handler: (context: C, params: Params) => Reply | Promise<Reply>;
}

export function route<C>(method: string, pattern: string, handler: Route<C>['handler']): Route<C> {
  return { method, segments: pattern.split('/').filter(Boolean), handler };
}

export type Match<C> =
  | { kind: 'found'; route: Route<C>; params: Params }
  | { kind: 'wrong_method'; allow: string[] }
  | { kind: 'none' };

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpError(
      400,
      'invalid_request',
      `The path segment "${part}" is not valid percent-encoding`,
    );
  }
}

/** Finds the route for a path such as `/bots/bot_1`; `:name` segments become params. */
export function matchRoute<C>(routes: readonly Route<C>[], method: string, path: string): Match<C> {
  const parts = path.split('/').filter(Boolean);
  const allow: string[] = [];
  for (const candidate of routes) {
    if (candidate.segments.length !== parts.length) continue;
    const params: Params = {};
    const fits = candidate.segments.every((segment, index) => {
      const part = parts[index] ?? '';
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decodeSegment(part);
        return true;
      }
      return segment === part;
    });
    if (!fits) continue;
    if (candidate.method === method) return { kind: 'found', route: candidate, params };
    allow.push(candidate.method);
  }
  return allow.length > 0 ? { kind: 'wrong_method', allow } : { kind: 'none' };
}
