// Editing posts through the core: editable until they go out, locked after, with reasons.
import { describe, expect, it } from 'vitest';
import { InvalidInput, NotAllowed } from '../../main/core/errors';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';
import { thrownBy } from '../support/calls';
import { postsOnPlatform } from '../support/team-desktop';
import { PRIORITY } from '../../shared/domain';

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** A post of bot_1 scheduled in an hour (UTC). */
const scheduledPost = (pressroom: Workspace, text: string, at = inAnHour()) =>
  call(pressroom, 'addPost', { text, botId: 'bot_1', at, zone: 'UTC' });

describe('post editing', () => {
  it('reschedules a scheduled post in place and keeps one queue item', async () => {
    const pressroom = testWorkspace();
    const post = scheduledPost(pressroom, 'First');
    const later = new Date(Date.now() + 7_200_000);
    const updated = call(pressroom, 'updatePost', {
      id: post.id,
      text: 'Second',
      at: later.toISOString(),
    });
    expect(updated).toMatchObject({
      text: 'Second',
      scheduledAt: later.getTime(),
      status: 'scheduled',
    });
    const items = pressroom.store.outbox.list();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ dueAt: later.getTime(), readyAt: later.getTime() });
    expect(
      thrownBy(() =>
        call(pressroom, 'updatePost', {
          id: post.id,
          at: '2026-03-29 02:30',
          zone: 'Europe/Berlin',
        }),
      ),
    ).toBeInstanceOf(InvalidInput);
  });

  it('deletes a scheduled post or moves it to the drafts, until its first attempt begins', () => {
    const pressroom = testWorkspace();
    const at = inAnHour();
    const kept = call(pressroom, 'addPost', { text: 'Keep me', botId: 'bot_1', at, zone: 'UTC' });
    const drafted = call(pressroom, 'moveToDrafts', { id: kept.id });
    expect(drafted).toMatchObject({ status: 'draft', scheduledAt: Date.parse(at) });
    expect(pressroom.store.outbox.list().map((item) => item.state)).toEqual(['cancelled']);
    // Already a draft: nothing to do.
    expect(call(pressroom, 'moveToDrafts', { id: kept.id })).toMatchObject({ status: 'draft' });

    const gone = call(pressroom, 'addPost', { text: 'Delete me', botId: 'bot_1', at, zone: 'UTC' });
    expect(call(pressroom, 'deletePost', { id: gone.id })).toEqual({ removed: 1 });
    expect(pressroom.store.posts.get(gone.id)).toBeUndefined();

    // An attempt whose outcome is still being settled stays where it is.
    const trying = call(pressroom, 'addPost', {
      text: 'In flight',
      botId: 'bot_1',
      at,
      zone: 'UTC',
    });
    const item = pressroom.store.outbox.openFor({ postId: trying.id })!;
    pressroom.store.db
      .prepare("UPDATE outbox SET state = 'retrying', attempts = 1 WHERE id = ?")
      .run(item.id);
    expect(thrownBy(() => call(pressroom, 'deletePost', { id: trying.id }))).toBeInstanceOf(
      NotAllowed,
    );
    expect(() => call(pressroom, 'moveToDrafts', { id: trying.id })).toThrow(
      /being sent or retried; cancel it in the Queue/,
    );
    expect(pressroom.store.posts.get(trying.id)).toBeDefined();
    pressroom.close();
  });

  it('queues a draft, and supersedes a failed attempt when queued again', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = testWorkspace({
      platform,
    });
    const draft = call(pressroom, 'addPost', { text: 'Draft', botId: 'bot_999', mode: 'draft' });
    expect(pressroom.store.outbox.list()).toHaveLength(0);
    call(pressroom, 'queuePost', { id: draft.id, mode: 'publish_now' });
    await call(pressroom, 'publishDue');
    expect(pressroom.store.posts.require(draft.id).status).toBe('failed');
    call(pressroom, 'updatePost', { id: draft.id, botId: 'bot_1' });
    call(pressroom, 'queuePost', { id: draft.id, mode: 'publish_now' });
    await call(pressroom, 'publishDue');
    expect(pressroom.store.posts.require(draft.id).status).toBe('published');
    expect(pressroom.store.outbox.list().map((item) => item.state)).toEqual(['cancelled', 'done']);
  });

  it('publishes a scheduled post now, once: its waiting item goes, and nothing goes at its time', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    let shift = 0;
    const pressroom = testWorkspace({ platform, now: () => Date.now() + shift });
    const at = inAnHour();
    const post = call(pressroom, 'addPost', {
      text: 'Early bird',
      botId: 'bot_1',
      at,
      zone: 'UTC',
    });
    const [waiting] = pressroom.store.outbox.list();
    expect(call(pressroom, 'queuePost', { id: post.id, mode: 'publish_now' })).toMatchObject({
      status: 'scheduled',
    });
    expect(pressroom.store.outbox.list()).toEqual([
      expect.objectContaining({ id: waiting!.id, state: 'queued', priority: PRIORITY.user }),
    ]);
    await call(pressroom, 'publishDue');
    expect(pressroom.store.posts.require(post.id).status).toBe('published');
    // Its time comes: nothing is left to send, and asking again is refused.
    shift = Date.parse(at) - Date.now() + 60_000;
    await call(pressroom, 'publishDue');
    expect(pressroom.store.outbox.list().map((item) => item.state)).toEqual(['done']);
    expect(await postsOnPlatform(platform, 'Early bird')).toBe(1);
    expect(() => call(pressroom, 'queuePost', { id: post.id, mode: 'publish_now' })).toThrow(
      /It is published/,
    );
  });

  it('refuses Publish now for a post being retried, and for a handed-off one', () => {
    const pressroom = testWorkspace();
    const retrying = scheduledPost(pressroom, 'On its way');
    const [item] = pressroom.store.outbox.list();
    pressroom.store.db
      .prepare("UPDATE outbox SET state = 'retrying', attempts = 1 WHERE id = ?")
      .run(item!.id);
    expect(() => call(pressroom, 'queuePost', { id: retrying.id, mode: 'publish_now' })).toThrow(
      `Post ${retrying.id} is queued already`,
    );
    const handed = call(pressroom, 'addPost', {
      text: 'The platform has it',
      botId: 'bot_1',
      at: inAnHour(),
      zone: 'UTC',
      mode: 'hand_off',
    });
    expect(() => call(pressroom, 'queuePost', { id: handed.id, mode: 'publish_now' })).toThrow(
      `queued already`,
    );
  });

  it('locks published and handed-off posts, saying why', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = testWorkspace({
      platform,
    });
    const published = call(pressroom, 'addPost', {
      text: 'Out',
      botId: 'bot_1',
      mode: 'publish_now',
    });
    const handed = call(pressroom, 'addPost', {
      text: 'Platform has it',
      botId: 'bot_1',
      at: inAnHour(),
      zone: 'UTC',
      mode: 'hand_off',
    });
    await call(pressroom, 'publishDue');
    expect(thrownBy(() => call(pressroom, 'updatePost', { id: published.id, text: 'x' }))).toEqual(
      new NotAllowed(
        `Post ${published.id} cannot be changed. It is published; API v1 has no way to change a published post.`,
      ),
    );
    expect(() => call(pressroom, 'updatePost', { id: handed.id, at: inAnHour() })).toThrow(
      /handed off: the platform publishes it/,
    );
    expect(() => call(pressroom, 'queuePost', { id: 999, mode: 'publish_now' })).toThrow(
      'id: no post 999',
    );
  });
});

describe('the calendar’s range', () => {
  const zone = 'Europe/Berlin';
  /** 23 and 24 November 2099, Berlin's days: [23:00 UTC on the 22nd, 23:00 UTC on the 24th). */
  const range = { from: Date.UTC(2099, 10, 22, 23), to: Date.UTC(2099, 10, 24, 23), zone };

  function workspace() {
    const pressroom = testWorkspace();
    const add = (text: string, at: string, fields: { botId?: string; mode?: 'draft' } = {}) =>
      call(pressroom, 'addPost', { text, at, zone: 'UTC', botId: 'bot_1', ...fields }).id;
    const ids = [
      add('Rye', '2099-11-23T08:00Z'),
      add('Spelt', '2099-11-23T09:00Z', { mode: 'draft' }),
      add('Oat', '2099-11-23T10:00Z'),
      add('Barley', '2099-11-23T11:00Z'),
      // Half past midnight in Berlin: the 24th there.
      add('Midnight', '2099-11-23T23:30Z'),
      add('No bot', '2099-11-24T12:00Z', { botId: undefined }),
      // The 25th in Berlin: after the range.
      add('Too late', '2099-11-24T23:30Z'),
    ];
    const undated = call(pressroom, 'addPost', { text: 'Someday', mode: 'draft' }).id;
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-sun 15:00' });
    return { pressroom, ids, undated };
  }

  it('sends the earliest posts of each wall day and counts the rest, with drafts, slots and bots', () => {
    const { pressroom, ids, undated } = workspace();
    const capped = call(pressroom, 'getCalendar', { ...range, perDay: 2 });
    expect(capped.posts.map((post) => post.id)).toEqual([ids[0], ids[1], ids[4], ids[5]]);
    expect(capped.hidden).toEqual({ '2099-11-23': 2 });
    expect(capped.drafts.map((post) => post.id)).toEqual([undated]);
    expect(capped.freeSlots).toHaveLength(2);
    expect(capped.freeSlots).toEqual(
      call(pressroom, 'listFreeSlots', { from: range.from, to: range.to }),
    );
    expect(capped.bots).toEqual(call(pressroom, 'listBots'));
    const all = call(pressroom, 'getCalendar', range);
    expect(all.posts.map((post) => post.id)).toEqual(ids.slice(0, 6));
    expect(all.hidden).toEqual({});
  });

  it('lists a post that failed to publish now (it has no time) beside the undated drafts, first', () => {
    const { pressroom, undated } = workspace();
    const sentNow = call(pressroom, 'addPost', { text: 'Now', mode: 'draft', botId: 'bot_1' }).id;
    // As the publisher leaves a Publish now the platform refused: failed, with no time.
    pressroom.store.posts.update(sentNow, { status: 'failed' });
    const calendar = call(pressroom, 'getCalendar', range);
    expect(calendar.drafts.map((post) => [post.id, post.status])).toEqual([
      [sentNow, 'failed'],
      [undated, 'draft'],
    ]);
  });

  it('filters by bot, by no bot and by status before counting', () => {
    const { pressroom, ids } = workspace();
    const ofBot = call(pressroom, 'getCalendar', { ...range, perDay: 1, botId: 'bot_1' });
    expect(ofBot.posts.map((post) => post.id)).toEqual([ids[0], ids[4]]);
    expect(ofBot.hidden).toEqual({ '2099-11-23': 3 });
    const noBot = call(pressroom, 'getCalendar', { ...range, botId: null });
    expect(noBot.posts.map((post) => post.id)).toEqual([ids[5]]);
    const drafts = call(pressroom, 'getCalendar', { ...range, perDay: 1, status: 'draft' });
    expect(drafts.posts.map((post) => post.id)).toEqual([ids[1]]);
    expect(drafts.hidden).toEqual({});
    expect(thrownBy(() => call(pressroom, 'getCalendar', { ...range, perDay: 0 }))).toBeInstanceOf(
      InvalidInput,
    );
  });
});
