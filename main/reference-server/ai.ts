// Local AI providers of the reference server (runs in Node: main process, reference server): three
// deterministic text generators with their own cost, latency, limit and failure rate, chosen
// automatically (cheapest healthy provider that allows max_tokens) with failover
// (docs/platform-api.md, "AI chat"). What a provider writes comes from ai-replies.ts.
import type { AiAttempt, AiChatResponse, ChatMessage } from '../platform/wire';
import { generateReply, promptTokens } from './ai-replies';

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
