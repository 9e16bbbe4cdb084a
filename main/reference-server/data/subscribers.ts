// Subscribers of the reference server (Node, main process), with their tags and the messages
// exchanged with them.
import type { ListEnvelope, Message, Subscriber } from '../../platform/wire';
import { formatId, iso, isoOrNull } from '../ids';
import { likePattern } from './sql';
import type { PageQuery, Sql } from './sql';

interface SubscriberRow {
  id: number;
  bot_id: number;
  name: string;
  handle: string | null;
  language: string | null;
  status: 'active' | 'unsubscribed';
  created_at: number;
  last_seen_at: number | null;
  tags: string;
}

interface MessageRow {
  id: number;
  subscriber_id: number;
  bot_id: number;
  text: string;
  client_reference: string | null;
  created_at: number;
}

const SUBSCRIBER_SELECT = `s.*, (SELECT json_group_array(tag) FROM (SELECT tag FROM subscriber_tags t
  WHERE t.subscriber_id = s.id ORDER BY t.rowid)) AS tags`;

function toSubscriber(row: SubscriberRow): Subscriber {
  return {
    id: formatId('subscriber', row.id),
    bot_id: formatId('bot', row.bot_id),
    name: row.name,
    handle: row.handle,
    language: row.language,
    tags: JSON.parse(row.tags) as string[],
    status: row.status,
    created_at: iso(row.created_at),
    last_seen_at: isoOrNull(row.last_seen_at),
  };
}

function toMessage(row: MessageRow): Message {
  return {
    id: formatId('message', row.id),
    subscriber_id: formatId('subscriber', row.subscriber_id),
    bot_id: formatId('bot', row.bot_id),
    text: row.text,
    status: 'sent',
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
  };
}

export class SubscriberStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  listSubscribers(
    accountId: number,
    filter: {
      botId?: number | undefined;
      tag?: string | undefined;
      status?: string | undefined;
      q?: string | undefined;
    },
    page: PageQuery,
  ): ListEnvelope<Subscriber> {
    return this.sql.list<SubscriberRow, Subscriber>(
      'subscribers s',
      SUBSCRIBER_SELECT,
      accountId,
      [
        filter.botId === undefined ? null : ['bot_id = ?', filter.botId],
        filter.status ? ['status = ?', filter.status] : null,
        filter.tag
          ? [
              'EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id AND t.tag_key = ?)',
              filter.tag.trim().toLowerCase(),
            ]
          : null,
        filter.q
          ? [
              "(name LIKE ? ESCAPE '\\' OR handle LIKE ? ESCAPE '\\')",
              likePattern(filter.q),
              likePattern(filter.q),
            ]
          : null,
      ],
      page,
      toSubscriber,
    );
  }

  getSubscriber(accountId: number, id: number): Subscriber | undefined {
    const row = this.sql
      .stmt(`SELECT ${SUBSCRIBER_SELECT} FROM subscribers s WHERE account_id = ? AND id = ?`)
      .get(accountId, id) as SubscriberRow | undefined;
    return row && toSubscriber(row);
  }

  createSubscriber(
    accountId: number,
    input: {
      botId: number;
      name: string;
      handle: string | null;
      language: string | null;
      status: string;
      createdAt: number;
    },
  ): number {
    return Number(
      this.sql
        .stmt(
          `INSERT INTO subscribers (account_id, bot_id, name, handle, language, status, created_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          accountId,
          input.botId,
          input.name,
          input.handle,
          input.language,
          input.status,
          input.createdAt,
          input.createdAt,
        ).lastInsertRowid,
    );
  }

  /** True when the tag was added, false when the subscriber had it already (in any letter case). */
  addTag(subscriberId: number, tag: string): boolean {
    return (
      this.sql
        .stmt(
          'INSERT OR IGNORE INTO subscriber_tags (subscriber_id, tag, tag_key) VALUES (?, ?, ?)',
        )
        .run(subscriberId, tag, tag.toLowerCase()).changes > 0
    );
  }

  addMessage(
    accountId: number,
    input: {
      subscriberId: number;
      botId: number;
      direction: 'in' | 'out';
      text: string;
      clientReference: string | null;
      createdAt?: number;
    },
  ): Message {
    const createdAt = input.createdAt ?? this.now();
    const id = Number(
      this.sql
        .stmt(
          `INSERT INTO messages (account_id, subscriber_id, bot_id, direction, text, client_reference, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          accountId,
          input.subscriberId,
          input.botId,
          input.direction,
          input.text,
          input.clientReference,
          createdAt,
        ).lastInsertRowid,
    );
    if (input.direction === 'in') {
      this.sql
        .stmt('UPDATE subscribers SET last_seen_at = ? WHERE id = ?')
        .run(createdAt, input.subscriberId);
    }
    return toMessage({
      id,
      subscriber_id: input.subscriberId,
      bot_id: input.botId,
      text: input.text,
      client_reference: input.clientReference,
      created_at: createdAt,
    });
  }

  subscriberRowIds(accountId: number, status = 'active'): number[] {
    return (
      this.sql
        .stmt('SELECT id FROM subscribers WHERE account_id = ? AND status = ? ORDER BY id')
        .all(accountId, status) as {
        id: number;
      }[]
    ).map((row) => row.id);
  }
}
