// What the reference server's local AI providers write (Node, main process): token counting, the
// same for every provider, and the deterministic reply to a conversation (hashtags, shorten,
// rephrase, N posts, else a draft post). ai.ts chooses the provider; this file writes its answer.
import type { ChatMessage } from '../platform/wire';

// Token counting, the same for every provider and every text: ceil(characters / 4), characters
// being UTF-16 code units, plus 4 tokens of framing per chat message in the prompt. Close enough to
// real tokenisers for quotas, costs and charts, and trivially reproducible by a test.
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + countTokens(message.content) + 4, 0);
}

const STOP_WORDS = new Set(
  `a about an and are as at be but by can could do for from get give go have he how i if in into is
  it its let me more my no of on or our please post posts make so some suggest that the their them
  these this those to up us we what with write you your draft rephrase rewrite reword hashtag
  hashtags shorten shorter tweet tweets caption captions idea ideas create generate need want`.split(
    /\s+/,
  ),
);

function keywords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [
    ...new Set(
      words.filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !/^\d+$/.test(word)),
    ),
  ];
}

/** The text the user wants worked on: a quoted part if there is one, else what follows a colon. */
function subjectText(prompt: string): string {
  const quoted = /["“«]([^"”»]{3,})["”»]/u.exec(prompt);
  if (quoted?.[1]) return quoted[1].trim();
  const colon = prompt.indexOf(':');
  return colon >= 0 ? prompt.slice(colon + 1).trim() : prompt.trim();
}

// "about" names the topic more reliably than "for" ("5 posts for Instagram about our menu").
function topicOf(prompt: string): string {
  const named =
    /\babout\s+(.+?)(?:[.!?\n]|$)/i.exec(prompt) ?? /\bfor\s+(.+?)(?:[.!?\n]|$)/i.exec(prompt);
  const words = keywords(named?.[1] ?? prompt).slice(0, 4);
  return words.length > 0 ? words.join(' ') : 'what we do';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** FNV-1a: each input picks its own phrasing, and always the same one. */
function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index++)
    value = Math.imul(value ^ text.charCodeAt(index), 16777619);
  return value >>> 0;
}

const FALLBACK_TAGS = ['community', 'smallbusiness', 'news'];

function hashtags(text: string): string {
  const tags = keywords(text).slice(0, 6);
  for (const fallback of FALLBACK_TAGS) {
    if (tags.length >= 3) break;
    if (!tags.includes(fallback)) tags.push(fallback);
  }
  return tags.map((tag) => `#${tag}`).join(' ');
}

/** Drops trailing words that leave a phrase dangling ("…opens a"). */
function trimDangling(words: string[]): string[] {
  const kept = [...words];
  while (kept.length > 1 && STOP_WORDS.has(kept.at(-1)?.toLowerCase() ?? '')) kept.pop();
  return kept;
}

const FILLER = /\b(?:really|very|just|actually|basically|truly|quite)\s+/gi;
const PREAMBLE =
  /^(?:we|i)(?:'re|'m|\s+are|\s+am)\s+(?:\w+\s+)?(?:happy|excited|thrilled|proud|pleased|delighted)\s+to\s+(?:announce|share|say|tell you|let you know)\s+(?:that\s+)?/i;
const SHORT_MAX_WORDS = 12;

function shorten(prompt: string): string {
  const text = subjectText(prompt);
  const firstSentence = /^(.+?[.!?])(?=\s|$)/su.exec(text)?.[1] ?? text;
  const short = capitalise(firstSentence.replace(FILLER, '').replace(PREAMBLE, '').trim());
  const words = short.split(/\s+/);
  if (words.length > SHORT_MAX_WORDS)
    return `${trimDangling(words.slice(0, SHORT_MAX_WORDS)).join(' ')}…`;
  if (short.length < text.length || words.length < 2) return short;
  // Nothing to drop: keep the first 60 % of the words, which is still a sentence start.
  return `${trimDangling(words.slice(0, Math.ceil(words.length * 0.6))).join(' ')}…`;
}

const SYNONYMS: Record<string, string> = {
  new: 'fresh',
  great: 'wonderful',
  best: 'finest',
  today: 'this very day',
  buy: 'grab',
  big: 'huge',
  good: 'lovely',
  now: 'right now',
  open: 'ready for you',
  get: 'pick up',
  love: 'adore',
  fresh: 'just-made',
  special: 'one-of-a-kind',
};

/** Synonym swaps, then the first sentence moved to the end. */
function rephrase(prompt: string): string {
  const text = subjectText(prompt);
  const swapped = text.replace(/\p{L}+/gu, (word) => {
    const swap = SYNONYMS[word.toLowerCase()];
    if (!swap) return word;
    return word[0] === word[0]?.toUpperCase() ? capitalise(swap) : swap;
  });
  const sentences = swapped.match(/[^.!?]+[.!?]*/g)?.map((sentence) => sentence.trim()) ?? [];
  const [first, ...rest] = sentences;
  const reworded = first !== undefined && rest.length > 0 ? [...rest, first].join(' ') : swapped;
  return reworded === text ? `Put simply: ${text}` : reworded;
}

const OPENERS = [
  'Big news:',
  'Did you know?',
  'Fresh today:',
  'Heads up:',
  'You asked, we listened:',
  'This week only:',
];
const BODIES = [
  (topic: string) => `${capitalise(topic)} is here, and we can't wait for you to try it.`,
  (topic: string) => `Three reasons to love ${topic}: quality, care and a little magic.`,
  (topic: string) => `Behind the scenes: how we make ${topic}, step by step.`,
  (topic: string) => `Question of the day: how do you enjoy ${topic}?`,
  (topic: string) => `Save the date: ${topic} is coming your way this week.`,
  (topic: string) => `Customer favourite: ${topic}. Have you tried it yet?`,
];
const CLOSERS = [
  'See you soon!',
  'Tell us what you think.',
  'Tag a friend who needs this.',
  'Drop by and say hi.',
  'Limited time, so be quick.',
];

/**
 * Post `index` of a series. The opener shifts once more after each round of bodies, so no
 * (opener, body) pair repeats within 36 posts.
 */
function draftPost(topic: string, seed: number, index: number): string {
  const body = BODIES[(seed + index) % BODIES.length]?.(topic) ?? topic;
  const round = Math.floor(index / BODIES.length);
  const opener = OPENERS[(seed + index + round) % OPENERS.length] ?? '';
  const closer = CLOSERS[(seed + index) % CLOSERS.length] ?? '';
  return `${opener} ${body} ${closer}`;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};
const MAX_POSTS = 30;

type Task = 'hashtags' | 'shorten' | 'rephrase' | 'posts';

// Whichever cue comes first in the message is the task: "Draft 5 posts … with hashtags" wants posts,
// "Suggest hashtags for my 3 posts" wants hashtags.
const CUES: { task: Task; pattern: RegExp }[] = [
  { task: 'hashtags', pattern: /\bhashtags?\b/i },
  { task: 'shorten', pattern: /\bshort(?:en|er)\b/i },
  { task: 'rephrase', pattern: /\b(?:rephrase|rewrite|reword)\b/i },
  {
    task: 'posts',
    pattern: new RegExp(
      `\\b(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})\\s+(?:[\\p{L}-]+\\s+){0,3}?(?:posts?|tweets?|captions?|updates?)\\b`,
      'iu',
    ),
  },
];

function taskOf(prompt: string): { task: Task; count: number } | null {
  let found: { task: Task; count: number; index: number } | null = null;
  for (const { task, pattern } of CUES) {
    const match = pattern.exec(prompt);
    if (!match || (found && found.index <= match.index)) continue;
    const count = task === 'posts' ? postCount(match[1] ?? '') : 0;
    if (task === 'posts' && (count < 1 || count > MAX_POSTS)) continue;
    found = { task, count, index: match.index };
  }
  return found;
}

/**
 * The task a system instruction sets for the user's text (hashtags, shorten, rephrase), as an app
 * sends it: the instruction, then the post alone. Only an instruction that names one such task and
 * asks for no posts counts (a campaign's names posts and hashtags both: its user message decides).
 */
function instructedTask(messages: readonly ChatMessage[]): { task: Task; count: number } | null {
  const instruction = messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');
  const named = CUES.filter(({ pattern }) => pattern.test(instruction)).map(({ task }) => task);
  const [only] = named;
  return named.length === 1 && only !== 'posts' && only !== undefined
    ? { task: only, count: 0 }
    : null;
}

function postCount(text: string): number {
  return NUMBER_WORDS[text.toLowerCase()] ?? Number(text);
}

function replyText(
  prompt: string,
  seed: number,
  instructed: { task: Task; count: number } | null,
): string {
  const task = instructed ?? taskOf(prompt);
  switch (task?.task) {
    case 'hashtags':
      return hashtags(subjectText(prompt));
    case 'shorten':
      return shorten(prompt);
    case 'rephrase':
      return rephrase(prompt);
    case 'posts': {
      const topic = topicOf(prompt);
      const tags = /\bhashtags?\b/i.test(prompt) ? ` ${hashtags(topic)}` : '';
      return Array.from(
        { length: task.count },
        (_, index) => `${index + 1}. ${draftPost(topic, seed, index)}${tags}`,
      ).join('\n');
    }
    default:
      return draftPost(topicOf(prompt), seed, 0);
  }
}

/** The reply cut to `maxTokens` (max_tokens × 4 characters), at a word boundary when one is near. */
function fit(
  content: string,
  maxTokens: number,
): { content: string; finishReason: 'stop' | 'length'; completionTokens: number } {
  if (countTokens(content) <= maxTokens)
    return { content, finishReason: 'stop', completionTokens: countTokens(content) };
  const limit = maxTokens * 4;
  const cut = content.slice(0, limit + 1);
  const boundary = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf('\n'));
  const truncated = (boundary > limit / 2 ? cut.slice(0, boundary) : cut.slice(0, limit)).trimEnd();
  return { content: truncated, finishReason: 'length', completionTokens: countTokens(truncated) };
}

/**
 * The deterministic reply to a conversation: does the task the system instruction sets for the
 * user's text, else the one the last user message asks for (hashtags, shorten, rephrase, N posts,
 * else a draft post). Same input, same output. `flavour`
 * (the provider's name) only changes which phrasing a draft picks.
 */
export function generateReply(
  messages: readonly ChatMessage[],
  maxTokens: number,
  flavour = '',
): { content: string; finishReason: 'stop' | 'length'; completionTokens: number } {
  const prompt = messages.findLast((message) => message.role === 'user')?.content ?? '';
  const seed = hash(`${flavour}\u0000${prompt}`);
  return fit(replyText(prompt, seed, instructedTask(messages)), maxTokens);
}
