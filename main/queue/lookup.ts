// The lookup after a lost answer (Node, main process): did an attempt whose answer never came make
// something on the platform? Found, absent, or unsure, and never "absent" unless the list was read
// to its provable end: an unsure lookup must not lead to a resend. Pages are read one request at a
// time through the caller's fetch (the rate governor's), newest first where the list states its
// page count, and a lookup cut short (429, 503, a timeout) resumes where it stopped.
import type { Page } from '../platform/client';
import { readWholeList } from '../platform/client';
import type { PageRequest, Post as PlatformPost } from '../platform/normalize';

export type Lookup =
  /** It exists: its id (null for a deletion that happened). */
  | { kind: 'found'; id: string | null }
  /** The whole list was read and it is not there: sending again cannot make a second one. */
  | { kind: 'absent' }
  /** The list could not be read to its end, or several posts could be it. */
  | { kind: 'unsure'; why: string };

/** Where a lookup cut short stands. Kept by the caller per item, handed back on the next attempt. */
export interface LookupProgress {
  /** Page numbers still to read, newest first; null until the first page told the count. */
  pages: number[] | null;
  /** The list gives no page count to trust: it is read front to back. */
  forwards: boolean;
  /** The request that failed last, on a list read front to back. */
  resumeAt: PageRequest | null;
  /** Ids read so far: a page of only these means the server ignores the page asked for. */
  seen: Set<string>;
  /** Posts that match by content but carry no time at all (see `postMatcher`). */
  untimed: string[];
  /** Items that could not be read: any of them may be what the lookup looks for. */
  unreadable: number;
}

export const freshProgress = (): LookupProgress => ({
  pages: null,
  forwards: false,
  resumeAt: null,
  seen: new Set(),
  untimed: [],
  unreadable: 0,
});

/** Looks at one page's items: the id of a match, or undefined. */
export type Matcher<T> = (items: readonly T[], progress: LookupProgress) => string | undefined;

/**
 * Reads `fetchPage` until `match` finds something or the list provably ends. Page 1 first (it
 * tells the page count, and a server that keeps a filter answers there); then, when it stated
 * honest page facts, the pages from the last one back, since what an attempt made is among the
 * newest; else front to back as the server leads.
 */
export async function scanList<T extends { id: string }>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  match: Matcher<T>,
  progress: LookupProgress,
): Promise<Lookup> {
  if (progress.pages === null && !progress.forwards) {
    const first = await fetchPage({ page: 1 });
    const found = match(first.items, progress);
    if (found !== undefined) return { kind: 'found', id: found };
    const last = lastPageOf(first);
    if (last === null) {
      // No page count to trust: front to back as the server leads, page 1 again included.
      progress.forwards = true;
    } else {
      remember(progress, first.items);
      progress.unreadable += first.rejected.length;
      progress.pages = Array.from({ length: last - 1 }, (_, i) => last - i);
    }
  }
  return progress.forwards
    ? readForwards(fetchPage, match, progress)
    : readBackwards(fetchPage, match, progress);
}

/** The page count of a list whose first page states honest facts, else null. */
function lastPageOf<T>(first: Page<T>): number | null {
  const { total, perPage, next } = first;
  if (total === null || perPage === null || perPage <= 0 || (first.page ?? 1) !== 1) return null;
  const size = first.items.length + first.rejected.length;
  // A server that caps pages below the size it states would make the count wrong.
  if (size !== Math.min(perPage, total)) return null;
  const numbered =
    next.kind === 'last' ||
    (next.kind === 'request' &&
      Object.keys(next.request).join() === 'page' &&
      next.request.page === 2);
  return numbered ? Math.max(1, Math.ceil(total / perPage)) : null;
}

async function readBackwards<T extends { id: string }>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  match: Matcher<T>,
  progress: LookupProgress,
): Promise<Lookup> {
  const pages = progress.pages ?? [];
  while (pages.length > 0) {
    const number = pages[0] ?? 1;
    const page = await fetchPage({ page: number });
    const found = match(page.items, progress);
    if (found !== undefined) return { kind: 'found', id: found };
    if (page.items.length === 0 || page.items.every((item) => progress.seen.has(item.id)))
      return {
        kind: 'unsure',
        why: `page ${number} of the list came back empty or repeating (the server seems to ignore the page asked for); the list was not read to its end`,
      };
    remember(progress, page.items);
    progress.unreadable += page.rejected.length;
    pages.shift();
  }
  return settle(progress);
}

async function readForwards<T extends { id: string }>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  match: Matcher<T>,
  progress: LookupProgress,
): Promise<Lookup> {
  let found: string | undefined;
  let resumed = false;
  const { unproven, rejected } = await readWholeList(
    (request) => {
      // readWholeList starts at page 1; a lookup cut short starts where it stopped.
      const asked = !resumed && progress.resumeAt ? progress.resumeAt : request;
      resumed = true;
      progress.resumeAt = asked;
      return fetchPage(asked);
    },
    undefined,
    (items) => {
      found = match(items, progress);
      remember(progress, items);
      return found !== undefined;
    },
  );
  progress.resumeAt = null;
  if (found !== undefined) return { kind: 'found', id: found };
  progress.unreadable += rejected.length;
  return settle(progress, unproven);
}

function remember(progress: LookupProgress, items: readonly { id: string }[]): void {
  for (const item of items) progress.seen.add(item.id);
}

/** The end of a read with no sure match: absent, the one untimed match, or unsure. */
function settle(progress: LookupProgress, unproven: string | null = null): Lookup {
  if (unproven !== null) return { kind: 'unsure', why: unproven };
  if (progress.unreadable > 0)
    return {
      kind: 'unsure',
      why: `${progress.unreadable} items of the list could not be read, and one of them may be this one`,
    };
  const [only, ...others] = progress.untimed;
  if (only === undefined) return { kind: 'absent' };
  if (others.length === 0) return { kind: 'found', id: only };
  return {
    kind: 'unsure',
    why: `${progress.untimed.length} posts on the platform have this bot and text and no time to tell which is this one`,
  };
}

/** A text as platforms store it: Unicode NFC, LF line ends, no surrounding white space. */
/**
 * How much earlier than the first attempt, on the platform's clock as measured, a lookup still
 * takes a post's creation time for it: the measured skew is good to about a second.
 */
export const CLOCK_MARGIN_MS = 5_000;

export const normalizedText = (text: string): string =>
  text.normalize('NFC').replace(/\r\n?/g, '\n').trim();

export interface PostWanted {
  /** The item's client reference (its idempotency key). */
  reference: string;
  botId: string | null;
  text: string;
  /** The earliest creation time an attempt could have, on the platform's clock as now measured. */
  sinceMs: () => number;
  /** Whether a platform post is already something else of ours, or was known before the attempt. */
  taken: (remoteId: string) => boolean;
}

/**
 * What an attempt may have made: the post with the item's client reference; else (a platform that
 * keeps no references) one with the same bot and text, no other reference, not taken, made since
 * the first attempt by its creation time (or its publication time, for a post published at once).
 * A match without any time is kept aside: it counts only if it is the list's only one.
 */
export function postMatcher(wanted: PostWanted): Matcher<PlatformPost> {
  const text = normalizedText(wanted.text);
  return (items, progress) => {
    const mine = items.find((candidate) => candidate.client_reference === wanted.reference);
    if (mine) return mine.id;
    for (const candidate of items) {
      if (candidate.client_reference !== null || candidate.bot_id !== wanted.botId) continue;
      if (normalizedText(candidate.text) !== text || wanted.taken(candidate.id)) continue;
      const time =
        candidate.created_at ?? (candidate.scheduled_at === null ? candidate.published_at : null);
      if (time === null) {
        if (!progress.untimed.includes(candidate.id)) progress.untimed.push(candidate.id);
      } else if (Date.parse(time) >= wanted.sinceMs()) return candidate.id;
    }
    return undefined;
  };
}
