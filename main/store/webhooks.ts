// Webhook subscriptions this workspace made, and the events its receiver got (Node, main process).
// API v1 cannot list subscriptions, so Pressroom remembers the ones it created.
import type { ReceivedEvent, WebhookInfo } from '../../shared/domain';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

export class WebhooksStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  add(subscription: Omit<WebhookInfo, 'createdAt'>): WebhookInfo {
    const createdAt = this.now();
    statement(
      this.db,
      'INSERT OR REPLACE INTO webhooks (id, url, events, created_at) VALUES (?, ?, ?, ?)',
    ).run(subscription.id, subscription.url, JSON.stringify(subscription.events), createdAt);
    return { ...subscription, createdAt };
  }

  list(): WebhookInfo[] {
    const rows = statement(
      this.db,
      'SELECT id, url, events, created_at FROM webhooks ORDER BY created_at DESC, id',
    ).all() as { id: string; url: string; events: string; created_at: number }[];
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      events: JSON.parse(row.events) as string[],
      createdAt: row.created_at,
    }));
  }

  /** Keeps a delivered event once: a redelivery of the same id is ignored (returns false). */
  receive(event: Omit<ReceivedEvent, 'receivedAt'>): ReceivedEvent | null {
    const receivedAt = this.now();
    const inserted = statement(
      this.db,
      'INSERT OR IGNORE INTO received_events (id, type, payload, received_at) VALUES (?, ?, ?, ?)',
    ).run(event.id, event.type, JSON.stringify(event.payload), receivedAt).changes;
    return inserted ? { ...event, receivedAt } : null;
  }

  received(limit: number): ReceivedEvent[] {
    const rows = statement(
      this.db,
      'SELECT id, type, payload, received_at FROM received_events ORDER BY received_at DESC, id DESC LIMIT ?',
    ).all(limit) as { id: string; type: string; payload: string; received_at: number }[];
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      payload: JSON.parse(row.payload) as unknown,
      receivedAt: row.received_at,
    }));
  }
}
