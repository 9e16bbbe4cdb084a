// The posting schedule of the bot a post's queue buttons use (browser): read from the core when
// the bot changes, an answer for a bot no longer chosen dropped.
import type { Api } from '../lib/api';
import type { ScheduleAnswer } from './post-words';

export class BotScheduleReader {
  /** The last answer kept, for the bot it was read for. */
  answer = $state.raw<ScheduleAnswer | null>(null);

  constructor(private readonly api: Pick<Api, 'getSchedule'>) {}

  /** Reads `botId`'s schedule unless it is the one kept; kept only if `current()` still names it. */
  async read(botId: string | null, current: () => string | null): Promise<void> {
    if (!botId || this.answer?.botId === botId) return;
    const result = await this.api.getSchedule({ botId });
    if (botId === current()) this.answer = { botId, result };
  }
}
