// Bots (Node, main process): the bots the platform knows (from the cache), and the user's changes
// to them, which go through the outbox like every other write.
import type { OperationInput } from '../../../shared/contract';
import type { BotSummary, OutboxItem } from '../../../shared/domain';
import type { WorkspaceStore } from '../../store';
import { validate } from '../input';
import type { QueueService } from './queue';

export class BotsService {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly queue: QueueService,
  ) {}

  listBots(): BotSummary[] {
    return this.store.cache.bots();
  }

  createBot(input: OperationInput<'createBot'>): OutboxItem {
    const bot = validate('createBot', input);
    return this.queue.enqueueUserWrite('create_bot', {
      name: bot.name,
      channel: bot.channel,
      ...(bot.description ? { description: bot.description } : {}),
    });
  }

  renameBot(input: OperationInput<'renameBot'>): OutboxItem {
    const { botId, name } = validate('renameBot', input);
    return this.queue.enqueueUserWrite('update_bot', { id: botId, name });
  }

  deleteBot(input: OperationInput<'deleteBot'>): OutboxItem {
    const { botId } = validate('deleteBot', input);
    return this.queue.enqueueUserWrite('delete_bot', { id: botId });
  }
}
