// The bots screen's state (browser): the bots the last sync brought, with the user's creates,
// renames and deletes laid over them while the queue sends them, and until a sync shows them; each
// bot's posting schedule as text; and the schedule being edited.
import type { OperationInput } from '../../../shared/contract';
import type { CallResult } from '../../../shared/answers';
import type { BotPostCounts, BotSummary, OutboxItem } from '../../../shared/domain';
import { coalesce } from '../lib/coalesce';
import { PendingWrites } from './pending-writes.svelte';
import type { Pending } from './pending-writes.svelte';
import { syncFor, touchesCache } from './platform-sync';
import { ScheduleEditor } from './schedule.svelte';
import type { Shell } from './shell.svelte';

export type BotChannel = NonNullable<OperationInput<'createBot'>['channel']>;
export const BOT_CHANNELS = [
  'web',
  'telegram',
  'whatsapp',
  'messenger',
  'instagram',
] as const satisfies readonly BotChannel[];

export type BotChange = 'creating' | 'renaming' | 'deleting';

export interface BotRow extends BotSummary {
  /** The user's write to this bot that the queue has not settled yet. */
  change: BotChange | null;
  /** Why the queue is trying that write again, while it does. */
  note: string | null;
}

/** One write the user made here. */
export interface BotWriteFields {
  kind: 'create' | 'rename' | 'delete';
  /** The bot's id; for a create, known once the platform made the bot. */
  botId: string | null;
  /** The new name (create, rename) or the bot's name (delete), for messages. */
  name: string;
  channel: string | null;
  description: string | null;
}

/** A write as the list shows it: dropped when it fails (the rollback) or once a sync has it. */
export type BotWrite = Pending<BotWriteFields>;

const CHANGES: Record<BotWrite['kind'], BotChange> = {
  create: 'creating',
  rename: 'renaming',
  delete: 'deleting',
};

/** The cached bots as the user's writes leave them, oldest write first. */
export function applyWrites(cached: readonly BotSummary[], writes: readonly BotWrite[]): BotRow[] {
  let rows: BotRow[] = cached.map((bot) => ({ ...bot, change: null, note: null }));
  for (const write of writes) {
    const change = write.settled ? null : CHANGES[write.kind];
    const touch = (patch: Partial<BotRow>) =>
      (rows = rows.map((row) => (row.id === write.botId ? { ...row, ...patch } : row)));
    switch (write.kind) {
      case 'create':
        if (!rows.some((row) => row.id === write.botId))
          rows.push({
            id: write.botId ?? `new-${write.key}`,
            name: write.name,
            channel: write.channel,
            status: null,
            description: write.description,
            pending: 0,
            change,
            note: write.note,
          });
        break;
      case 'rename':
        touch({ name: write.name, ...(change ? { change, note: write.note } : {}) });
        break;
      case 'delete':
        if (write.settled) rows = rows.filter((row) => row.id !== write.botId);
        else touch({ change, note: write.note });
        break;
    }
  }
  return rows;
}

/** What to do with a deleted bot's posts here. */
export type BotPostsChoice =
  { action: 'move'; moveTo: string } | { action: 'draft' } | { action: 'delete' };

/** A bot about to be deleted, with what it has here, while the user decides. */
export interface BotDeletion extends BotPostCounts {
  bot: BotRow;
}

export class BotsState {
  cached = $state.raw<BotSummary[]>([]);
  readonly writes: PendingWrites<BotWriteFields>;
  readonly rows: BotRow[];
  loaded = $state(false);
  error = $state<string | null>(null);
  syncing = $state(false);
  refreshError = $state<string | null>(null);
  /** Each bot's posting schedule as text, by bot id; a bot without one is absent. */
  schedules = $state.raw<Readonly<Record<string, string>>>({});
  /** The posting schedule open in its editor, if any. */
  schedule = $state.raw<ScheduleEditor | null>(null);
  /** The delete question open, if any. */
  deleting = $state.raw<BotDeletion | null>(null);

  constructor(private readonly shell: Shell) {
    this.writes = new PendingWrites(shell.notices, () => void this.refresh());
    this.rows = $derived(applyWrites(this.cached, this.writes.list));
  }

  /** The bots and every bot's schedule, in two calls however many bots there are. */
  async load(): Promise<void> {
    const [bots, schedules] = await Promise.all([
      this.shell.api.listBots({}),
      this.shell.api.listSchedules({}),
    ]);
    if (!bots.ok) this.error = bots.error.message;
    else if (!schedules.ok) this.error = schedules.error.message;
    else {
      this.cached = bots.value;
      this.schedules = Object.fromEntries(schedules.value.map(({ botId, text }) => [botId, text]));
      this.error = null;
      this.loaded = true;
    }
  }

  /** Pulls from the platform, then lists again; the writes it now shows stop being laid over. */
  readonly refresh = coalesce(() =>
    this.writes.refreshing(async () => {
      this.syncing = true;
      this.refreshError = await syncFor(this.shell.api, 'bots');
      this.syncing = false;
      await this.load();
      return !this.refreshError && !this.error;
    }),
  );

  /** Queues a new bot; answers the core's reason when it refuses, for the form to show. */
  create(input: {
    name: string;
    channel: BotChannel;
    description: string;
  }): Promise<string | null> {
    const name = input.name.trim();
    const description = input.description.trim() || null;
    return this.writes.send(
      { kind: 'create', botId: null, name, channel: input.channel, description },
      () => this.shell.api.createBot({ name, channel: input.channel, description }),
      `Could not create the bot “${name}”`,
      (remoteId) => (remoteId ? { botId: remoteId } : {}),
    );
  }

  rename(bot: BotRow, name: string): Promise<void> {
    const wanted = name.trim();
    if (wanted === bot.name) return Promise.resolve();
    return this.change(
      { kind: 'rename', botId: bot.id, name: wanted, channel: null, description: null },
      () => this.shell.api.renameBot({ botId: bot.id, name: wanted }),
      `Could not rename “${bot.name}”`,
    );
  }

  /** Opens the delete question for a bot, with what it has here and what goes with it. */
  async askToDelete(bot: BotRow): Promise<void> {
    const counts = await this.shell.attempt(
      this.shell.api.botPosts({ botId: bot.id }),
      `Could not count the posts of “${bot.name}”`,
    );
    if (counts) this.deleting = { bot, ...counts };
  }

  /** Deletes a bot, its posts here settled as chosen (a bot with none needs no choice). */
  remove(bot: BotRow, posts?: BotPostsChoice): Promise<void> {
    this.deleting = null;
    const settle = posts
      ? posts.action === 'move'
        ? { posts: 'move' as const, moveTo: posts.moveTo }
        : { posts: posts.action }
      : {};
    return this.change(
      { kind: 'delete', botId: bot.id, name: bot.name, channel: null, description: null },
      () => this.shell.api.deleteBot({ botId: bot.id, ...settle }),
      `Could not delete “${bot.name}”`,
    );
  }

  /** Opens a bot's posting schedule in the editor. */
  editSchedule(bot: BotRow): void {
    this.schedule = new ScheduleEditor(this.shell, bot.id, bot.name);
    void this.schedule.load();
  }

  /** Follows the core's events; returns the way to stop. */
  watch(): () => void {
    return this.shell.onEvent((event) => {
      this.writes.handle(event);
      // The core announces each saved schedule, so the table follows the dialog's saves.
      if (touchesCache(event) || (event.type === 'changed' && event.what === 'schedules'))
        void this.load();
    });
  }

  /** A change made in the list: a refusal shows as a notice, since no form waits for it. */
  private async change(
    write: BotWriteFields,
    call: () => Promise<CallResult<OutboxItem>>,
    doing: string,
  ): Promise<void> {
    const refused = await this.writes.send(write, call, doing);
    if (refused) this.shell.notices.error(refused, doing);
  }
}
