// The duplicate-content guard's rule: two posts of the same bot say the same thing when their
// texts match after ignoring whitespace, letter case and links, and their times lie within the
// window of each other. Pure; runs in every process.
import type { LocalPost, PostStatus } from './domain';
import { GONE_OUT } from './domain';
import { formatInZone } from './time';

/**
 * Posts that count: what is out or on its way out. Drafts and failures do not. The same posts
 * hold their posting slot, so removing or unscheduling a post frees it.
 */
export const COUNTED_STATUSES: readonly PostStatus[] = ['scheduled', ...GONE_OUT];

const LINK = /\b(?:https?:\/\/|www\.)\S+/gi;

/** The text as the guard compares it. */
export function comparableText(text: string): string {
  return text.replace(LINK, ' ').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en');
}

/** What the guard reads of a post (an import also offers its earlier rows in this shape). */
export type DuplicateSubject = Pick<
  LocalPost,
  'id' | 'botId' | 'text' | 'status' | 'scheduledAt' | 'publishedAt'
>;

/** When a post goes or went out: its publication time once known, else its scheduled time. */
export function outgoingAt(post: Pick<LocalPost, 'scheduledAt' | 'publishedAt'>): number | null {
  return post.publishedAt ?? post.scheduledAt;
}

export interface DuplicateCandidate {
  /** The post being checked, when it already exists, so it is not its own duplicate. */
  id?: number | undefined;
  botId: string | null;
  text: string;
  /** When it would go out (UTC epoch ms); now for "publish now". */
  at: number;
}

/** The first counted post of the same bot with the same comparable text within the window. */
export function findDuplicate<P extends DuplicateSubject>(
  candidate: DuplicateCandidate,
  posts: Iterable<P>,
  windowMs: number,
): P | null {
  const text = comparableText(candidate.text);
  if (text === '') return null;
  for (const post of posts) {
    if (post.id === candidate.id || post.botId !== candidate.botId) continue;
    if (!COUNTED_STATUSES.includes(post.status)) continue;
    const at = outgoingAt(post);
    if (at === null || Math.abs(at - candidate.at) > windowMs) continue;
    if (comparableText(post.text) === text) return post;
  }
  return null;
}

/**
 * The refusal or warning naming what a text repeats, e.g. "The same text as post 12 of bot_1,
 * going out 2026-11-24 09:00 (Europe/Berlin), within the 3-day duplicate window".
 */
export function describeDuplicate(
  other: string,
  published: boolean,
  at: number,
  zone: string,
  windowDays: number,
): string {
  return `The same text as ${other}, ${published ? 'published' : 'going out'} ${formatInZone(at, zone)}, within the ${windowDays}-day duplicate window`;
}
