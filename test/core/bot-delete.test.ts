// Deleting a bot does to its posts what its confirm says: counted first, then moved to another
// bot, made drafts without a bot, or deleted, so none is left scheduled to fail for want of it.
import { describe, expect, it } from 'vitest';
import { openDemoSession, operationsOf } from '../support/session';

async function workspace() {
  const { session } = await openDemoSession();
  const { call, value } = operationsOf(session);
  await value('sync');
  const [bot, other] = await value('listBots');
  const at = new Date(Date.now() + 5 * 86_400_000).toISOString();
  const scheduled = await value('addPost', { text: 'Pop-up stand at noon', botId: bot!.id, at });
  const draft = await value('addPost', {
    text: 'Idea for the stand',
    botId: bot!.id,
    mode: 'draft',
  });
  // Ours not gone out: the platform's own posts and published ones are not the bot's to leave.
  const mine = (await value('listPosts')).filter(
    (post) =>
      post.botId === bot!.id &&
      post.origin === 'local' &&
      ['scheduled', 'draft', 'failed', 'missed'].includes(post.status),
  );
  return { call, value, bot: bot!, other: other!, scheduled, draft, mine };
}

describe('deleting a bot', () => {
  it('counts its scheduled posts and drafts, and refuses to leave them behind unasked', async () => {
    const { call, value, bot, mine } = await workspace();
    const counts = await value('botPosts', { botId: bot.id });
    expect(counts.scheduled + counts.drafts).toBe(mine.length);
    expect(counts.scheduled).toBeGreaterThanOrEqual(1);
    expect(counts.drafts).toBeGreaterThanOrEqual(1);
    expect(await call('deleteBot', { botId: bot.id })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/move them to another bot/) },
    });
    expect(await call('deleteBot', { botId: bot.id, posts: 'move' })).toMatchObject({
      ok: false,
    });
  });

  it('counts what goes with it on the platform: its scheduled posts there and its subscribers', async () => {
    const { value } = await workspace();
    // The demo's bots each have posts the platform itself will publish, and subscribers; the
    // Queue lists those posts, so the question must not say the bot has none.
    const posts = await value('listPosts');
    const subscribers = (await value('listSubscribers', { limit: 1000 })).rows;
    for (const bot of await value('listBots')) {
      const counts = await value('botPosts', { botId: bot.id });
      const theirs = posts.filter(
        (post) => post.botId === bot.id && post.origin === 'remote' && post.status === 'scheduled',
      );
      expect(counts.onPlatform).toBe(theirs.length);
      expect(counts.subscribers).toBe(subscribers.filter((s) => s.botId === bot.id).length);
    }
    const totals = await Promise.all(
      (await value('listBots')).map((bot) => value('botPosts', { botId: bot.id })),
    );
    expect(totals.some((counts) => counts.onPlatform > 0)).toBe(true);
    expect(totals.some((counts) => counts.subscribers > 0)).toBe(true);
  });

  it('moves them to another bot, still scheduled', async () => {
    const { value, bot, other, scheduled, draft } = await workspace();
    await value('deleteBot', { botId: bot.id, posts: 'move', moveTo: other.id });
    const posts = await value('listPosts');
    expect(posts.find((post) => post.id === scheduled.id)).toMatchObject({
      botId: other.id,
      status: 'scheduled',
    });
    expect(posts.find((post) => post.id === draft.id)).toMatchObject({ botId: other.id });
    expect(await value('botPosts', { botId: bot.id })).toMatchObject({ scheduled: 0, drafts: 0 });
  });

  it('makes them drafts without a bot, or deletes them', async () => {
    const first = await workspace();
    await first.value('deleteBot', { botId: first.bot.id, posts: 'draft' });
    const drafted = (await first.value('listPosts')).find((post) => post.id === first.scheduled.id);
    expect(drafted).toMatchObject({ status: 'draft', botId: null });
    const rows = await first.value('listQueue', {});
    expect(rows.some((row) => row.postId === first.scheduled.id && row.group === 'next')).toBe(
      false,
    );

    const second = await workspace();
    await second.value('deleteBot', { botId: second.bot.id, posts: 'delete' });
    const left = (await second.value('listPosts')).map((post) => post.id);
    expect(left).not.toContain(second.scheduled.id);
    expect(left).not.toContain(second.draft.id);
  });
});
