// Bots (Node, main process): the bots the platform knows (from the cache), and the user's changes
// to them, which go through the outbox like every other write. Deleting one first settles its
// posts here as the user chose, so none is left to fail for want of its bot.
import type { CheckedInput } from '../../../shared/contract';
import type { BotPostCounts, BotSummary, LocalPost, OutboxItem } from '../../../shared/domain';
import { NOT_GONE_OUT } from '../../../shared/domain';
import type { CacheStore } from '../../store/cache';
import type { PostsStore } from '../../store/posts';
import type { Transactional } from '../../store/transaction';
import { NotAllowed } from '../errors';
import type { Outbox } from '../outbox';
import type { PostsService } from './posts';

/** The posts of ours a bot's deletion concerns: scheduled, or not gone out (drafts, failed, missed). */
const CONCERNED = new Set<LocalPost['status']>(['scheduled', ...NOT_GONE_OUT]);

/** What bots reads of the store: the platform's bots (the cache) and our posts of each. */
export interface BotsData extends Transactional {
  cache: CacheStore;
  posts: PostsStore;
}

export class BotsService {
  constructor(
    private readonly store: BotsData,
    private readonly outbox: Outbox,
    private readonly posts: PostsService,
  ) {}

  listBots(): BotSummary[] {
    return this.store.cache.bots();
  }

  createBot(input: CheckedInput<'createBot'>): OutboxItem {
    const bot = input;
    return this.outbox.enqueueUserWrite('create_bot', {
      name: bot.name,
      channel: bot.channel,
      ...(bot.description ? { description: bot.description } : {}),
    });
  }

  renameBot(input: CheckedInput<'renameBot'>): OutboxItem {
    const { botId, name } = input;
    return this.outbox.enqueueUserWrite('update_bot', { id: botId, name });
  }

  /**
   * What a bot's deletion concerns: its posts here (to settle first), and what the platform
   * deletes with it (the posts it was to publish itself, the subscribers), so the question
   * counts everything that goes.
   */
  botPosts(input: CheckedInput<'botPosts'>): BotPostCounts {
    const { botId } = input;
    const posts = this.postsOf(botId);
    const scheduled = posts.filter((post) => post.status === 'scheduled').length;
    const onPlatform = this.store.posts.list({
      botId,
      origin: 'remote',
      status: 'scheduled',
    }).length;
    return {
      scheduled,
      drafts: posts.length - scheduled,
      onPlatform,
      subscribers: this.store.cache.subscriberCount(botId),
    };
  }

  deleteBot(input: CheckedInput<'deleteBot'>): OutboxItem {
    const { botId, posts: choice, moveTo } = input;
    return this.store.transaction(() => {
      const posts = this.postsOf(botId);
      if (posts.length > 0 && !choice)
        throw new NotAllowed(
          `The bot still has ${posts.length} post(s) here: choose to move them to another bot, make them drafts, or delete them`,
        );
      for (const post of posts) {
        const { id } = post;
        if (choice === 'delete') this.posts.deletePost({ id });
        else if (choice === 'move')
          this.posts.updatePost({ id, botId: moveTo, allowDuplicate: true });
        else {
          if (post.status === 'scheduled') this.posts.moveToDrafts({ id });
          this.posts.updatePost({ id, botId: null, allowDuplicate: false });
        }
      }
      return this.outbox.enqueueUserWrite('delete_bot', { id: botId });
    });
  }

  /** Read by the bot and origin in SQL: a synced history can hold hundreds of thousands of posts. */
  private postsOf(botId: string): LocalPost[] {
    return this.store.posts
      .list({ botId, origin: 'local' })
      .filter((post) => CONCERNED.has(post.status));
  }
}
