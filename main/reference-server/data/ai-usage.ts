// AI usage of the reference server (Node, main process): requests, tokens and cost per account,
// day and provider.
import type { Sql } from './sql';

export interface UsageRecord {
  accountId: number;
  date: string;
  provider: string;
  promptTokens: number;
  completionTokens: number;
  costMicroUsd: number;
}

export interface UsageRow {
  date: string;
  provider: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_micro_usd: number;
}

export class AiUsageStore {
  constructor(private readonly sql: Sql) {}

  recordUsage(record: UsageRecord): void {
    this.sql
      .stmt(
        `INSERT INTO ai_usage (account_id, date, provider, requests, prompt_tokens, completion_tokens, cost_micro_usd)
       VALUES (?, ?, ?, 1, ?, ?, ?)
       ON CONFLICT (account_id, date, provider) DO UPDATE SET
         requests = requests + 1,
         prompt_tokens = prompt_tokens + excluded.prompt_tokens,
         completion_tokens = completion_tokens + excluded.completion_tokens,
         cost_micro_usd = cost_micro_usd + excluded.cost_micro_usd`,
      )
      .run(
        record.accountId,
        record.date,
        record.provider,
        record.promptTokens,
        record.completionTokens,
        record.costMicroUsd,
      );
  }

  usage(accountId: number, from: string, to: string): UsageRow[] {
    return this.sql
      .stmt(
        `SELECT date, provider, requests, prompt_tokens, completion_tokens, cost_micro_usd FROM ai_usage
       WHERE account_id = ? AND date BETWEEN ? AND ? ORDER BY date, provider`,
      )
      .all(accountId, from, to) as UsageRow[];
  }
}
