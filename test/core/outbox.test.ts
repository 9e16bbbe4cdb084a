// The outbox's owner (core/outbox.ts, issue #29): each write tells the workspace's watchers once
// and wakes the publisher, whoever called it; a refused write tells nothing; a post queued again
// keeps the key of an attempt that may have gone out.
import { describe, expect, it } from 'vitest';
import { CoreEvents } from '../../main/core/events';
import { Outbox } from '../../main/core/outbox';
import { WorkspaceStore } from '../../main/store';
import type { CoreEvent } from '../../shared/answers';
import { PRIORITY } from '../../shared/domain';

function owner() {
  const store = WorkspaceStore.open(':memory:');
  const events = new CoreEvents();
  const told: CoreEvent[] = [];
  events.subscribe((event) => told.push(event));
  const publisher = { wakes: 0, wake: () => publisher.wakes++ };
  const outbox = new Outbox(store.outbox, () => 1_000, events, publisher);
  const post = () =>
    store.posts.create({
      botId: 'bot_1',
      text: 'Hi',
      mediaUrls: [],
      scheduledAt: 5_000,
      zone: 'UTC',
    });
  const clear = () => {
    told.length = 0;
    publisher.wakes = 0;
  };
  return { store, outbox, told, publisher, post, clear };
}

const delivery = { priority: PRIORITY.due, dueAt: 5_000, payload: {} };

describe('the outbox owner', () => {
  it('enqueues, wakes the publisher and tells the queue once, however many items', () => {
    const { outbox, told, publisher } = owner();
    const items = outbox.enqueue(
      ['a', 'b', 'c'].map((subscriber_id) => ({
        kind: 'send_message' as const,
        payload: { subscriber_id, text: 'Hello' },
        priority: PRIORITY.due,
        dueAt: 1_000,
      })),
    );
    expect(items.map((item) => item.state)).toEqual(['queued', 'queued', 'queued']);
    expect(publisher.wakes).toBe(1);
    expect(told).toEqual([{ type: 'changed', what: 'queue' }]);
  });

  it("tells the posts' watchers too when an item is about a post", () => {
    const { store, outbox, told, publisher, post } = owner();
    const { id } = post();
    outbox.queuePost(id, delivery);
    expect(publisher.wakes).toBe(1);
    expect(told).toEqual([
      { type: 'changed', what: 'posts' },
      { type: 'changed', what: 'queue' },
    ]);
    expect(store.posts.require(id).status).toBe('scheduled');
  });

  it('reschedules, cancels, retries and user writes each tell once; a refusal tells nothing', () => {
    const { store, outbox, told, publisher, post, clear } = owner();
    const { id } = post();
    outbox.queuePost(id, delivery);
    const item = outbox.openFor({ postId: id })!;
    for (const write of [
      () => outbox.reschedule(item.id, 9_000),
      () => expect(outbox.cancel(item.id)).toBe(true),
      () => expect(outbox.retry(item.id, PRIORITY.user)).toBe(true),
      () => outbox.enqueueUserWrite('add_tag', { subscriber_id: 's', tag: 'vip' }),
      () => outbox.lookAgain(),
      () => outbox.postEdited(),
    ]) {
      clear();
      write();
      expect(publisher.wakes).toBe(1);
      expect(
        told.filter((event) => event.type === 'changed' && event.what === 'queue'),
      ).toHaveLength(1);
    }
    expect(store.outbox.require(item.id).dueAt).toBe(9_000);
    clear();
    expect(outbox.resendUnsent(item.id, PRIORITY.user)).toBe(false);
    expect(outbox.markFoundByUser(item.id, null)).toBe(false);
    expect(told).toEqual([]);
    expect(publisher.wakes).toBe(0);
  });

  it('reopens an attempt whose outcome is unknown with its key; afresh, a known failure is superseded', () => {
    const { store, outbox, post } = owner();
    const unsure = post();
    outbox.queuePost(unsure.id, delivery);
    const first = outbox.openFor({ postId: unsure.id })!;
    store.outbox.claim(first.id);
    store.outbox.markFailed(first.id, 'timed out', [], true);
    outbox.queuePost(unsure.id, delivery, true);
    const reopened = outbox.openFor({ postId: unsure.id })!;
    expect(reopened.id).toBe(first.id);
    expect(reopened.idempotencyKey).toBe(first.idempotencyKey);

    const refused = post();
    outbox.queuePost(refused.id, delivery);
    const failed = outbox.openFor({ postId: refused.id })!;
    store.outbox.claim(failed.id);
    store.outbox.markFailed(failed.id, 'refused', [], false);
    outbox.queuePost(refused.id, delivery, true);
    expect(store.outbox.require(failed.id).state).toBe('cancelled');
    const fresh = outbox.openFor({ postId: refused.id })!;
    expect(fresh.id).not.toBe(failed.id);
    expect(fresh.idempotencyKey).not.toBe(failed.idempotencyKey);
  });

  it('works without a platform account: nothing to wake, the watchers are still told', () => {
    const store = WorkspaceStore.open(':memory:');
    const events = new CoreEvents();
    const told: CoreEvent[] = [];
    events.subscribe((event) => told.push(event));
    new Outbox(store.outbox, Date.now, events, null).lookAgain();
    expect(told).toEqual([{ type: 'changed', what: 'queue' }]);
  });
});
