// Pull sync against the reference server: every page of everything, merged with local records.
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

describe('pull sync', () => {
  it('fetches every page into the cache, links our posts and keeps platform-only ones read-only', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'pro' });
    const pressroom = testWorkspace({
      platform,
      plan: 'pro',
    });
    const ours = call(pressroom, 'addPost', {
      text: 'Handed off here',
      botId: 'bot_1',
      at: new Date(Date.now() + 3_600_000).toISOString(),
      zone: 'UTC',
      mode: 'hand_off',
    });
    await call(pressroom, 'publishDue');
    expect(pressroom.store.posts.require(ours.id).status).toBe('handed_off');

    const progress: string[] = [];
    const report = await pressroom.queue.sync(({ resource, fetched }) =>
      progress.push(`${resource}:${fetched}`),
    );
    expect(report).toEqual({ bots: 3, posts: 61, products: 40, orders: 80, subscribers: 300 });
    expect(progress).toContain('subscribers:300');
    expect(pressroom.store.cache.counts()).toEqual({ bots: 3, subscribers: 300, orders: 80 });

    const posts = call(pressroom, 'listPosts');
    expect(posts).toHaveLength(61);
    expect(posts.filter((post) => post.origin === 'remote')).toHaveLength(60);
    expect(posts.find((post) => post.id === ours.id)).toMatchObject({
      origin: 'local',
      status: 'handed_off',
    });
    expect(
      pressroom.store.products
        .list()
        .every((product) => product.origin === 'remote' && product.status === 'published'),
    ).toBe(true);

    // When the platform publishes the handed-off post, the next sync says so; nothing is duplicated.
    platform.server.clock.offsetMs = 3_600_001;
    await call(pressroom, 'sync');
    expect(pressroom.store.posts.require(ours.id).status).toBe('published');
    expect(call(pressroom, 'listPosts')).toHaveLength(61);

    // Deleted on the platform: gone from the cache too.
    await platform.client.deleteBot('bot_3');
    await call(pressroom, 'sync');
    expect(pressroom.store.cache.counts().bots).toBe(2);
  });

  it('reports a failing resource and carries on with the rest', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'pro' });
    const pressroom = testWorkspace({
      platform,
      timeoutMs: 500,
      retryRules: { baseMs: 20, capMs: 100, maxAttempts: 3 },
    });
    await platform.admin('PUT', '/faults', { error_rate: 1 });
    const report = await call(pressroom, 'sync');
    expect(report.bots).toEqual({ error: expect.stringContaining('503') });
  });
});

describe('messages and broadcasts', () => {
  it('sends a message and a tag, and broadcasts to every active subscriber with a tag', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
    const pressroom = testWorkspace({
      platform,
      plan: 'enterprise',
    });
    call(pressroom, 'sendMessage', { subscriberId: 'sub_1', text: 'Your bread is ready' });
    call(pressroom, 'addTag', { subscriberId: 'sub_1', tag: 'pickup' });
    const expected = (
      await platform.client.listSubscribers({ tag: 'vip', status: 'active', per_page: 200 })
    ).items.length;
    const { group, recipients } = await call(pressroom, 'broadcast', {
      tag: 'vip',
      text: 'VIP tasting on Friday',
    });
    expect(recipients).toBe(expected);
    expect(call(pressroom, 'broadcastProgress', { group })).toMatchObject({
      queued: expected,
      done: 0,
    });
    await pressroom.queue.publishUntilEmpty();
    expect(call(pressroom, 'broadcastProgress', { group })).toMatchObject({
      queued: 0,
      done: expected,
      failed: 0,
    });
    expect((await platform.client.getSubscriber('sub_1')).tags).toContain('pickup');
    const bad = () => call(pressroom, 'sendMessage', { subscriberId: 'sub_1', text: '' });
    expect(bad).toThrow('text: must not be empty');
  });
});
