// The governed platform client (Node, main process): the workspace's one platform client, whose
// every request goes through the rate-limit governor, and what its answers tell (reachability,
// request counts, the rate limit learned for the next run).
import { z } from 'zod';
import type { Priority } from '../../shared/domain';
import { createPlatformClient } from '../platform/client';
import type { PlatformClient } from '../platform/client';
import type { Plan } from '../platform/wire';
import { PLANS } from '../platform/wire';
import { RateGovernor } from '../platform/governor';
import { platformFetch } from '../platform/http-fetch';
import type { GovernorOptions } from '../platform/governor';
import type { RetryRules } from '../queue/retry';
import type { WorkspaceStore } from '../store';
import { NotConnected } from './errors';

const learnedRateLimit = z
  .object({
    apiBase: z.string(),
    limit: z.number().int().positive().nullable(),
    windowMs: z.number().positive().nullable(),
    skewMs: z.number().int().nullable(),
  })
  .nullable();

export interface GovernedClientOptions {
  apiBase?: string | undefined;
  token?: string | undefined;
  plan?: Plan;
  windowMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  retryRules?: RetryRules;
}

export class GovernedClient {
  readonly governor: RateGovernor;
  /** Null without a platform account (offline drafts). */
  readonly client: PlatformClient | null;
  readonly stats = { requests: 0, rateLimited: 0 };
  private reachable: boolean | null = null;

  constructor(
    private readonly store: WorkspaceStore,
    now: () => number,
    options: GovernedClientOptions,
  ) {
    const plan = options.plan ?? 'free';
    this.governor = new RateGovernor({
      limit: PLANS[plan],
      windowMs: options.windowMs ?? 60_000,
      now,
      ...this.learnedRateLimit(options.apiBase),
      ...(options.retryRules ? { refusalBackoff: options.retryRules } : {}),
    });
    this.client =
      options.apiBase && options.token
        ? createPlatformClient({
            baseUrl: options.apiBase,
            token: options.token,
            now,
            ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
            fetch: this.watchReachability(options.fetch ?? platformFetch),
            onResponse: (info) => {
              this.stats.requests++;
              if (info.status === 429) this.stats.rateLimited++;
              this.governor.observe(info.status, info.rateLimit, info.durationMs);
            },
          })
        : null;
  }

  /** True after the platform answered, false after a request got no answer, null before any. */
  get online(): boolean | null {
    return this.reachable;
  }

  /** The client, or NotConnected when no platform account is set. */
  require(): PlatformClient {
    if (!this.client) throw new NotConnected();
    return this.client;
  }

  /** One platform request at `priority`, through the rate-limit governor like every other. */
  async gated<T>(priority: Priority, request: () => Promise<T>): Promise<T> {
    const release = await this.governor.acquire(priority);
    try {
      return await request();
    } finally {
      release();
    }
  }

  /**
   * What an earlier run learned of this platform's rate limit, and the way to keep what this run
   * learns: one settings row, for the base URL it was learned from (another server relearns).
   */
  private learnedRateLimit(
    apiBase: string | undefined,
  ): Pick<GovernorOptions, 'learned' | 'onLearn'> {
    if (!apiBase) return {};
    const kept = this.store.settings.get('learned_rate_limit', learnedRateLimit, null);
    return {
      learned: kept?.apiBase === apiBase ? kept : null,
      onLearn: (learned) => {
        // Kept for the next run only: a database another process holds must not fail the answer
        // it was learned from (a post the platform accepted). The next change writes it again.
        try {
          this.store.settings.set('learned_rate_limit', { apiBase, ...learned });
        } catch {
          return;
        }
      },
    };
  }

  /** The platform's fetch, noting whether requests get answers (the UI's online/offline). */
  private watchReachability(base: typeof fetch): typeof fetch {
    return async (...args) => {
      try {
        const response = await base(...args);
        this.reachable = true;
        return response;
      } catch (error) {
        this.reachable = false;
        throw error;
      }
    };
  }
}
