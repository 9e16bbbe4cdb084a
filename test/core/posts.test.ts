// Editing posts through the core: editable until they go out, locked after, with reasons.
import { describe, expect, it } from 'vitest';
import { InvalidInput, NotAllowed } from '../../main/core/errors';
import { Pressroom } from '../../main/core/pressroom';
import { startTestPlatform } from '../support/platform';

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('post editing', () => {
  it('reschedules a scheduled post in place and keeps one queue item', async () => {
    const pressroom = new Pressroom({ dbFile: ':memory:' });
    const post = pressroom.addPost({ text: 'First', botId: 'bot_1', at: inAnHour(), zone: 'UTC' });
    const later = new Date(Date.now() + 7_200_000);
    const updated = pressroom.updatePost({ id: post.id, text: 'Second', at: later.toISOString() });
    expect(updated).toMatchObject({
      text: 'Second',
      scheduledAt: later.getTime(),
      status: 'scheduled',
    });
    const items = pressroom.store.outbox.list();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ dueAt: later.getTime(), readyAt: later.getTime() });
    expect(() =>
      pressroom.updatePost({ id: post.id, at: '2026-03-29 02:30', zone: 'Europe/Berlin' }),
    ).toThrow(InvalidInput);
    pressroom.close();
  });

  it('queues a draft, and supersedes a failed attempt when queued again', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = new Pressroom({
      dbFile: ':memory:',
      apiBase: platform.server.baseUrl,
      token: platform.server.token,
    });
    const draft = pressroom.addPost({ text: 'Draft', botId: 'bot_999', mode: 'draft' });
    expect(pressroom.store.outbox.list()).toHaveLength(0);
    pressroom.queuePost({ id: draft.id, mode: 'publish_now' });
    await pressroom.publishDue();
    expect(pressroom.store.posts.require(draft.id).status).toBe('failed');
    pressroom.updatePost({ id: draft.id, botId: 'bot_1' });
    pressroom.queuePost({ id: draft.id, mode: 'publish_now' });
    await pressroom.publishDue();
    expect(pressroom.store.posts.require(draft.id).status).toBe('published');
    expect(pressroom.store.outbox.list().map((item) => item.state)).toEqual(['cancelled', 'done']);
    pressroom.close();
  });

  it('locks published and handed-off posts, saying why', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = new Pressroom({
      dbFile: ':memory:',
      apiBase: platform.server.baseUrl,
      token: platform.server.token,
    });
    const published = pressroom.addPost({ text: 'Out', botId: 'bot_1', mode: 'publish_now' });
    const handed = pressroom.addPost({
      text: 'Platform has it',
      botId: 'bot_1',
      at: inAnHour(),
      zone: 'UTC',
      mode: 'hand_off',
    });
    await pressroom.publishDue();
    expect(() => pressroom.updatePost({ id: published.id, text: 'x' })).toThrow(
      new NotAllowed(
        `Post ${published.id} cannot be changed. It is published; API v1 has no way to change a published post.`,
      ),
    );
    expect(() => pressroom.updatePost({ id: handed.id, at: inAnHour() })).toThrow(
      /handed off: the platform publishes it/,
    );
    expect(() => pressroom.queuePost({ id: 999, mode: 'publish_now' })).toThrow('id: no post 999');
    pressroom.close();
  });
});
