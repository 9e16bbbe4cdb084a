// The outbox's state machine, and how each transition moves its post or product.
import { describe, expect, it } from 'vitest';
import { PRIORITY } from '../../shared/domain';
import { WorkspaceStore } from '../../main/store';

function workspace() {
  let now = 1_000_000;
  const store = WorkspaceStore.open(':memory:', () => now);
  const post = store.posts.create({
    botId: 'bot_1',
    text: 'Hi',
    mediaUrls: [],
    scheduledAt: 2_000_000,
    zone: 'UTC',
  });
  return { store, post, advance: (ms: number) => (now += ms), now: () => now };
}

/** Queues the post for publishing (due at 0 unless given), as scheduling it does. */
function queue(store: WorkspaceStore, postId: number, dueAt = 0) {
  return store.outbox.enqueue({ kind: 'create_post', postId, priority: PRIORITY.due, dueAt });
}

describe('outbox transitions', () => {
  it('queued → sending → done publishes the post with its remote id', () => {
    const { store, post, advance } = workspace();
    const item = store.outbox.enqueue({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.due,
      dueAt: 2_000_000,
    });
    expect(item).toMatchObject({ state: 'queued', attempts: 0, readyAt: 2_000_000 });
    expect(item.idempotencyKey).toMatch(/^pr-[0-9a-f-]{36}$/);
    expect(store.posts.require(post.id).status).toBe('scheduled');
    expect(store.outbox.ready(1_999_999, 10)).toEqual([]);
    expect(store.outbox.ready(2_000_000, 10).map((i) => i.id)).toEqual([item.id]);

    expect(store.outbox.claim(item.id)).toBeUndefined(); // not due yet
    advance(1_000_000);
    expect(store.outbox.claim(item.id)).toMatchObject({ state: 'sending', attempts: 1 });
    expect(store.outbox.claim(item.id)).toBeUndefined(); // claimed once only
    expect(store.posts.require(post.id).status).toBe('sending');

    store.outbox.markDone(item.id, 'post_9', 2_000_100);
    expect(store.outbox.require(item.id)).toMatchObject({ state: 'done', remoteId: 'post_9' });
    expect(store.posts.require(post.id)).toMatchObject({
      status: 'published',
      remoteId: 'post_9',
      publishedAt: 2_000_100,
    });
  });

  it('sending → retrying → sending, keeping the key and counting attempts', () => {
    const { store, post, advance } = workspace();
    const item = queue(store, post.id);
    store.outbox.claim(item.id);
    store.outbox.markRetrying(item.id, 5_000_000, '503 busy', true);
    expect(store.outbox.require(item.id)).toMatchObject({
      state: 'retrying',
      readyAt: 5_000_000,
      lastError: '503 busy',
      outcomeUnknown: true,
    });
    expect(store.outbox.nextReadyAt()).toBe(5_000_000);
    advance(4_000_000);
    const again = store.outbox.claim(item.id);
    expect(again).toMatchObject({ attempts: 2, idempotencyKey: item.idempotencyKey });
  });

  it('sending → failed keeps the server’s message and field errors; retry sends it again first', () => {
    const { store, post } = workspace();
    const item = queue(store, post.id);
    store.outbox.claim(item.id);
    store.outbox.markFailed(item.id, '422 text: must not be empty', [
      { field: 'text', message: 'must not be empty' },
    ]);
    expect(store.outbox.require(item.id)).toMatchObject({
      state: 'failed',
      fieldErrors: [{ field: 'text', message: 'must not be empty' }],
    });
    expect(store.posts.require(post.id)).toMatchObject({
      status: 'failed',
      error: '422 text: must not be empty',
    });
    expect(store.outbox.retry(item.id, PRIORITY.user, 1_000_000)).toBe(true);
    expect(store.outbox.require(item.id)).toMatchObject({
      state: 'queued',
      priority: PRIORITY.user,
      fieldErrors: [],
    });
    expect(store.posts.require(post.id).status).toBe('scheduled');
  });

  it('claims only a waiting item that is due, as it stands when claimed', () => {
    const { store, post, advance } = workspace();
    // Picked while ready, then rescheduled to next week while it waited for rate-limit budget.
    const item = queue(store, post.id, 1_000_000);
    expect(store.outbox.ready(1_000_000, 10).map((ready) => ready.id)).toEqual([item.id]);
    store.outbox.reschedule(item.id, 1_000_000 + 7 * 86_400_000);
    expect(store.outbox.claim(item.id)).toBeUndefined();
    expect(store.outbox.require(item.id)).toMatchObject({ state: 'queued', attempts: 0 });
    // Picked, then cancelled.
    advance(7 * 86_400_000);
    store.outbox.cancel(item.id);
    expect(store.outbox.claim(item.id)).toBeUndefined();
  });

  it('keeps an unknown outcome through failing, so a retry still looks before sending', () => {
    const { store, post } = workspace();
    const item = queue(store, post.id);
    store.outbox.claim(item.id);
    store.outbox.markRetrying(item.id, 1_000_000, 'no answer before the timeout', true);
    store.outbox.claim(item.id);
    store.outbox.markFailed(item.id, 'Gave up after 2 attempts');
    expect(store.outbox.require(item.id)).toMatchObject({ state: 'failed', outcomeUnknown: true });
    store.outbox.retry(item.id, PRIORITY.user);
    expect(store.outbox.require(item.id)).toMatchObject({ state: 'queued', outcomeUnknown: true });
  });

  it('links a post to what a lookup found even when a sync kept it as a platform-only post', () => {
    const { store, post } = workspace();
    // A platform that keeps no client reference: the sync could not tell the post was ours.
    store.cache.mergePosts([
      {
        id: 'post_5',
        botId: 'bot_1',
        text: 'Hi',
        mediaUrls: [],
        status: 'published',
        scheduledAt: null,
        publishedAt: 1_000_000,
        clientReference: null,
      },
    ]);
    const item = queue(store, post.id);
    store.outbox.claim(item.id);
    store.outbox.markDone(item.id, 'post_5', 1_000_000);
    expect(store.posts.require(post.id)).toMatchObject({ status: 'published', remoteId: 'post_5' });
    expect(store.posts.list().filter((p) => p.remoteId === 'post_5')).toHaveLength(1);
  });

  it('cancels only what has not been sent, and the post goes back to draft', () => {
    const { store, post } = workspace();
    const item = queue(store, post.id);
    expect(store.outbox.cancel(item.id)).toBe(true);
    expect(store.outbox.require(item.id).state).toBe('cancelled');
    expect(store.posts.require(post.id).status).toBe('draft');
    expect(store.outbox.cancel(item.id)).toBe(false);

    const sent = queue(store, post.id);
    store.outbox.claim(sent.id);
    expect(store.outbox.cancel(sent.id)).toBe(false);
    store.outbox.markDone(sent.id, 'post_1');
    expect(store.outbox.cancel(sent.id)).toBe(false);
    expect(store.outbox.retry(sent.id, PRIORITY.user)).toBe(false);
  });

  it('marks a handed-off post handed_off, not published', () => {
    const { store, post } = workspace();
    const item = store.outbox.enqueue({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.handOff,
      dueAt: 0,
      payload: { handOff: true },
    });
    store.outbox.claim(item.id);
    store.outbox.markDone(item.id, 'post_3', 1_000_000);
    expect(store.posts.require(post.id)).toMatchObject({
      status: 'handed_off',
      remoteId: 'post_3',
      publishedAt: null,
    });
  });

  it('recovers items another holder left sending as retrying with an unknown outcome', () => {
    const { store, post } = workspace();
    const item = queue(store, post.id);
    store.outbox.claim(item.id);
    const taken = store.lease.take('next holder', 30_000);
    if (!taken.ok) throw new Error('the lease was free');
    expect(store.outbox.recoverInterrupted(taken.token)).toBe(1);
    expect(store.outbox.require(item.id)).toMatchObject({
      state: 'retrying',
      outcomeUnknown: true,
      readyAt: 1_000_000,
    });
  });

  it('orders ready items by priority, then time', () => {
    const { store, post } = workspace();
    const late = store.outbox.enqueue({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.sync,
      dueAt: 10,
    });
    const user = store.outbox.enqueue({
      kind: 'send_message',
      priority: PRIORITY.user,
      dueAt: 50,
      payload: { subscriber_id: 'sub_1', text: 'x' },
    });
    const due = store.outbox.enqueue({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.due,
      dueAt: 20,
    });
    expect(store.outbox.ready(100, 10).map((item) => item.id)).toEqual([user.id, due.id, late.id]);
    expect(store.outbox.counts()).toMatchObject({ queued: 3 });
  });
});

describe('the queue’s order', () => {
  it('lists the failed first (they need the user), then open items by their next attempt, then the finished newest first', () => {
    const { store, advance } = workspace();
    const post = (text: string) =>
      store.posts.create({ botId: null, text, mediaUrls: [], scheduledAt: null, zone: null }).id;
    const item = (text: string, dueAt: number) => queue(store, post(text), dueAt).id;
    const done = item('done', 0);
    store.outbox.claim(done);
    store.outbox.markDone(done, 'post_1');
    const later = item('later', 5_000_000);
    const sooner = item('sooner', 3_000_000);
    const backingOff = item('backing off', 0);
    store.outbox.claim(backingOff);
    store.outbox.markRetrying(backingOff, 4_000_000, '503 busy', false);
    const failed = item('failed', 0);
    store.outbox.claim(failed);
    store.outbox.markFailed(failed, 'refused');
    advance(1_000);
    const cancelled = item('cancelled', 6_000_000);
    store.outbox.cancel(cancelled);

    const order = [failed, sooner, backingOff, later, cancelled, done];
    expect(store.outbox.rows(undefined, 10).map((row) => row.id)).toEqual(order);
    // A short list keeps what needs the user and what is still to come.
    expect(store.outbox.rows(undefined, 3).map((row) => row.id)).toEqual(order.slice(0, 3));
    expect(store.outbox.rows(['failed', 'done'], 10).map((row) => row.id)).toEqual([failed, done]);
  });
});
