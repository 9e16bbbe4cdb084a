// The facts of the platform's error answers (Node, main process): code, message, field errors, an
// existing id and a request id, from whatever error body a platform sends.
import type { FieldError } from '../wire';
import { first, isRecord } from './fields';

export interface ErrorFacts {
  code: string | null;
  message: string | null;
  fieldErrors: FieldError[];
  existingId: string | null;
  requestId: string | null;
}

/** The field a JSON:API error's `source` names: its pointer's path, or its query parameter. */
function sourceField(source: unknown): string | undefined {
  if (!isRecord(source)) return undefined;
  if (typeof source.pointer === 'string')
    return source.pointer
      .replace(/^\/data\/(attributes|relationships)\//, '')
      .replace(/^\//, '')
      .replaceAll('/', '.');
  return typeof source.parameter === 'string' ? source.parameter : undefined;
}

function fieldErrorsOf(value: unknown): FieldError[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry): FieldError[] => {
      if (typeof entry === 'string') return [{ field: '', message: entry }];
      if (!isRecord(entry)) return [];
      const field =
        first(entry, ['field', 'path', 'param', 'name', 'provider']) ?? sourceField(entry.source);
      const message = first(entry, ['message', 'error', 'detail', 'msg', 'reason', 'title']);
      if (typeof message !== 'string') return [];
      return [{ field: Array.isArray(field) ? field.join('.') : String(field ?? ''), message }];
    });
  }
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([field, messages]) =>
      (Array.isArray(messages) ? messages : [messages])
        .filter((message): message is string => typeof message === 'string')
        .map((message) => ({ field, message })),
    );
  }
  return [];
}

/**
 * The facts of an error answer, whatever its body looks like: the documented `{ error }`, a
 * top-level message, problem+json (`detail`, `title`, `invalid-params`), JSON:API (`errors: [{
 * title, detail, code, source }]`), or text.
 */
export function readErrorBody(body: unknown, text: string): ErrorFacts {
  const outer = isRecord(body) ? body : {};
  const inner = isRecord(outer.error) ? outer.error : outer;
  const listed = Array.isArray(outer.errors) && isRecord(outer.errors[0]) ? outer.errors[0] : {};
  const message =
    first(inner, ['message', 'error_description', 'detail', 'title']) ??
    (typeof outer.error === 'string' ? outer.error : undefined) ??
    first(listed, ['detail', 'title', 'message']);
  const code = first(inner, ['code']) ?? first(listed, ['code']);
  const trimmed = text.trim();
  const existing =
    first(inner, ['existing_id', 'existingId']) ??
    first(outer, ['existing_id', 'existingId']) ??
    first(listed, ['existing_id', 'existingId']);
  const requestId =
    first(inner, ['request_id', 'requestId']) ?? first(outer, ['request_id', 'requestId']);
  return {
    code: typeof code === 'string' ? code : null,
    message:
      typeof message === 'string'
        ? message
        : body === undefined && trimmed
          ? trimmed.slice(0, 300)
          : null,
    fieldErrors: fieldErrorsOf(
      first(inner, ['details', 'errors', 'fields', 'invalid_params', 'invalid-params']) ??
        outer.errors,
    ),
    existingId: existing === undefined ? null : String(existing),
    requestId: requestId === undefined ? null : String(requestId),
  };
}
