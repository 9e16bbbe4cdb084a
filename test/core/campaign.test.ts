// AI campaign drafts against the reference server: N posts from one brief with the tokens
// estimated before and counted after, saved as drafts or into free slots, and a failing provider
// answered with the server's message while nothing is saved.
import { describe, expect, it } from 'vitest';
import { estimateCampaign } from '../../shared/campaign';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { call, invoke } from '../../main/core/operations';
import { PlatformError } from '../../main/platform/errors';
import { rejectedBy } from '../support/calls';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { openDemoSession } from '../support/session';

const BRIEF =
  'Our new rye sourdough launches Saturday at the Kreuzberg shop. Free tasting from 9 to 12, and every loaf is baked the night before.';

async function connected(): Promise<{ pressroom: Workspace; platform: TestPlatform }> {
  const platform = await startTestPlatform({ seed: 'demo' });
  const pressroom = testWorkspace({ platform });
  return { pressroom, platform };
}

describe('AI campaign drafts', () => {
  it('drafts N posts for a bot, with the tokens estimated before and counted after', async () => {
    const { pressroom } = await connected();
    await call(pressroom, 'sync');
    const bot = call(pressroom, 'listBots')[0]!;
    const synced = call(pressroom, 'listPosts');
    for (const count of [5, 14]) {
      const campaign = await call(pressroom, 'draftCampaign', {
        brief: BRIEF,
        count,
        botId: bot.id,
        hashtags: true,
      });
      expect(campaign).toMatchObject({ requested: count, truncated: false });
      expect(campaign.drafts).toHaveLength(count);
      expect(new Set(campaign.drafts).size).toBe(count);
      for (const draft of campaign.drafts) {
        expect(draft).toMatch(/rye sourdough/i);
        expect(draft).toMatch(/#\w+$/);
      }
      expect(['lark', 'heron', 'owl']).toContain(campaign.provider);
      expect(campaign.estimate).toEqual(
        estimateCampaign({
          brief: BRIEF,
          count,
          tone: 'friendly',
          hashtags: true,
          channel: bot.channel,
          botName: bot.name,
        }),
      );
      // The reference server counts tokens as the estimate does, so the prompt matches exactly.
      expect(campaign.tokens.prompt).toBe(campaign.estimate.prompt);
      expect(campaign.tokens.completion).toBeLessThanOrEqual(campaign.estimate.maxTokens);
      expect(campaign.tokens.total).toBe(campaign.tokens.prompt + campaign.tokens.completion);
    }
    expect(call(pressroom, 'listPosts')).toEqual(synced);
  });

  it('saves the kept drafts as drafts, or each in the bot’s next free slot', async () => {
    const { pressroom } = await connected();
    const { drafts } = await call(pressroom, 'draftCampaign', { brief: BRIEF, count: 4 });
    const saved = call(pressroom, 'saveCampaignDrafts', {
      drafts: drafts.slice(0, 2),
      botId: 'bot_1',
    });
    expect(saved.map((post) => [post.status, post.scheduledAt, post.botId])).toEqual([
      ['draft', null, 'bot_1'],
      ['draft', null, 'bot_1'],
    ]);
    expect(pressroom.store.outbox.list()).toEqual([]);

    const schedule = call(pressroom, 'setSchedule', {
      botId: 'bot_1',
      schedule: 'mon-sun 09:00,17:00',
    });
    const slotted = call(pressroom, 'saveCampaignDrafts', {
      drafts: drafts.slice(2),
      botId: 'bot_1',
      placement: 'slots',
    });
    expect(slotted.map((post) => post.status)).toEqual(['scheduled', 'scheduled']);
    expect(slotted.map((post) => post.scheduledAt)).toEqual(schedule.nextFree.slice(0, 2));
    expect(pressroom.store.outbox.list()).toHaveLength(2);
  });

  it('saves none of the drafts when one repeats a post, until allowed', async () => {
    const { pressroom } = await connected();
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-sun 09:00,17:00' });
    const queued = call(pressroom, 'addToQueue', { text: 'Rye is back', botId: 'bot_1' });
    const drafts = ['Tasting on Saturday', 'RYE is back'];
    expect(() =>
      call(pressroom, 'saveCampaignDrafts', { drafts, botId: 'bot_1', placement: 'slots' }),
    ).toThrow(`The same text as post ${queued.id} of bot_1`);
    expect(call(pressroom, 'listPosts')).toHaveLength(1);
    expect(
      call(pressroom, 'saveCampaignDrafts', {
        drafts,
        botId: 'bot_1',
        placement: 'slots',
        allowDuplicate: true,
      }),
    ).toHaveLength(2);
  });

  it('answers a failing provider with the server’s message and changes nothing', async () => {
    const { session, platform } = await openDemoSession();
    for (const provider of ['lark', 'heron', 'owl'])
      await platform.admin('PUT', `/ai/providers/${provider}`, { failure_rate: 1 });
    expect(await invoke(session, 'draftCampaign', { brief: BRIEF, count: 3 })).toEqual({
      ok: false,
      error: {
        kind: 'platform',
        message:
          'POST /ai/chat: 503 ai_unavailable: Every AI provider tried failed (lark, heron, owl)',
        // Each provider tried, with its own failure, from the answer's details.
        issues: ['lark', 'heron', 'owl'].map((provider) => ({
          field: provider,
          message: expect.stringMatching(new RegExp(`^${provider}: `)),
        })),
      },
    });
    const named = await rejectedBy(
      call(session.current, 'draftCampaign', { brief: BRIEF, count: 3, provider: 'owl' }),
    );
    expect(named).toBeInstanceOf(PlatformError);
    expect((named as PlatformError).serverMessage).toBe('Every AI provider tried failed (owl)');
    expect(call(session.current, 'listPosts')).toEqual([]);
    expect(session.current.store.outbox.list()).toEqual([]);
  });
});
