// The publisher's lease: one holder at a time, taken over when its beat stops or its process is gone.
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../main/store';

function workspace() {
  let now = 1_000_000;
  const store = WorkspaceStore.open(':memory:', () => now);
  return { store, advance: (ms: number) => (now += ms) };
}

describe('publisher lease', () => {
  it('is held by one owner until its beat stops', () => {
    const { store, advance } = workspace();
    expect(store.lease.take('a', 30_000)).toEqual({ ok: true, fresh: true });
    expect(store.lease.take('a', 30_000)).toEqual({ ok: true, fresh: false });
    expect(store.lease.take('b', 30_000)).toMatchObject({ ok: false, pid: process.pid });
    advance(20_000);
    expect(store.lease.beat('a')).toBe(true);
    advance(20_000);
    expect(store.lease.take('b', 30_000)).toMatchObject({ ok: false });
    advance(11_000);
    expect(store.lease.take('b', 30_000)).toEqual({ ok: true, fresh: true });
    expect(store.lease.beat('a')).toBe(false); // a knows it lost the lease
    store.close();
  });

  it('is taken over at once from a process of this machine that is gone, and freed on release', () => {
    const { store } = workspace();
    // No process has id 2^22 + 1 on Linux (pid_max is at most 2^22).
    expect(store.lease.take('dead', 30_000, 2 ** 22 + 1)).toMatchObject({ ok: true });
    expect(store.lease.take('b', 30_000)).toEqual({ ok: true, fresh: true });
    store.lease.release('b');
    expect(store.lease.take('c', 30_000)).toEqual({ ok: true, fresh: true });
    store.close();
  });
});
