// Reading a whole list (Node, main process): page after page until the server proves the end,
// each page handed on as it arrives, and a page the server refused for now asked again.
// docs/platform-api.md, "Reading a whole list", says what counts as proof.
import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError } from './errors';
import type { NextMarker, PageRequest } from './normalize/lists';

/** An item of a list answer that could not be read: the rest of its page still is. */
export interface RejectedItem {
  /** Its id, when it had a readable one. */
  id: string | null;
  why: string;
}

export interface Page<T> {
  items: T[];
  rejected: RejectedItem[];
  page: number | null;
  /** The page size the answer stated; null when it did not say. */
  perPage: number | null;
  total: number | null;
  next: NextMarker;
}

export type FetchPage<T> = (request: PageRequest) => Promise<Page<T>>;

/** How a list was read: what it held, and whether it provably is the server's whole list. */
export interface ListReading {
  /** Distinct items read. */
  read: number;
  rejected: RejectedItem[];
  /** Why the list cannot be taken as the server's whole list; null when it provably is. */
  unproven: string | null;
}

export interface WholeList<T> extends ListReading {
  items: T[];
}

/**
 * The ids a whole read has had, so an item a server lists twice is handed on once and a page of
 * nothing but repeats is caught. In memory unless given: a sync's pruned lists ask the rows the
 * read has written instead (`CacheStore.readBefore`), as 100,000 ids held 5 MB (#32).
 */
export interface ReadIds {
  /** Which of a page's ids an earlier page of this read had. */
  hadBefore(ids: readonly string[]): ReadonlySet<string>;
  /** A page's new ids, had from now on. */
  add(ids: Iterable<string>): void;
}

function readIdsInMemory(): ReadIds {
  const seen = new Set<string>();
  return {
    hadBefore: (ids) => new Set(ids.filter((id) => seen.has(id))),
    add: (ids) => {
      for (const id of ids) seen.add(id);
    },
  };
}

/**
 * Every item of a list, page after page, each page's new items handed to `onItems` as it
 * arrives (only their ids are kept, by `had`, so the items never pile up), until
 * the server provably said the end: its next-page marker says so (`next` null, `has_more` false,
 * the last page) and what was read reaches its `total` if it stated one, the items reach its
 * `total`, or a page is empty. A short page proves nothing (a server may cap pages silently). A
 * page that repeats items already read stops the reading, unproven. `onItems` returning true
 * stops it too (a lookup that found what it looks for); the next page waits for it when it
 * returns a promise (a sync writing a page in slices).
 */
export async function walkList<T extends { id: string }>(
  fetchPage: FetchPage<T>,
  onItems: (items: T[], read: number) => unknown,
  had: ReadIds = readIdsInMemory(),
): Promise<ListReading> {
  let read = 0;
  const rejected: RejectedItem[] = [];
  const asked = new Set<string>();
  const done = (unproven: string | null): ListReading => ({ read, rejected, unproven });
  let request: PageRequest = { page: 1 };
  let serverLed = false;
  let pastStatedEnd = false;
  let statedTotal: number | null = null;
  for (let pageIndex = 1; ; pageIndex++) {
    asked.add(JSON.stringify(request));
    const current = await fetchPage(request);
    rejected.push(...current.rejected);
    const before = had.hadBefore(current.items.map((item) => item.id));
    const inPage = new Set<string>();
    const fresh: T[] = [];
    for (const item of current.items) {
      if (before.has(item.id) || inPage.has(item.id)) continue;
      inPage.add(item.id);
      fresh.push(item);
    }
    had.add(inPage);
    read += fresh.length;
    if (current.items.length > 0 && fresh.length === 0) {
      return done(
        `page ${pageIndex} repeats items already read (the server seems to ignore the page asked for); the list was not read to its end`,
      );
    }
    if ((await onItems(fresh, read)) === true) return done('stopped once found');
    const count = read + rejected.length;
    if (pastStatedEnd && fresh.length === 0 && current.rejected.length === 0)
      return done(contradiction(current.total ?? statedTotal, count));
    statedTotal = current.total ?? statedTotal;
    const next = nextRequest(current, request, serverLed, count);
    if ('end' in next) return done(null);
    if ('unproven' in next) return done(next.unproven);
    if (asked.has(JSON.stringify(next.request))) {
      return done(
        `the server sent back to a page already read (${describeRequest(next.request)}); the list was not read to its end`,
      );
    }
    pastStatedEnd = next.pastStatedEnd;
    request = next.request;
    serverLed = current.next.kind === 'request';
  }
}

/** Every item of a list in memory: `walkList` for the short lists a lookup or a broadcast reads. */
export async function readWholeList<T extends { id: string }>(
  fetchPage: FetchPage<T>,
  onPage?: (fetched: number) => void,
  /** Stops after a page for which it is true (a lookup that found what it looks for). */
  until?: (page: readonly T[]) => boolean,
): Promise<WholeList<T>> {
  const items: T[] = [];
  const reading = await walkList(fetchPage, (fresh, read) => {
    items.push(...fresh);
    onPage?.(read);
    return until?.(fresh) ?? false;
  });
  return { ...reading, items };
}

type Next = { request: PageRequest; pastStatedEnd: boolean } | { end: true } | { unproven: string };

/**
 * The request for the page after `current`, or the end when the list provably ended there.
 * `serverLed`: `asked` came from the previous answer's own marker, so a page without one is the
 * last (a Link header or next link left out on the last page). A server that says "last" while
 * its own total says more is asked for the page after (`pastStatedEnd`): a cap that echoes the
 * page size asked makes its page count wrong, not its total.
 */
function nextRequest<T>(
  current: Page<T>,
  asked: PageRequest,
  serverLed: boolean,
  count: number,
): Next {
  const short = current.total !== null && count < current.total;
  const following = (): PageRequest | null => {
    if (asked.offset !== undefined)
      return { ...asked, offset: asked.offset + current.items.length + current.rejected.length };
    const page = current.page ?? asked.page;
    return page === undefined ? null : { page: page + 1 };
  };
  if (current.next.kind === 'request')
    return { request: current.next.request, pastStatedEnd: false };
  const empty = current.items.length === 0 && current.rejected.length === 0;
  if (current.next.kind === 'last' || serverLed || empty) {
    if (!short) return { end: true };
    const further = empty ? null : following();
    return further
      ? { request: further, pastStatedEnd: true }
      : { unproven: contradiction(current.total, count) };
  }
  if (current.total !== null && !short) return { end: true };
  // Nothing said: ask for one more page; an empty one ends the list.
  const further = following();
  return further ? { request: further, pastStatedEnd: false } : { end: true };
}

function contradiction(total: number | null, count: number): string {
  return `the server said the list ended, but its total says ${total ?? '?'} and ${count} were read; the list was not read to its end`;
}

function describeRequest(request: PageRequest): string {
  if (request.next_url !== undefined) return request.next_url;
  if (request.cursor !== undefined) return `cursor ${request.cursor}`;
  if (request.starting_after !== undefined) return `after ${request.starting_after}`;
  if (request.offset !== undefined) return `offset ${request.offset}`;
  return `page ${request.page ?? 1}`;
}

export interface PageRetryRules {
  /** Tries of one page in all. */
  attempts: number;
  /** First backoff step; each try doubles it, up to `capMs`, with full jitter. */
  baseMs: number;
  capMs: number;
}

export const PAGE_RETRY_RULES: PageRetryRules = { attempts: 5, baseMs: 500, capMs: 8_000 };

/**
 * `fetchPage`, with a page the server refused for now (429, 5xx, no answer) asked again after its
 * Retry-After or a jittered backoff, a bounded number of times; a governed `fetchPage` goes back
 * through the governor each time, which heard the 429 too.
 */
export function retryingPages<T>(
  fetchPage: FetchPage<T>,
  rules: PageRetryRules = PAGE_RETRY_RULES,
  random: () => number = Math.random,
): FetchPage<T> {
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetchPage(request);
      } catch (error) {
        const again = error instanceof PlatformError && error.retryable && error.kind !== 'aborted';
        if (!again || attempt >= rules.attempts) throw error;
        const ceiling = Math.min(rules.capMs, rules.baseMs * 2 ** (attempt - 1));
        await sleep(Math.max(error.retryAfterMs ?? 0, Math.round(random() * ceiling)));
      }
    }
  };
}
