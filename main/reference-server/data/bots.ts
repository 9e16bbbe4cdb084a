// Bots of the reference server (Node, main process), each with its subscriber count.
import type { Bot, ListEnvelope } from '../../platform/wire';
import { formatId, iso } from '../ids';
import type { PageQuery, Sql } from './sql';

interface BotRow {
  id: number;
  name: string;
  description: string | null;
  channel: string;
  status: 'active' | 'paused';
  client_reference: string | null;
  created_at: number;
  updated_at: number;
  subscriber_count: number;
}

export interface BotInput {
  name: string;
  description?: string | null | undefined;
  channel: string;
  status: 'active' | 'paused';
  client_reference?: string | undefined;
}

const BOT_SELECT = `b.*, (SELECT COUNT(*) FROM subscribers s WHERE s.bot_id = b.id) AS subscriber_count`;

function toBot(row: BotRow): Bot {
  return {
    id: formatId('bot', row.id),
    name: row.name,
    description: row.description,
    channel: row.channel,
    status: row.status,
    subscriber_count: row.subscriber_count,
    client_reference: row.client_reference,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export class BotStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  listBots(
    accountId: number,
    filter: { status?: string | undefined },
    page: PageQuery,
  ): ListEnvelope<Bot> {
    return this.sql.list<BotRow, Bot>(
      'bots b',
      BOT_SELECT,
      accountId,
      [filter.status ? ['status = ?', filter.status] : null],
      page,
      toBot,
    );
  }

  getBot(accountId: number, id: number): Bot | undefined {
    const row = this.sql
      .stmt(`SELECT ${BOT_SELECT} FROM bots b WHERE account_id = ? AND id = ?`)
      .get(accountId, id) as BotRow | undefined;
    return row && toBot(row);
  }

  createBot(accountId: number, input: BotInput): Bot {
    const now = this.now();
    const id = this.sql
      .stmt(
        `INSERT INTO bots (account_id, name, description, channel, status, client_reference, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        accountId,
        input.name,
        input.description ?? null,
        input.channel,
        input.status,
        input.client_reference ?? null,
        now,
        now,
      ).lastInsertRowid;
    return this.getBot(accountId, Number(id)) as Bot;
  }

  updateBot(
    accountId: number,
    id: number,
    patch: {
      name?: string | undefined;
      description?: string | null | undefined;
      status?: string | undefined;
    },
  ): Bot | undefined {
    const current = this.getBot(accountId, id);
    if (!current) return undefined;
    this.sql
      .stmt('UPDATE bots SET name = ?, description = ?, status = ?, updated_at = ? WHERE id = ?')
      .run(
        patch.name ?? current.name,
        patch.description === undefined ? current.description : patch.description,
        patch.status ?? current.status,
        this.now(),
        id,
      );
    return this.getBot(accountId, id);
  }

  deleteBot(accountId: number, id: number): boolean {
    return (
      this.sql.stmt('DELETE FROM bots WHERE account_id = ? AND id = ?').run(accountId, id).changes >
      0
    );
  }

  botRowIds(accountId: number): number[] {
    return (
      this.sql.stmt('SELECT id FROM bots WHERE account_id = ? ORDER BY id').all(accountId) as {
        id: number;
      }[]
    ).map((row) => row.id);
  }
}
