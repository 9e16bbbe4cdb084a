// Bots' weekly posting schedules (Node, main process): wall times per weekday, read through a
// schema so a damaged value reads as no schedule instead of crashing.
import { z } from 'zod';
import { emptySchedule, hasSlots } from '../../shared/schedule';
import type { WeeklySchedule } from '../../shared/schedule';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

const weekly = z.array(z.array(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/))).length(7);

/** A schedule read from anywhere (this file, a team's document); anything else is none. */
export function scheduleOf(value: unknown): WeeklySchedule {
  const parsed = weekly.safeParse(value);
  return parsed.success ? parsed.data : emptySchedule();
}

function read(json: string): WeeklySchedule {
  try {
    return scheduleOf(JSON.parse(json));
  } catch {
    return emptySchedule();
  }
}

export class SchedulesStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  /** The bot's schedule; one without slots when it has none. */
  get(botId: string): WeeklySchedule {
    const row = statement(this.db, 'SELECT schedule FROM bot_schedules WHERE bot_id = ?').get(
      botId,
    ) as { schedule: string } | undefined;
    return row ? read(row.schedule) : emptySchedule();
  }

  /** Every bot's schedule with slots, by bot id, in one query; a damaged one reads as none. */
  list(): { botId: string; schedule: WeeklySchedule }[] {
    return (
      statement(this.db, 'SELECT bot_id, schedule FROM bot_schedules ORDER BY bot_id').all() as {
        bot_id: string;
        schedule: string;
      }[]
    )
      .map((row) => ({ botId: row.bot_id, schedule: read(row.schedule) }))
      .filter((row) => hasSlots(row.schedule));
  }

  /** Replaces the bot's schedule; one without slots is removed. */
  set(botId: string, schedule: WeeklySchedule): void {
    if (!hasSlots(schedule)) {
      statement(this.db, 'DELETE FROM bot_schedules WHERE bot_id = ?').run(botId);
      return;
    }
    statement(
      this.db,
      `INSERT INTO bot_schedules (bot_id, schedule, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (bot_id) DO UPDATE SET schedule = excluded.schedule, updated_at = excluded.updated_at`,
    ).run(botId, JSON.stringify(schedule), this.now());
  }

  /** The bots that have a schedule, by id. */
  botIds(): string[] {
    return (
      statement(this.db, 'SELECT bot_id FROM bot_schedules ORDER BY bot_id').all() as {
        bot_id: string;
      }[]
    ).map((row) => row.bot_id);
  }
}
