// The duplicate-content guard's rule: two posts of the same bot say the same thing when their
// texts match after ignoring whitespace, letter case and links, and their times lie within the
// window of each other. Pure; runs in every process.
import type { LocalPost, PostStatus } from './domain';

/** Posts that count: what is out or on its way out. Drafts and failures do not. */
const COUNTED: readonly PostStatus[] = ['scheduled', 'sending', 'published', 'handed_off'];

const LINK = /\b(?:https?:\/\/|www\.)\S+/gi;

/** The text as the guard compares it. */
export function comparableText(text: string): string {
  return text.replace(LINK, ' ').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en');
}

export interface DuplicateCandidate {
  /** The post being checked, when it already exists, so it is not its own duplicate. */
  id?: number;
  botId: string | null;
  text: string;
  /** When it would go out (UTC epoch ms); now for "publish now". */
  at: number;
}

/** The first counted post of the same bot with the same comparable text within the window. */
export function findDuplicate(
  candidate: DuplicateCandidate,
  posts: Iterable<LocalPost>,
  windowMs: number,
): LocalPost | null {
  const text = comparableText(candidate.text);
  if (text === '') return null;
  for (const post of posts) {
    if (post.id === candidate.id || post.botId !== candidate.botId) continue;
    if (!COUNTED.includes(post.status)) continue;
    const at = post.publishedAt ?? post.scheduledAt;
    if (at === null || Math.abs(at - candidate.at) > windowMs) continue;
    if (comparableText(post.text) === text) return post;
  }
  return null;
}
