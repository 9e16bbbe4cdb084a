// The publisher's lease: one holder at a time, taken over when its beat counter stands still for
// the stale time on the taker's own clock, or its process is gone; its epoch fences the outbox.
import { describe, expect, it } from 'vitest';
import { PRIORITY } from '../../shared/domain';
import { WorkspaceStore } from '../../main/store';
import { LeaseLost } from '../../main/store/lease';
import { startZombie } from '../support/processes';

/** Two processes' views of one file: each with its own wall clock and its own elapsed time. */
function workspace() {
  let elapsed = 0;
  const store = WorkspaceStore.open(
    ':memory:',
    () => 1_000_000,
    () => elapsed,
  );
  return { store, advance: (ms: number) => (elapsed += ms) };
}

describe('publisher lease', () => {
  it('is held by one owner while its beat moves, whatever the clocks say', () => {
    const { store, advance } = workspace();
    const a = store.lease.take('a', 30_000);
    expect(a).toMatchObject({ ok: true, fresh: true, token: { owner: 'a', epoch: 1 } });
    expect(store.lease.take('a', 30_000)).toMatchObject({ ok: true, fresh: false });
    expect(store.lease.take('b', 30_000)).toMatchObject({ ok: false, pid: process.pid });
    if (!a.ok) throw new Error('a holds it');
    // The wall clock never moves here; only the beat counter and b's own elapsed time count.
    for (let i = 0; i < 5; i++) {
      advance(20_000);
      expect(store.lease.beat(a.token)).toBe(true);
      expect(store.lease.take('b', 30_000)).toMatchObject({ ok: false });
    }
    advance(29_000);
    expect(store.lease.take('b', 30_000)).toMatchObject({ ok: false });
    advance(1_000);
    const b = store.lease.take('b', 30_000);
    expect(b).toMatchObject({ ok: true, fresh: true, token: { owner: 'b', epoch: 2 } });
    expect(store.lease.beat(a.token)).toBe(false); // a knows it lost the lease
    expect(store.lease.holds(a.token)).toBe(false);
    store.close();
  });

  it('is taken over at once from a process of this machine that is gone, and freed on release', () => {
    const { store } = workspace();
    // No process has id 2^22 + 1 on Linux (pid_max is at most 2^22).
    expect(store.lease.take('dead', 30_000, 2 ** 22 + 1)).toMatchObject({ ok: true });
    const b = store.lease.take('b', 30_000);
    expect(b).toMatchObject({ ok: true, fresh: true, token: { epoch: 2 } });
    if (b.ok) store.lease.release(b.token);
    // Epochs never start over, so no claim of an earlier holder passes for a later one's.
    expect(store.lease.take('c', 30_000)).toMatchObject({
      ok: true,
      fresh: true,
      token: { epoch: 3 },
    });
    store.close();
  });

  it.runIf(process.platform === 'linux')(
    'is taken over at once from a zombie, which still answers kill(pid, 0)',
    async () => {
      const zombie = await startZombie();
      expect(() => process.kill(zombie.pid, 0)).not.toThrow();
      const { store } = workspace();
      expect(store.lease.take('zombie', 30_000, zombie.pid)).toMatchObject({ ok: true });
      expect(store.lease.take('b', 30_000)).toMatchObject({ ok: true, fresh: true });
      zombie.end();
      store.close();
    },
  );
});

describe('fencing the outbox with the lease', () => {
  function queued(store: WorkspaceStore) {
    const post = store.posts.create({
      botId: 'bot_1',
      text: 'Fenced',
      mediaUrls: [],
      scheduledAt: null,
      zone: 'UTC',
    });
    return store.outbox.enqueue({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.due,
      dueAt: 0,
    });
  }

  it('refuses a claim and every settle once the lease changed hands', () => {
    const { store, advance } = workspace();
    const a = store.lease.take('a', 30_000);
    if (!a.ok) throw new Error('a holds it');
    const sent = queued(store);
    const waiting = queued(store);
    expect(store.outbox.claim(sent.id, a.token)).toMatchObject({ state: 'sending' });
    store.lease.take('b', 30_000);
    advance(30_000);
    const b = store.lease.take('b', 30_000);
    if (!b.ok) throw new Error('b took it over');
    expect(() => store.outbox.claim(waiting.id, a.token)).toThrow(LeaseLost);
    expect(() => store.outbox.markDone(sent.id, 'post_1')).toThrow(LeaseLost);
    expect(() => store.outbox.markRetrying(sent.id, 0, 'busy', false)).toThrow(LeaseLost);
    expect(() => store.outbox.markFailed(sent.id, 'refused')).toThrow(LeaseLost);
    expect(() => store.outbox.recoverInterrupted(a.token)).toThrow(LeaseLost);
    expect(store.outbox.require(sent.id)).toMatchObject({ state: 'sending' });
    expect(store.outbox.require(waiting.id)).toMatchObject({ state: 'queued', attempts: 0 });
    // The new holder looks up what a was sending before sending it again.
    expect(store.outbox.recoverInterrupted(b.token)).toBe(1);
    expect(store.outbox.require(sent.id)).toMatchObject({
      state: 'retrying',
      outcomeUnknown: true,
    });
    store.close();
  });

  it('never recovers the live holder’s own items, and settles them under its lease', () => {
    const { store } = workspace();
    const a = store.lease.take('a', 30_000);
    if (!a.ok) throw new Error('a holds it');
    const item = queued(store);
    store.outbox.claim(item.id, a.token);
    expect(store.outbox.recoverInterrupted(a.token)).toBe(0);
    store.outbox.markDone(item.id, 'post_1');
    expect(store.outbox.require(item.id)).toMatchObject({ state: 'done', remoteId: 'post_1' });
    // A settled item is not settled again, whoever asks.
    expect(() => store.outbox.markFailed(item.id, 'late')).toThrow(LeaseLost);
    store.close();
  });
});
