// The AI usage screen's state (browser): daily tokens per provider over the chosen range, shaped
// once for both the chart and the table that reads the same numbers to screen readers.
import type { CallErrorKind } from '../../../shared/answers';
import type { AiUsageDay } from '../../../shared/domain';
import { coalesce } from '../lib/coalesce';
import type { Shell } from './shell.svelte';

export const USAGE_RANGES = [7, 30, 90] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];

export interface ProviderSeries {
  provider: string;
  /** Tokens on each day of `UsageTable.dates`, zero where the provider was not used. */
  tokens: number[];
  total: number;
  requests: number;
}

export interface UsageTable {
  /** UTC dates (YYYY-MM-DD), oldest first. */
  dates: string[];
  /** Busiest provider first, so the chart's legend and the table's columns agree. */
  series: ProviderSeries[];
  /** Tokens of all providers on each date. */
  dayTotals: number[];
  total: number;
}

/** One series per provider, aligned on the dates the platform reported. */
export function usageTable(days: readonly AiUsageDay[]): UsageTable {
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  // A handful of providers at most: a list search is plenty.
  const series: ProviderSeries[] = [];
  sorted.forEach((day, index) => {
    for (const entry of day.providers) {
      let line = series.find((candidate) => candidate.provider === entry.provider);
      if (!line) {
        line = { provider: entry.provider, tokens: sorted.map(() => 0), total: 0, requests: 0 };
        series.push(line);
      }
      line.tokens[index] = (line.tokens[index] ?? 0) + entry.totalTokens;
      line.total += entry.totalTokens;
      line.requests += entry.requests;
    }
  });
  series.sort((a, b) => b.total - a.total || a.provider.localeCompare(b.provider));
  const dayTotals = sorted.map((day) => day.totalTokens);
  return {
    dates: sorted.map((day) => day.date),
    series,
    dayTotals,
    total: dayTotals.reduce((sum, tokens) => sum + tokens, 0),
  };
}

export class AiUsageState {
  range = $state<UsageRange>(30);
  /** The range `days` covers: it trails `range` while a new range loads. */
  shownRange = $state<UsageRange>(30);
  days = $state.raw<AiUsageDay[]>([]);
  loaded = $state(false);
  error = $state<{ kind: CallErrorKind; message: string } | null>(null);
  readonly table = $derived(usageTable(this.days));

  constructor(private readonly shell: Shell) {}

  readonly load = coalesce(async () => {
    const range = this.range;
    const result = await this.shell.api.aiUsage({ days: range });
    // The range changed while this load ran: its own load is coming.
    if (range !== this.range) return;
    if (result.ok) {
      this.days = result.value;
      this.shownRange = range;
    }
    this.error = result.ok ? null : result.error;
    this.loaded = true;
  });

  setRange(range: UsageRange): Promise<void> {
    this.range = range;
    return this.load();
  }
}
