// Other platforms' ways of answering (Node, main process), opt-in options of the reference server:
// where a list's items and paging facts go, how far a page may grow, what ids and times look
// like. Off by default (docs/platform-api.md's reading); on, they let a client be tried against
// the shapes real APIs use. Requests are translated back, so the endpoints never see them.
import type { ErrorBody, PageMeta } from '../platform/wire';
import type { Reply } from './http';

export const ENVELOPES = ['meta', 'bare', 'data', 'items', 'results', 'jsonapi'] as const;
export const PAGING_STYLES = [
  'page',
  'link',
  'next-url',
  'next-relative',
  'cursor',
  'last-page',
  'offset',
] as const;
export const ID_STYLES = ['prefixed', 'numeric', 'big', 'mixed'] as const;
export const TIME_FORMATS = [
  'iso',
  'zoneless',
  'sql',
  'rfc2822',
  'epoch-s',
  'epoch-ms',
  'epoch-string',
] as const;

export interface Conventions {
  /** Where a list's items go: `{data, meta}`, a bare array, `{data}`, `{items}`, `{results}`, JSON:API. */
  envelope: (typeof ENVELOPES)[number];
  /**
   * How the next page is told: `page` (the envelope's own facts: meta.next_page, or none), a
   * `Link` header, a `next` URL, a `next` URL relative to the list (`orders?page=2`), a cursor
   * (`next_cursor`, `has_more`; `page` is then ignored), `current_page`/`last_page`, or
   * `offset`/`limit` (`page` and `per_page` ignored; `limit` 20 unless asked, at most the cap or 100).
   */
  paging: (typeof PAGING_STYLES)[number];
  /** The most items a page holds, whatever `per_page` asks; null: as asked, up to 200. */
  pageCap: number | null;
  /**
   * The cap is silent: the answer's paging facts (`per_page`, `total_pages`, `next_page`) are
   * worked out from the `per_page` asked, though a page holds at most `pageCap` items.
   */
  pageCapEchoes: boolean;
  /**
   * `bot_1`, `1`, JSON numbers past 2^53 (bots and subscribers 2^53 + n, the rest
   * 12345678901234567889 + n), or `mixed`: bots' ids as numbers, every other id as `post_1`.
   */
  ids: (typeof ID_STYLES)[number];
  /** Times as RFC 3339 UTC, zone-less ISO, SQL, RFC 2822 without a zone, or epoch numbers or text. */
  times: (typeof TIME_FORMATS)[number];
}

export const DEFAULT_CONVENTIONS: Conventions = {
  envelope: 'meta',
  paging: 'page',
  pageCap: null,
  pageCapEchoes: false,
  ids: 'prefixed',
  times: 'iso',
};

const SMALL_OFFSET = 2n ** 53n;
const LARGE_OFFSET = 12345678901234567889n;
const LARGE_KINDS = new Set(['post', 'prod', 'ord', 'msg', 'cmt', 'evt', 'wh', 'chat']);
/** A marker for digits that must go out as a bare JSON number, swapped in after JSON.stringify. */
const BIG = '\u{1F522}';

export const isDefault = (conventions: Conventions): boolean =>
  (Object.keys(DEFAULT_CONVENTIONS) as (keyof Conventions)[]).every(
    (key) => conventions[key] === DEFAULT_CONVENTIONS[key],
  );

/** Where the `per_page` asked is kept for a cap that echoes it; never sent back in a next link. */
const ASKED_PER_PAGE = '_asked_per_page';
const OFFSET_LIMIT = { default: 20, max: 100 };
/** The endpoints' largest page. */
const MAX_PAGE = 200;

/** The query as the endpoints read it: page size capped, a cursor or an offset turned into its page. */
export function inboundQuery(conventions: Conventions, query: URLSearchParams): void {
  if (conventions.paging === 'cursor') {
    const cursor = query.get('cursor');
    query.set('page', cursor ? Buffer.from(cursor, 'base64url').toString() : '1');
    query.delete('cursor');
  }
  if (conventions.paging === 'offset') offsetToPage(conventions, query);
  else {
    const asked = Number(query.get('per_page') ?? 50);
    if (conventions.pageCap !== null && (!Number.isFinite(asked) || asked > conventions.pageCap)) {
      query.set('per_page', String(conventions.pageCap));
      if (conventions.pageCapEchoes && Number.isInteger(asked) && asked > 0)
        query.set(ASKED_PER_PAGE, String(Math.min(asked, MAX_PAGE)));
    }
  }
  for (const [key, value] of [...query]) query.set(key, inboundText(conventions, value));
}

const wholeNumber = (text: string | null): number | null =>
  text !== null && /^\d{1,9}$/.test(text) ? Number(text) : null;

/**
 * `offset` and `limit` as the page the endpoints read: the smallest page size from `limit` up whose
 * one page holds the whole window (outboundList cuts the window out of it). `offset` and `limit`
 * stay in the query, where the endpoints ignore them.
 */
function offsetToPage(conventions: Conventions, query: URLSearchParams): void {
  const offset = wholeNumber(query.get('offset')) ?? 0;
  const cap = conventions.pageCap ?? OFFSET_LIMIT.max;
  const limit = Math.max(1, Math.min(wholeNumber(query.get('limit')) ?? OFFSET_LIMIT.default, cap));
  let size = limit;
  const holds = (n: number) => Math.floor(offset / n) === Math.floor((offset + limit - 1) / n);
  while (size < MAX_PAGE && !holds(size)) size++;
  query.set('page', String(Math.floor(offset / size) + 1));
  query.set('per_page', String(size));
  query.set('offset', String(offset));
  query.set('limit', String(limit));
}

/** A path or a body text with big ids turned back into the row ids the endpoints read. */
export function inboundText(conventions: Conventions, text: string): string {
  if (conventions.ids !== 'big') return text;
  return text.replace(/\b\d{16,20}\b/g, (digits) => {
    const value = BigInt(digits);
    const offset = value > LARGE_OFFSET ? LARGE_OFFSET : value > SMALL_OFFSET ? SMALL_OFFSET : 0n;
    return String(value - offset);
  });
}

/** A successful answer in the conventions' shape; errors and empty answers stay as they are. */
export function outboundReply(conventions: Conventions, reply: Reply, url: URL): Reply {
  if (reply.body === undefined) return reply;
  if (reply.status >= 300)
    return conventions.envelope === 'jsonapi' ? { ...reply, body: jsonApiError(reply) } : reply;
  const body = reply.body as { data?: unknown; meta?: unknown };
  if (Array.isArray(body.data) && isRecord(body.meta)) {
    const list = outboundList(
      conventions,
      { data: body.data, meta: body.meta as unknown as PageMeta },
      url,
    );
    return { ...reply, text: list.text, headers: { ...reply.headers, ...list.headers } };
  }
  return { ...reply, text: outboundOne(conventions, reply.body) };
}

/** An error body as JSON:API writes it: one entry per bad field, its pointer into the resource. */
function jsonApiError(reply: Reply): unknown {
  const { error } = reply.body as ErrorBody;
  const { code, message, details, request_id: _requestId, ...extra } = error;
  const entry = { status: String(reply.status), code, title: message, ...extra };
  const fields = (details ?? []).filter((detail) => 'field' in detail);
  return {
    errors:
      fields.length > 0
        ? fields.map((detail) => ({
            ...entry,
            detail: detail.message,
            source: { pointer: `/data/attributes/${detail.field}` },
          }))
        : [{ ...entry, detail: message }],
  };
}

/** A list answer in the conventions' shape: body text and headers. */
function outboundList(
  conventions: Conventions,
  list: { data: unknown[]; meta: PageMeta },
  url: URL,
): { text: string; headers: Record<string, string> } {
  let items = list.data.map((item) => outboundItem(conventions, item));
  const meta = echoedMeta(list.meta, url.searchParams);
  const more = meta.page < meta.total_pages;
  const nextUrl = new URL(url);
  nextUrl.searchParams.delete(ASKED_PER_PAGE);
  nextUrl.searchParams.set('page', String(meta.page + 1));
  const next = more ? `${nextUrl.pathname}${nextUrl.search}` : null;
  const headers: Record<string, string> = {};
  let facts: Record<string, unknown> = {};
  switch (conventions.paging) {
    case 'page':
      facts = conventions.envelope === 'meta' ? { meta } : {};
      break;
    case 'link':
      if (next) headers.Link = `<${next}>; rel="next"`;
      break;
    case 'next-url':
      facts =
        conventions.envelope === 'results' ? { next, count: meta.total } : { links: { next } };
      break;
    case 'next-relative':
      // Relative to the list's own address, as some servers write it: `orders?page=2`.
      facts = { next: next && next.slice(next.lastIndexOf('/') + 1) };
      break;
    case 'offset': {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const skip = offset - (meta.page - 1) * meta.per_page;
      items = items.slice(skip, skip + limit);
      const window = { offset, limit, total: meta.total };
      facts = conventions.envelope === 'meta' ? { meta: window } : window;
      break;
    }
    case 'cursor':
      facts = {
        next_cursor: more ? Buffer.from(String(meta.page + 1)).toString('base64url') : null,
        has_more: more,
      };
      break;
    case 'last-page':
      facts = { meta: { current_page: meta.page, last_page: Math.max(1, meta.total_pages) } };
      break;
  }
  const key = {
    meta: 'data',
    bare: '',
    data: 'data',
    items: 'items',
    results: 'results',
    jsonapi: 'data',
  }[conventions.envelope];
  const body = key === '' ? items : { [key]: items, ...facts };
  return { text: stringify(body), headers };
}

/** The paging facts as a cap that echoes `per_page` works them out: from the size asked. */
function echoedMeta(meta: PageMeta, query: URLSearchParams): PageMeta {
  const asked = Number(query.get(ASKED_PER_PAGE));
  if (!asked) return meta;
  const totalPages = Math.ceil(meta.total / asked);
  return {
    ...meta,
    per_page: asked,
    total_pages: totalPages,
    next_page: meta.page < totalPages ? meta.page + 1 : null,
  };
}

/** One object (an answer to a read or a write) in the conventions' shape, as body text. */
function outboundOne(conventions: Conventions, body: unknown): string {
  const item = outboundItem(conventions, body);
  return stringify(conventions.envelope === 'jsonapi' ? { data: item } : item);
}

function stringify(body: unknown): string {
  return JSON.stringify(body).replace(new RegExp(`"${BIG}(\\d+)"`, 'gu'), '$1');
}

const PREFIXED_ID = /^([a-z]+)_(\d+)$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function outboundItem(conventions: Conventions, item: unknown): unknown {
  const converted = convert(conventions, item);
  if (conventions.envelope !== 'jsonapi' || !isRecord(converted)) return converted;
  const { id, ...rest } = converted;
  const attributes: Record<string, unknown> = {};
  const relationships: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key.endsWith('_id') && value !== null)
      relationships[key.slice(0, -3)] = { data: { type: key.slice(0, -3), id: value } };
    else attributes[key] = value;
  }
  return { id, type: 'resource', attributes, relationships };
}

function convert(conventions: Conventions, value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((entry) => convert(conventions, entry));
  if (isRecord(value))
    return Object.fromEntries(
      Object.entries(value).map(([name, entry]) => [name, convert(conventions, entry, name)]),
    );
  if (typeof value !== 'string') return value;
  if ((key === 'id' || key.endsWith('_id')) && PREFIXED_ID.test(value))
    return outboundId(conventions, value);
  if (key.endsWith('_at') && ISO_INSTANT.test(value)) return outboundTime(conventions, value);
  return value;
}

function outboundId(conventions: Conventions, id: string): unknown {
  const [, kind = '', row = '0'] = PREFIXED_ID.exec(id) ?? [];
  if (conventions.ids === 'numeric' || (conventions.ids === 'mixed' && kind === 'bot'))
    return Number(row);
  if (conventions.ids === 'big') {
    const offset = LARGE_KINDS.has(kind) ? LARGE_OFFSET : SMALL_OFFSET;
    return `${BIG}${BigInt(row) + offset}`;
  }
  return id;
}

function outboundTime(conventions: Conventions, iso: string): unknown {
  const ms = Date.parse(iso);
  switch (conventions.times) {
    case 'iso':
      return iso;
    case 'zoneless':
      return iso.slice(0, -1);
    case 'sql':
      return iso.slice(0, -1).replace('T', ' ');
    case 'rfc2822':
      return new Date(ms).toUTCString().replace(' GMT', '');
    case 'epoch-s':
      return Math.floor(ms / 1000);
    case 'epoch-ms':
      return ms;
    case 'epoch-string':
      return String(Math.floor(ms / 1000));
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
