// AI (Node, main process): the platform's AI assist on a post, campaign drafts from a brief and
// saving the ones the user kept, and the AI usage report.
import type { AI_TASKS, CheckedInput } from '../../../shared/contract';
import type {
  AiAnswerInfo,
  AiAssistReply,
  AiUsageDay,
  CampaignDrafts,
  LocalPost,
} from '../../../shared/domain';
import { PRIORITY } from '../../../shared/domain';
import { campaignMessages, estimateCampaign, parseCampaignReply } from '../../../shared/campaign';
import type { AiChat } from '../../platform/normalize';
import type { CacheStore } from '../../store/cache';
import type { PostsStore } from '../../store/posts';
import type { Transactional } from '../../store/transaction';
import type { CoreEvents } from '../events';
import type { GovernedClient } from '../governed-client';
import type { PlanningService } from './planning';
import type { SettingsService } from './settings';

const AI_INSTRUCTIONS: Record<(typeof AI_TASKS)[number], string> = {
  draft:
    'Write one social media post from the brief the user gives. Answer with the post text only.',
  shorten:
    'Shorten the user’s social media post, keeping its meaning and tone. Answer with the post only.',
  rephrase:
    'Rephrase the user’s social media post with fresh wording, same meaning and length. Answer with the post only.',
  hashtags:
    'Suggest three to five relevant hashtags for the user’s social media post. Answer with the hashtags only, separated by spaces.',
};

/** Who answered an AI request, and what it cost, as the UI shows it. */
function answerInfo(answer: AiChat): AiAnswerInfo {
  return {
    provider: answer.provider,
    model: answer.model,
    tokens: {
      prompt: answer.usage.prompt_tokens,
      completion: answer.usage.completion_tokens,
      total: answer.usage.total_tokens,
    },
    attempts: answer.attempts.map((attempt) => ({
      provider: attempt.provider,
      error: attempt.error ?? null,
    })),
  };
}

/** What AI reads and writes of the store: the platform's bots, and the drafts it saves. */
export interface AiData extends Transactional {
  cache: CacheStore;
  posts: PostsStore;
}

export class AiService {
  constructor(
    private readonly store: AiData,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly platform: GovernedClient,
    private readonly settings: SettingsService,
    private readonly planning: PlanningService,
  ) {}

  /** Asks the platform's AI for a draft, a shorter or reworded text, or hashtags. */
  async aiAssist(input: CheckedInput<'aiAssist'>): Promise<AiAssistReply> {
    const { task, text, provider } = input;
    const client = this.platform.require();
    const answer = await this.platform.gated(PRIORITY.user, () =>
      client.aiChat({
        messages: [
          { role: 'system', content: AI_INSTRUCTIONS[task] },
          { role: 'user', content: text },
        ],
        max_tokens: task === 'hashtags' ? 60 : 400,
        ...(provider ? { provider } : {}),
      }),
    );
    return { text: answer.message.content.trim(), ...answerInfo(answer) };
  }

  /**
   * Asks the platform's AI for `count` posts from a brief, and reads them out of its answer.
   * Nothing is saved: a failure leaves the workspace as it was.
   */
  async draftCampaign(request: CheckedInput<'draftCampaign'>): Promise<CampaignDrafts> {
    const client = this.platform.require();
    const botId = request.botId ?? this.settings.defaultBotId();
    const bot = this.store.cache.bots().find((candidate) => candidate.id === botId);
    const brief = {
      brief: request.brief,
      count: request.count,
      tone: request.tone,
      hashtags: request.hashtags,
      channel: bot?.channel ?? null,
      botName: bot?.name ?? null,
    };
    const estimate = estimateCampaign(brief);
    const answer = await this.platform.gated(PRIORITY.user, () =>
      client.aiChat({
        messages: campaignMessages(brief),
        max_tokens: estimate.maxTokens,
        ...(request.provider ? { provider: request.provider } : {}),
      }),
    );
    const truncated = answer.finish_reason === 'length';
    return {
      drafts: parseCampaignReply(answer.message.content, request.count, truncated),
      requested: request.count,
      estimate,
      truncated,
      ...answerInfo(answer),
    };
  }

  /** Saves the campaign drafts the user kept, as drafts or each in the bot's next free slot. */
  saveCampaignDrafts(input: CheckedInput<'saveCampaignDrafts'>): LocalPost[] {
    const { drafts, placement, allowDuplicate, ...request } = input;
    const zone = this.settings.zone();
    const botId = request.botId ?? this.settings.defaultBotId();
    const saved = this.store.transaction(() => {
      if (placement === 'drafts')
        return drafts.map((text) =>
          this.store.posts.create({ botId, text, mediaUrls: [], scheduledAt: null, zone }),
        );
      return this.planning.placeInNextSlots(drafts, botId, allowDuplicate, zone);
    });
    this.events.emit({ type: 'changed', what: 'posts' });
    return saved;
  }

  /** Tokens per day and provider over the last `days` days (UTC dates, as the platform counts). */
  async aiUsage(input: CheckedInput<'aiUsage'>): Promise<AiUsageDay[]> {
    const { days } = input;
    const client = this.platform.require();
    const to = new Date(this.now());
    const from = new Date(this.now() - (days - 1) * 86_400_000);
    const report = await this.platform.gated(PRIORITY.user, () =>
      client.aiUsage({ from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) }),
    );
    return report.data.map((day) => ({
      date: day.date,
      totalTokens: day.total_tokens,
      providers: day.providers.map((entry) => ({
        provider: entry.provider,
        totalTokens: entry.total_tokens,
        requests: entry.requests,
      })),
    }));
  }
}
