// Local AI providers of the reference server (runs in Node: main process, reference server): three
// deterministic text generators with their own cost, latency, limit and failure rate, chosen
// automatically (cheapest healthy provider that allows max_tokens) with failover
// (docs/platform-api.md, "AI chat").
import type { AiAttempt, AiChatResponse, ChatMessage } from '../platform/wire';

export interface AiProviderSpec {
  name: string;
  model: string;
  costPer1kTokensMicroUsd: number;
  latencyMs: number;
  maxTokens: number;
  failureRate: number;
}

export const DEFAULT_AI_PROVIDERS: readonly AiProviderSpec[] = [
  {
    name: 'lark',
    model: 'lark-mini-1',
    costPer1kTokensMicroUsd: 1_000,
    latencyMs: 20,
    maxTokens: 512,
    failureRate: 0.05,
  },
  {
    name: 'heron',
    model: 'heron-2',
    costPer1kTokensMicroUsd: 4_000,
    latencyMs: 60,
    maxTokens: 2048,
    failureRate: 0.02,
  },
  {
    name: 'owl',
    model: 'owl-large-3',
    costPer1kTokensMicroUsd: 15_000,
    latencyMs: 150,
    maxTokens: 4096,
    failureRate: 0.005,
  },
];

export interface AiChatInput {
  messages: ChatMessage[];
  max_tokens: number;
  /** 'auto' or a provider name. */
  provider: string;
}

// The 422 names the request field at fault so the server can answer a field-level validation error;
// it never tried a provider, hence no attempts.
export type AiChatOutcome =
  | { ok: true; response: AiChatResponse }
  | {
      ok: false;
      status: 422;
      code: 'validation_failed';
      field: 'provider' | 'max_tokens';
      message: string;
      attempts: AiAttempt[];
    }
  | { ok: false; status: 503; code: 'ai_unavailable'; message: string; attempts: AiAttempt[] };

export interface AiRouterOptions {
  now: () => number;
  random: () => number;
  timeScale: number;
  providers?: readonly AiProviderSpec[];
}

export interface AiProviderStatus extends AiProviderSpec {
  healthy: boolean;
  unhealthyUntilMs: number | null;
}

const COOL_DOWN_MS = 30_000;
const FAILURES = ['upstream timeout', 'model overloaded', 'connection reset by provider'];

// Token counting, the same for every provider and every text: ceil(characters / 4), characters
// being UTF-16 code units, plus 4 tokens of framing per chat message in the prompt. Close enough to
// real tokenisers for quotas, costs and charts, and trivially reproducible by a test.
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + countTokens(message.content) + 4, 0);
}

// ---- Deterministic replies -------------------------------------------------------------------

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

function postCount(text: string): number {
  return NUMBER_WORDS[text.toLowerCase()] ?? Number(text);
}

function replyText(prompt: string, seed: number): string {
  const task = taskOf(prompt);
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
 * The deterministic reply to a conversation: reads the last user message and does the task it asks
 * for (hashtags, shorten, rephrase, N posts, else a draft post). Same input, same output. `flavour`
 * (the provider's name) only changes which phrasing a draft picks.
 */
export function generateReply(
  messages: readonly ChatMessage[],
  maxTokens: number,
  flavour = '',
): { content: string; finishReason: 'stop' | 'length'; completionTokens: number } {
  const prompt = messages.findLast((message) => message.role === 'user')?.content ?? '';
  return fit(replyText(prompt, hash(`${flavour}\u0000${prompt}`)), maxTokens);
}

// ---- Selection and failover ------------------------------------------------------------------

/** Integer micro-dollars as a 6-decimal string, with no floating point on the way. */
function formatMicroUsd(micro: number): string {
  return `${Math.floor(micro / 1_000_000)}.${String(micro % 1_000_000).padStart(6, '0')}`;
}

export class AiRouter {
  private readonly providers: AiProviderSpec[];
  private readonly unhealthyUntil = new Map<string, number>();

  constructor(private readonly options: AiRouterOptions) {
    // Copies: configure() changes this router's providers, never the shared defaults.
    this.providers = (options.providers ?? DEFAULT_AI_PROVIDERS).map((spec) => ({ ...spec }));
  }

  providerNames(): string[] {
    return this.providers.map((provider) => provider.name);
  }

  /** Changes a provider's failure rate or latency (admin API); false for an unknown name. */
  configure(name: string, patch: { failureRate?: number; latencyMs?: number }): boolean {
    const provider = this.providers.find((candidate) => candidate.name === name);
    if (!provider) return false;
    if (patch.failureRate !== undefined) provider.failureRate = patch.failureRate;
    if (patch.latencyMs !== undefined) provider.latencyMs = patch.latencyMs;
    return true;
  }

  status(): AiProviderStatus[] {
    return this.providers.map((provider) => {
      const until = this.unhealthyUntil.get(provider.name);
      const healthy = until === undefined || until <= this.options.now();
      return { ...provider, healthy, unhealthyUntilMs: healthy ? null : (until ?? null) };
    });
  }

  async chat(input: AiChatInput, responseId: string): Promise<AiChatOutcome> {
    const candidates = this.candidates(input);
    if (!Array.isArray(candidates)) return candidates;
    const attempts: AiAttempt[] = [];
    for (const provider of candidates) {
      const error = await this.attempt(provider);
      // The modelled latency rather than a measured one, so a seeded run replays exactly.
      const latency = Math.round(provider.latencyMs * this.options.timeScale);
      if (error !== null) {
        attempts.push({ provider: provider.name, outcome: 'failed', latency_ms: latency, error });
        continue;
      }
      attempts.push({ provider: provider.name, outcome: 'ok', latency_ms: latency });
      return { ok: true, response: this.answer(provider, input, responseId, attempts) };
    }
    return {
      ok: false,
      status: 503,
      code: 'ai_unavailable',
      message: `Every AI provider tried failed (${attempts.map((attempt) => attempt.provider).join(', ')})`,
      attempts,
    };
  }

  /** One call to a provider: waits its latency, then fails (an error text) or succeeds (null). */
  private async attempt(provider: AiProviderSpec): Promise<string | null> {
    const wait = provider.latencyMs * this.options.timeScale;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (this.options.random() < provider.failureRate) {
      this.unhealthyUntil.set(
        provider.name,
        this.options.now() + COOL_DOWN_MS * this.options.timeScale,
      );
      const reason = FAILURES[Math.floor(this.options.random() * FAILURES.length)] ?? 'failed';
      return `${provider.name}: ${reason}`;
    }
    this.unhealthyUntil.delete(provider.name);
    return null;
  }

  private answer(
    provider: AiProviderSpec,
    input: AiChatInput,
    responseId: string,
    attempts: AiAttempt[],
  ): AiChatResponse {
    const reply = generateReply(input.messages, input.max_tokens, provider.name);
    const prompt = promptTokens(input.messages);
    const total = prompt + reply.completionTokens;
    return {
      id: responseId,
      provider: provider.name,
      model: provider.model,
      message: { role: 'assistant', content: reply.content },
      finish_reason: reply.finishReason,
      usage: {
        prompt_tokens: prompt,
        completion_tokens: reply.completionTokens,
        total_tokens: total,
      },
      cost_usd: formatMicroUsd(Math.round((total * provider.costPer1kTokensMicroUsd) / 1000)),
      attempts,
    };
  }

  /** Providers to try, in order, or the 422 that explains why none may answer. */
  private candidates(input: AiChatInput): AiProviderSpec[] | AiChatOutcome {
    const refuse = (field: 'provider' | 'max_tokens', message: string): AiChatOutcome => ({
      ok: false,
      status: 422,
      code: 'validation_failed',
      field,
      message,
      attempts: [],
    });
    if (input.provider !== 'auto') {
      const named = this.providers.find((provider) => provider.name === input.provider);
      if (!named)
        return refuse('provider', `must be auto or one of ${this.providerNames().join(', ')}`);
      if (named.maxTokens < input.max_tokens)
        return refuse('max_tokens', `must be at most ${named.maxTokens} for ${named.name}`);
      return [named];
    }
    const fitting = this.providers
      .filter((provider) => provider.maxTokens >= input.max_tokens)
      .sort((a, b) => a.costPer1kTokensMicroUsd - b.costPer1kTokensMicroUsd);
    if (fitting.length === 0) {
      const limit = Math.max(...this.providers.map((provider) => provider.maxTokens));
      return refuse('max_tokens', `must be at most ${limit}`);
    }
    // Unhealthy providers stay in the list, last: better a likely failure than no answer at all.
    const healthy = new Set(
      this.status()
        .filter((s) => s.healthy)
        .map((s) => s.name),
    );
    return [
      ...fitting.filter((provider) => healthy.has(provider.name)),
      ...fitting.filter((provider) => !healthy.has(provider.name)),
    ];
  }
}
