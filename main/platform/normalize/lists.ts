// Where an answer keeps its resources (Node, main process): one object bare or under `data`, a
// JSON:API resource flattened, a list under any common key with its paging facts, and the next page
// as the body or a `Link` header tells it.
import { first, isRecord } from './fields';
import type { Raw } from './fields';

/**
 * A JSON:API resource object `{ id, type, attributes, relationships }` as one flat record: the
 * attributes, the id, and each to-one relationship as `<name>_id`. Anything else is left as is.
 */
export function flattenResource(value: unknown): unknown {
  if (!isRecord(value) || !isRecord(value.attributes)) return value;
  const { attributes, relationships, type: _type, links: _links, ...rest } = value;
  const flat: Raw = { ...attributes, ...rest };
  if (isRecord(relationships)) {
    for (const [name, relationship] of Object.entries(relationships)) {
      const target = isRecord(relationship) ? relationship.data : undefined;
      if (isRecord(target) && target.id !== undefined) flat[`${name}_id`] ??= target.id;
    }
  }
  return flat;
}

/** One object, bare or wrapped in `data`. */
export function unwrapOne(body: unknown): unknown {
  if (isRecord(body) && isRecord(body.data) && body.id === undefined)
    return flattenResource(body.data);
  return flattenResource(body);
}

/** What to send for a page after the first: a page number, a cursor, an offset, or the server's own URL. */
export interface PageRequest {
  page?: number;
  cursor?: string;
  starting_after?: string;
  offset?: number;
  limit?: number;
  next_url?: string;
}

/** What an answer said about the page after it. */
export type NextMarker =
  { kind: 'request'; request: PageRequest } | { kind: 'last' } | { kind: 'unsaid' };

export interface ListShape {
  items: unknown[];
  page: number | null;
  perPage: number | null;
  total: number | null;
  next: NextMarker;
}

const numberOrNull = (value: unknown) => {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
};

const LAST: NextMarker = { kind: 'last' };
const UNSAID: NextMarker = { kind: 'unsaid' };
const ask = (request: PageRequest): NextMarker => ({ kind: 'request', request });

/** The value under the first of `keys` that one of `sources` has at all, null included. */
function said(sources: readonly Raw[], keys: readonly string[]): { value: unknown } | null {
  for (const source of sources)
    for (const key of keys) if (Object.hasOwn(source, key)) return { value: source[key] };
  return null;
}

/**
 * A next link rather than a cursor: absolute, from the root, a query alone, or relative with a
 * query (`orders?page=2`). No cursor encoding (base64, hex, opaque digits) has a `?`.
 */
function isUrlText(value: string): boolean {
  return /^(https?:\/\/|\/|\?|\.\.?\/)/i.test(value) || /^[^\s?#]*\?[^\s#]*=/.test(value);
}

/**
 * The next page as the body tells it, in this order: a next URL (`next`, `links.next`, `meta.next`,
 * `next_page_url`), a cursor (`next_cursor`, `cursor`, `has_more`), page numbers (`next_page`,
 * `last_page`, `total_pages`), an `offset` (the next one after this page's items, with the
 * `limit` stated). A `total` alone is left to the reader, who counts what it has.
 */
function nextOf(
  sources: readonly Raw[],
  page: number | null,
  statedPage: number | null,
  items: readonly unknown[],
): NextMarker {
  const last = items.at(-1);
  const lastId = isRecord(last) ? last.id : undefined;
  const links = sources.flatMap((source) => (isRecord(source.links) ? [source.links] : []));
  const url = said([...sources, ...links], ['next', 'next_page_url', 'nextPageUrl']);
  if (url) {
    const value = isRecord(url.value) ? url.value.href : url.value;
    if (typeof value === 'string' && value !== '')
      return ask(isUrlText(value) ? { next_url: value } : { cursor: value });
    if (value === null || value === false) return LAST;
  }
  const hasMore = said(sources, ['has_more', 'hasMore']);
  if (hasMore?.value === false) return LAST;
  const cursor = said(sources, ['next_cursor', 'nextCursor', 'cursor']);
  if (cursor && (typeof cursor.value === 'string' || typeof cursor.value === 'number'))
    return cursor.value === '' ? LAST : ask({ cursor: String(cursor.value) });
  if (cursor?.value === null) return LAST;
  const nextPage = said(sources, ['next_page', 'nextPage']);
  if (nextPage)
    return numberOrNull(nextPage.value) === null ? LAST : ask({ page: Number(nextPage.value) });
  const lastPage = numberOrNull(
    said(sources, ['last_page', 'lastPage', 'total_pages', 'totalPages', 'page_count', 'pageCount'])
      ?.value,
  );
  if (lastPage !== null && page !== null) return page < lastPage ? ask({ page: page + 1 }) : LAST;
  if (hasMore?.value === true) {
    // Page numbers only if the server counts pages; else Stripe's way, after the last id.
    if (statedPage !== null) return ask({ page: statedPage + 1 });
    if (typeof lastId === 'string' || typeof lastId === 'number')
      return ask({ starting_after: String(lastId) });
  }
  const offset = numberOrNull(said(sources, ['offset'])?.value);
  if (offset !== null && items.length > 0) {
    const limit = numberOrNull(said(sources, ['limit'])?.value);
    const total = numberOrNull(
      said(sources, ['total', 'total_count', 'totalCount', 'count'])?.value,
    );
    const after = offset + items.length;
    if (total !== null && after >= total) return LAST;
    return ask({ offset: after, ...(limit === null ? {} : { limit }) });
  }
  return UNSAID;
}

/**
 * A list as a bare array, or under data / items / results, with paging facts wherever they are
 * (the top level, `meta`, `pagination`, `paging`). `requestedPage` is the page number asked for.
 */
export function readList(body: unknown, requestedPage: number | null): ListShape | null {
  if (Array.isArray(body))
    return {
      items: body.map(flattenResource),
      page: requestedPage,
      perPage: null,
      total: null,
      next: UNSAID,
    };
  if (!isRecord(body)) return null;
  const rawItems = first(body, ['data', 'items', 'results']);
  if (!Array.isArray(rawItems)) return null;
  const items = rawItems.map(flattenResource);
  const sources = [body, body.meta, body.pagination, body.paging, body.page_info].filter(isRecord);
  const fact = (keys: readonly string[]) => numberOrNull(said(sources, keys)?.value);
  const statedPage = fact(['page', 'current_page', 'currentPage']);
  const page = statedPage ?? requestedPage;
  return {
    items,
    page,
    perPage: fact(['per_page', 'perPage', 'page_size', 'pageSize', 'limit']),
    total: fact(['total', 'total_count', 'totalCount', 'count']),
    next: nextOf(sources, page, statedPage, items),
  };
}

/** The next page's URL from a `Link` header (RFC 8288); a Link header without one means the last. */
export function nextFromLinkHeader(header: string | null): NextMarker | null {
  if (!header) return null;
  for (const link of header.split(/,(?=\s*<)/)) {
    const [target = '', ...params] = link.split(';');
    const url = /^\s*<([^>]*)>\s*$/.exec(target)?.[1];
    const rel = params
      .map((param) => /^\s*rel\s*=\s*"?([^"]*)"?\s*$/i.exec(param)?.[1])
      .find((value) => value !== undefined);
    if (url && rel?.toLowerCase().split(/\s+/).includes('next')) return ask({ next_url: url });
  }
  return LAST;
}
