// Workspace settings (Node, main process): JSON values by key, read through a schema so a damaged
// or old value falls back to its default instead of crashing.
import type { z } from 'zod';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

export class SettingsStore {
  constructor(private readonly db: WorkspaceDb) {}

  get<S extends z.ZodType>(key: string, schema: S, fallback: z.output<S>): z.output<S> {
    const row = statement(this.db, 'SELECT value FROM settings WHERE key = ?').get(key) as
      { value: string } | undefined;
    if (!row) return fallback;
    try {
      const parsed = schema.safeParse(JSON.parse(row.value));
      return parsed.success ? parsed.data : fallback;
    } catch {
      return fallback;
    }
  }

  set(key: string, value: unknown): void {
    statement(
      this.db,
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, JSON.stringify(value));
  }
}
