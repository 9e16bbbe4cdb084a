// Webhook subscriptions and the events raised for them in the reference server (Node, main process).
import type { EventType, WebhookSubscription } from '../../platform/wire';
import { formatId, iso } from '../ids';
import type { Sql } from './sql';

interface WebhookRow {
  id: number;
  url: string;
  events: string;
  secret: string;
  active: number;
  created_at: number;
}

function toWebhook(row: WebhookRow): WebhookSubscription {
  return {
    id: formatId('webhook', row.id),
    url: row.url,
    events: JSON.parse(row.events) as EventType[],
    secret: row.secret,
    active: row.active === 1,
    created_at: iso(row.created_at),
  };
}

export class WebhookStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  createWebhook(
    accountId: number,
    input: { url: string; events: EventType[]; secret: string },
  ): WebhookSubscription {
    const createdAt = this.now();
    const id = Number(
      this.sql
        .stmt(
          'INSERT INTO webhooks (account_id, url, events, secret, active, created_at) VALUES (?, ?, ?, ?, 1, ?)',
        )
        .run(accountId, input.url, JSON.stringify(input.events), input.secret, createdAt)
        .lastInsertRowid,
    );
    return toWebhook({
      id,
      url: input.url,
      events: JSON.stringify(input.events),
      secret: input.secret,
      active: 1,
      created_at: createdAt,
    });
  }

  activeWebhooks(accountId: number, type: EventType): WebhookSubscription[] {
    return (
      this.sql
        .stmt('SELECT * FROM webhooks WHERE account_id = ? AND active = 1 ORDER BY id')
        .all(accountId) as WebhookRow[]
    )
      .map(toWebhook)
      .filter((webhook) => webhook.events.includes(type));
  }

  deactivateWebhook(id: number): void {
    this.sql.stmt('UPDATE webhooks SET active = 0 WHERE id = ?').run(id);
  }

  createEvent(accountId: number, type: EventType): { id: string; createdAt: number } {
    const createdAt = this.now();
    const id = this.sql
      .stmt('INSERT INTO events (account_id, type, created_at) VALUES (?, ?, ?)')
      .run(accountId, type, createdAt).lastInsertRowid;
    return { id: formatId('event', id), createdAt };
  }
}
