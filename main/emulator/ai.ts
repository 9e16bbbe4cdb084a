// Local AI providers of the reference server (Node, main process, reference server): three
// deterministic text generators with their own cost, latency, limit and failure rate, chosen
// automatically (cheapest healthy provider that allows max_tokens) with failover.
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
  provider: string;
}

export type AiChatOutcome =
  | { ok: true; response: AiChatResponse }
  | {
      ok: false;
      status: 422;
      code: 'validation_failed';
      field: 'provider' | 'max_tokens';
      message: string;
    }
  | { ok: false; status: 503; code: 'ai_unavailable'; message: string; attempts: AiAttempt[] };

export interface AiRouterOptions {
  now: () => number;
  random: () => number;
  timeScale: number;
  providers?: readonly AiProviderSpec[];
}

const COOL_DOWN_MS = 30_000;
const FAILURES = ['upstream timeout', 'model overloaded', 'connection reset by provider'];

// Token counting, the same for every provider: about four characters a token, plus four tokens of
// framing per chat message. Close enough to real tokenisers for quotas and charts.
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + countTokens(message.content) + 4, 0);
}

const STOP_WORDS = new Set(
  'a an and are as at be but by can do for from give have how i in into is it me my of on or our please post posts short shorter shorten some suggest that the their them these this to us we what with write you your about draft rephrase rewrite hashtag hashtags make more'.split(
    ' ',
  ),
);

function keywords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [
    ...new Set(
      words.filter((word) => word.length > 2 && !STOP_WORDS.has(word) && !/^\d+$/.test(word)),
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

function topicOf(prompt: string): string {
  const about = /\babout\s+(.+?)(?:[.!?]|$)/i.exec(prompt);
  const words = keywords(about?.[1] ?? prompt).slice(0, 4);
  return words.length > 0 ? words.join(' ') : 'what we do';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A cheap deterministic hash, so each input picks its own phrasing but always the same one. */
function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index++)
    value = Math.imul(value ^ text.charCodeAt(index), 16777619);
  return value >>> 0;
}

const OPENERS = [
  'Big news:',
  'Did you know?',
  'Fresh today:',
  'Heads up:',
  'You asked, we listened:',
  'This week only:',
];
const CLOSERS = [
  'See you soon!',
  'Tell us what you think.',
  'Tag a friend who needs this.',
  'Drop by and say hi.',
  'Limited time, so be quick.',
];
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

function hashtags(prompt: string): string {
  const tags = keywords(subjectText(prompt)).slice(0, 6);
  while (tags.length < 3) tags.push(['community', 'news', 'today'][tags.length] ?? 'news');
  return tags.map((tag) => `#${tag.replace(/[^\p{L}\p{N}]/gu, '')}`).join(' ');
}

function shorten(prompt: string): string {
  const text = subjectText(prompt);
  const firstSentence = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  const words = firstSentence
    .split(/\s+/)
    .filter((word) => !/^(really|very|just|actually|basically|that)$/i.test(word));
  return words.slice(0, Math.max(6, Math.ceil(words.length * 0.6))).join(' ');
}

function rephrase(prompt: string): string {
  const text = subjectText(prompt);
  const swapped = text.replace(/[\p{L}]+/gu, (word) => {
    const swap = SYNONYMS[word.toLowerCase()];
    if (!swap) return word;
    return word[0] === word[0]?.toUpperCase() ? capitalise(swap) : swap;
  });
  const sentences = swapped.match(/[^.!?]+[.!?]*/g)?.map((s) => s.trim()) ?? [swapped];
  return sentences.length > 1 ? [...sentences.slice(1), sentences[0]].join(' ') : swapped;
}

const BODIES = [
  (topic: string) => `${capitalise(topic)} is here, and we can't wait for you to try it.`,
  (topic: string) => `Three reasons to love ${topic}: quality, care and a little magic.`,
  (topic: string) => `Behind the scenes: how we make ${topic}, step by step.`,
  (topic: string) => `Question of the day: how do you enjoy ${topic}?`,
  (topic: string) => `Save the date: ${topic} is coming your way this week.`,
  (topic: string) => `Customer favourite: ${topic}. Have you tried it yet?`,
];

/** Post `index` of a series: body and opener vary so that up to 36 posts in a row differ. */
function draftPost(topic: string, seed: number, index = 0): string {
  const body = BODIES[(seed + index) % BODIES.length]?.(topic) ?? topic;
  const opener = OPENERS[(seed + Math.floor(index / BODIES.length)) % OPENERS.length] ?? '';
  const closer = CLOSERS[(seed + index) % CLOSERS.length] ?? '';
  return `${opener} ${body} ${closer}`;
}

/**
 * The deterministic reply to a conversation: reads the last user message and answers the task it
 * asks for (hashtags, shorten, rephrase, N posts, or a draft post). Same input, same output.
 */
export function generateReply(
  messages: readonly ChatMessage[],
  maxTokens: number,
  flavour = '',
): { content: string; finishReason: 'stop' | 'length'; completionTokens: number } {
  const prompt = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const seed = hash(flavour + prompt);
  const posts = /\b(\d{1,2})\s+(?:\w+\s+){0,2}posts?\b/i.exec(prompt);
  let content: string;
  if (/hashtag/i.test(prompt)) content = hashtags(prompt);
  else if (/\bshort(en|er)?\b/i.test(prompt)) content = shorten(prompt);
  else if (/\b(rephrase|rewrite|reword)\b/i.test(prompt)) content = rephrase(prompt);
  else if (posts && Number(posts[1]) >= 1 && Number(posts[1]) <= 30) {
    const topic = topicOf(prompt);
    content = Array.from(
      { length: Number(posts[1]) },
      (_, index) => `${index + 1}. ${draftPost(topic, seed, index)}`,
    ).join('\n');
  } else content = draftPost(topicOf(prompt), seed);

  if (countTokens(content) <= maxTokens)
    return { content, finishReason: 'stop', completionTokens: countTokens(content) };
  const limit = maxTokens * 4;
  const cut = content.slice(0, limit);
  const boundary = cut.lastIndexOf(' ');
  const truncated = boundary > limit / 2 ? cut.slice(0, boundary) : cut;
  return { content: truncated, finishReason: 'length', completionTokens: countTokens(truncated) };
}

function formatMicroUsd(micro: number): string {
  return (micro / 1_000_000).toFixed(6);
}

export class AiRouter {
  private readonly providers: AiProviderSpec[];
  private readonly unhealthyUntil = new Map<string, number>();

  constructor(private readonly options: AiRouterOptions) {
    this.providers = (options.providers ?? DEFAULT_AI_PROVIDERS).map((spec) => ({ ...spec }));
  }

  providerNames(): string[] {
    return this.providers.map((provider) => provider.name);
  }

  configure(name: string, patch: { failureRate?: number; latencyMs?: number }): boolean {
    const provider = this.providers.find((candidate) => candidate.name === name);
    if (!provider) return false;
    Object.assign(provider, patch);
    if (patch.failureRate === 0) this.unhealthyUntil.delete(name);
    return true;
  }

  status(): (AiProviderSpec & { healthy: boolean; unhealthyUntilMs: number | null })[] {
    return this.providers.map((provider) => ({
      ...provider,
      healthy: this.healthy(provider),
      unhealthyUntilMs: this.healthy(provider)
        ? null
        : (this.unhealthyUntil.get(provider.name) ?? null),
    }));
  }

  async chat(input: AiChatInput, responseId: string): Promise<AiChatOutcome> {
    const candidates = this.candidates(input);
    if (!Array.isArray(candidates)) return candidates;
    const attempts: AiAttempt[] = [];
    for (const provider of candidates) {
      const started = this.options.now();
      const wait = provider.latencyMs * this.options.timeScale;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const latency =
        Math.round(provider.latencyMs * this.options.timeScale) || this.options.now() - started;
      if (this.options.random() < provider.failureRate) {
        const error = `${provider.name}: ${FAILURES[Math.floor(this.options.random() * FAILURES.length)] ?? 'failed'}`;
        attempts.push({ provider: provider.name, outcome: 'failed', latency_ms: latency, error });
        this.unhealthyUntil.set(
          provider.name,
          this.options.now() + COOL_DOWN_MS * this.options.timeScale,
        );
        continue;
      }
      this.unhealthyUntil.delete(provider.name);
      attempts.push({ provider: provider.name, outcome: 'ok', latency_ms: latency });
      const reply = generateReply(
        input.messages,
        input.max_tokens,
        provider.name === 'owl' ? '' : provider.name,
      );
      const prompt = promptTokens(input.messages);
      const total = prompt + reply.completionTokens;
      return {
        ok: true,
        response: {
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
        },
      };
    }
    return {
      ok: false,
      status: 503,
      code: 'ai_unavailable',
      message: `Every AI provider failed (${attempts.map((attempt) => attempt.provider).join(', ')})`,
      attempts,
    };
  }

  private healthy(provider: AiProviderSpec): boolean {
    return (this.unhealthyUntil.get(provider.name) ?? 0) <= this.options.now();
  }

  /** Providers to try in order, or the 422 that explains why none fits. */
  private candidates(input: AiChatInput): AiProviderSpec[] | AiChatOutcome {
    const refuse = (field: 'provider' | 'max_tokens', message: string): AiChatOutcome => ({
      ok: false,
      status: 422,
      code: 'validation_failed',
      field,
      message,
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
      return refuse(
        'max_tokens',
        `must be at most ${Math.max(...this.providers.map((provider) => provider.maxTokens))}`,
      );
    }
    // Unhealthy providers stay in the list, last: better a likely failure than no answer at all.
    return [...fitting.filter((p) => this.healthy(p)), ...fitting.filter((p) => !this.healthy(p))];
  }
}
