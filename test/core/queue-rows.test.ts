// The Queue as a schedule of posts: listQueue on a demo workspace synced from the reference server.
import { describe, expect, it } from 'vitest';
import { seedDemoWorkspace } from '../../main/core/demo-workspace';
import { invoke } from '../../main/core/operations';
import type { OperationName } from '../../shared/contract';
import type { OperationResults } from '../../shared/answers';
import { openDemoSession } from '../support/session';

async function workspace() {
  const { session } = await openDemoSession();
  async function value<K extends OperationName>(
    operation: K,
    input: unknown = {},
  ): Promise<OperationResults[K]> {
    const result = await invoke(session, operation, input);
    if (!result.ok) throw new Error(`${operation}: ${result.error.message}`);
    return result.value as OperationResults[K];
  }
  // As the app opens a demo workspace: synced from the platform, then given work of its own.
  await value('sync');
  seedDemoWorkspace(session.current);
  return { value };
}

describe('the queue as a schedule of posts', () => {
  it('lists what goes next first, the platform’s scheduled posts among ours, with bot and words', async () => {
    const { value } = await workspace();
    const now = Date.now();
    const bots = await value('listBots');
    const scheduled = (await value('listPosts', { status: 'scheduled' })).filter(
      (post) => (post.scheduledAt ?? 0) >= now,
    );
    const remote = scheduled.filter((post) => post.origin === 'remote');
    expect(remote.length).toBeGreaterThan(0);
    const soonest = scheduled.reduce((a, b) =>
      (a.scheduledAt ?? 0) <= (b.scheduledAt ?? 0) ? a : b,
    );

    const withMedia = await value('addPost', {
      text: 'Rye loaves, photographed',
      botId: bots[1]!.id,
      at: new Date(now + 3 * 86_400_000).toISOString(),
      mediaUrls: ['http://cdn.example/plain.jpg', 'https://cdn.example/rye.jpg'],
    });
    const product = (await value('listProducts', { limit: 50 })).rows.find(
      (candidate) => candidate.sku === 'DEMO-BRUNCH-BOX',
    )!;
    await value('queueProducts', { ids: [product.id] });
    const subscriber = (await value('listSubscribers', {})).rows[0]!;
    await value('sendMessage', { subscriberId: subscriber.id, text: 'Your order is ready' });
    const cancelled = await value('addPost', {
      text: 'Never mind',
      at: new Date(now + 86_400_000).toISOString(),
    });
    const cancelledRow = (await value('listQueue', {})).find((row) => row.postId === cancelled.id)!;
    await value('cancelItem', { id: cancelledRow.item!.id });

    const rows = await value('listQueue', {});
    const next = rows.filter((row) => row.group === 'next');
    expect(rows.slice(0, next.length)).toEqual(next);
    expect(next.map((row) => row.at)).toEqual([...next.map((row) => row.at)].sort((a, b) => a - b));
    expect(rows.at(-1)).toMatchObject({ group: 'past', postId: cancelled.id });

    // Posts' due rows come by their time; the first is the soonest scheduled post, ours or not.
    const firstPost = next.find((row) => row.postId !== null)!;
    expect(firstPost).toMatchObject({ postId: soonest.id, at: soonest.scheduledAt });

    const onPlatform = rows.filter((row) => row.onPlatform);
    expect(onPlatform.map((row) => row.postId).sort()).toEqual(
      remote.map((post) => post.id).sort(),
    );
    const firstRemote = remote[0]!;
    expect(onPlatform.find((row) => row.postId === firstRemote.id)).toMatchObject({
      group: 'next',
      item: null,
      postStatus: 'scheduled',
      at: firstRemote.scheduledAt,
      bot: { id: firstRemote.botId, name: bots.find((bot) => bot.id === firstRemote.botId)!.name },
    });

    expect(rows.find((row) => row.postId === withMedia.id)).toMatchObject({
      title: 'Rye loaves, photographed',
      bot: { id: bots[1]!.id, name: bots[1]!.name, channel: bots[1]!.channel },
      thumbnailUrl: null, // a web address: the page does not fetch it
      postStatus: 'scheduled',
      onPlatform: false,
      item: { kind: 'create_post', state: 'queued' },
    });
    expect(rows.find((row) => row.item?.productId === product.id)).toMatchObject({
      group: 'next',
      title: 'Product DEMO-BRUNCH-BOX — Weekend brunch box (draft)',
      postStatus: null,
    });
    expect(rows.find((row) => row.item?.kind === 'send_message')?.title).toBe(
      `Message to ${subscriber.name}`,
    );
  });

  it('lists items only when filtered by state, as a platform post has no item', async () => {
    const { value } = await workspace();
    const rows = await value('listQueue', { states: ['queued'] });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.item?.state === 'queued' && !row.onPlatform)).toBe(true);
  });

  it('lists what failed before everything else, its bot by name even when the bot is gone', async () => {
    const { value } = await workspace();
    const orphan = await value('addPost', {
      text: 'For a bot since deleted',
      botId: 'bot_gone',
      mode: 'publish_now',
    });
    await value('publishDue');
    const rows = await value('listQueue', { limit: 5 });
    expect(rows[0]).toMatchObject({
      group: 'attention',
      postId: orphan.id,
      bot: { id: 'bot_gone', name: 'A bot no longer on the platform' },
      item: { state: 'failed', fieldErrors: [{ field: 'bot_id' }] },
    });
    expect(rows.filter((row) => row.group === 'next').length).toBeGreaterThan(0);
  });
});
