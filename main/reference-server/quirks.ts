// Servers that follow the spec to the letter, or read it their own way (Node, main process):
// opt-in behaviours of the reference server that a client must survive when it looks a post up
// after a lost answer. Off by default (docs/platform-api.md's reading). The spec names neither
// `client_reference` nor `Idempotency-Key`, so a spec-literal server keeps neither; others write
// fields in camelCase, store text trimmed with LF line ends, leave `created_at` out, or answer the
// first page whatever page is asked.
import type { Reply } from './http';

export const FIELD_CASES = ['snake', 'camel'] as const;

export interface Quirks {
  /** Ignores `client_reference` (never stored, filtered on or echoed) and `Idempotency-Key`. */
  specLiteral: boolean;
  /** How a resource's field names are written: `bot_id` or `botId`. */
  fieldCase: (typeof FIELD_CASES)[number];
  /** Stores a text trimmed, with CRLF and lone CR turned into LF. */
  trimsText: boolean;
  /** Leaves `created_at` out of every resource. */
  noCreatedAt: boolean;
  /** Answers page 1 whatever page is asked, its facts still saying more follow. */
  ignoresPage: boolean;
}

export const DEFAULT_QUIRKS: Quirks = {
  specLiteral: false,
  fieldCase: 'snake',
  trimsText: false,
  noCreatedAt: false,
  ignoresPage: false,
};

const REFERENCE = 'client_reference';

/** Query parameters as the quirks read them: a spec-literal server knows no reference filter. */
export function quirkyQuery(quirks: Quirks, query: URLSearchParams): void {
  if (quirks.specLiteral) query.delete(REFERENCE);
  if (quirks.ignoresPage) query.delete('page');
}

/** A write's body as the quirks store it: no reference, text trimmed. Not JSON: left as is. */
export function quirkyBody(quirks: Quirks, raw: string): string {
  if (!quirks.specLiteral && !quirks.trimsText) return raw;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (!isRecord(body)) return raw;
  const { [REFERENCE]: _reference, ...rest } = body;
  const kept: Record<string, unknown> = quirks.specLiteral ? rest : body;
  if (quirks.trimsText && typeof kept.text === 'string')
    kept.text = kept.text.replace(/\r\n?/g, '\n').trim();
  return JSON.stringify(kept);
}

/** A successful answer's resources as the quirks write them; errors stay as they are. */
export function quirkyReply(quirks: Quirks, reply: Reply): Reply {
  if (reply.body === undefined || reply.status >= 300 || isDefault(quirks)) return reply;
  const body = reply.body as { data?: unknown; meta?: unknown };
  if (Array.isArray(body.data))
    return { ...reply, body: { ...body, data: body.data.map((item) => resource(quirks, item)) } };
  return { ...reply, body: resource(quirks, reply.body) };
}

function resource(quirks: Quirks, item: unknown): unknown {
  if (!isRecord(item)) return item;
  const fields = Object.entries(item).filter(
    ([name]) =>
      !(quirks.specLiteral && name === REFERENCE) && !(quirks.noCreatedAt && name === 'created_at'),
  );
  return Object.fromEntries(
    fields.map(([name, value]) => [quirks.fieldCase === 'camel' ? camel(name) : name, value]),
  );
}

const camel = (name: string) =>
  name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export const isDefault = (quirks: Quirks): boolean =>
  (Object.keys(DEFAULT_QUIRKS) as (keyof Quirks)[]).every(
    (key) => quirks[key] === DEFAULT_QUIRKS[key],
  );

/** The quirks as the admin API shows and takes them. */
export function quirksView(quirks: Quirks) {
  return {
    spec_literal: quirks.specLiteral,
    field_case: quirks.fieldCase,
    trims_text: quirks.trimsText,
    no_created_at: quirks.noCreatedAt,
    ignores_page: quirks.ignoresPage,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
