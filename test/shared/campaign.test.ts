import { describe, expect, it } from 'vitest';
import {
  campaignMessages,
  estimateCampaign,
  estimateTokens,
  parseCampaignReply,
} from '../../shared/campaign';
import { generateReply } from '../../main/reference-server/ai-replies';

const brief = {
  brief: 'Our new rye sourdough launches Saturday at the Kreuzberg shop.',
  count: 3,
  tone: 'friendly' as const,
  hashtags: false,
};

describe('parseCampaignReply', () => {
  it('reads numbered lists in their common forms, without the introduction and the sign-off', () => {
    const replies = [
      '1. Rye is back!\n2) Taste it Saturday.\n3: See you there.',
      'Here are 3 posts:\n\n1. Rye is back!\n\n2. Taste it Saturday.\n\n3. See you there.\n\nWant more?',
      '**1.** Rye is back!\n**2.** Taste it Saturday.\n**3.** See you there.',
      '**Post 1:** Rye is back!\n**Post 2:** Taste it Saturday.\n**Post 3:** See you there.',
      'Post 1\n"Rye is back!"\n\nPost 2\n“Taste it Saturday.”\n\nPost 3\nSee you there.',
      '1 - Rye is back!\n2 – Taste it Saturday.\n3 — See you there.',
      '```\n1. Rye is back!\n2. Taste it Saturday.\n3. See you there.\n```',
    ];
    for (const reply of replies)
      expect(parseCampaignReply(reply, 3)).toEqual([
        'Rye is back!',
        'Taste it Saturday.',
        'See you there.',
      ]);
  });

  it('keeps a post’s own lines, and numbers out of the 1, 2, 3 sequence inside it', () => {
    const reply =
      '1. Saturday hours:\n9 - 12 in Kreuzberg\n2. Free tasting.\n3. 2026 starts with bread.';
    expect(parseCampaignReply(reply, 3)).toEqual([
      'Saturday hours:\n9 - 12 in Kreuzberg',
      'Free tasting.',
      '2026 starts with bread.',
    ]);
  });

  it('falls back to bullets, then to paragraphs, and keeps at most the posts asked for', () => {
    expect(parseCampaignReply('- Rye is back!\n* Taste it.\n• See you.', 3)).toEqual([
      'Rye is back!',
      'Taste it.',
      'See you.',
    ]);
    expect(
      parseCampaignReply('Here you go:\n\nRye is back!\n\n---\n\nTaste it.\n\nSee you.', 2),
    ).toEqual(['Rye is back!', 'Taste it.']);
  });

  it('leaves out the last post of an answer cut at the token limit, and answers [] for nothing', () => {
    expect(parseCampaignReply('1. Rye is back!\n2. Taste it Sat', 3, true)).toEqual([
      'Rye is back!',
    ]);
    expect(parseCampaignReply('1. Rye\n2. Taste\n3. See\n4. Cut', 3, true)).toEqual([
      'Rye',
      'Taste',
      'See',
    ]);
    expect(parseCampaignReply('  \n', 3)).toEqual([]);
  });

  it('reads the reference server’s answer to the request as the posts asked for', () => {
    const messages = campaignMessages({ ...brief, hashtags: true });
    const reply = generateReply(messages, estimateCampaign(brief).maxTokens, 'lark');
    const posts = parseCampaignReply(reply.content, 3);
    expect(posts).toHaveLength(3);
    for (const post of posts) {
      expect(post).toMatch(/rye sourdough/i);
      expect(post).toMatch(/#\w+$/);
      expect(post).not.toMatch(/^\d/);
    }
  });
});

describe('estimateCampaign', () => {
  it('counts the request’s characters at 4 a token, and budgets each post', () => {
    const estimate = estimateCampaign(brief);
    const prompt = campaignMessages(brief).reduce(
      (sum, message) => sum + estimateTokens(message.content) + 4,
      0,
    );
    expect(estimate).toEqual({
      prompt,
      completion: 3 * 45,
      total: prompt + 3 * 45,
      maxTokens: 3 * 90 + 60,
    });
    expect(estimateCampaign({ ...brief, count: 14 }).maxTokens).toBeLessThanOrEqual(4096);
  });
});
