// A sync runs with SQLite's own 2 MB page cache, not better-sqlite3's 16 MB, which a sync of
// 100,000 orders filled with the pages it wrote and judged: the part of its peak memory that grew
// with the list (#32). The connection's own size comes back after, whatever the sync's end.
import { describe, expect, it } from 'vitest';
import { SYNC_PAGE_CACHE_KIB } from '../../main/store/cache';
import { startTestPlatform } from '../support/platform';
import { testWorkspace } from '../support/workspace';

describe("a sync's page cache", () => {
  it("is SQLite's default size while the sync runs, and the connection's own size after", async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'pro' });
    const pressroom = testWorkspace({ platform, plan: 'pro' });
    const cacheSize = () => pressroom.store.db.pragma('cache_size', { simple: true }) as number;
    const own = cacheSize();
    expect(own).toBeLessThan(-SYNC_PAGE_CACHE_KIB); // better-sqlite3's 16 MB, in KiB
    const during = new Set<number>();
    const report = await pressroom.queue.sync(() => during.add(cacheSize()));
    expect(report.orders).toBe(80);
    expect([...during]).toEqual([-SYNC_PAGE_CACHE_KIB]);
    expect(cacheSize()).toBe(own);

    await expect(
      pressroom.store.cache.withSyncPageCache(() => Promise.reject(new Error('cut off'))),
    ).rejects.toThrow('cut off');
    expect(cacheSize()).toBe(own);
  });

  it('is left as it is when the connection keeps a smaller one', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'pro' });
    const pressroom = testWorkspace({ platform, plan: 'pro' });
    pressroom.store.db.pragma('cache_size = 100'); // pages of 4 KiB: 400 KiB
    const during = new Set<unknown>();
    await pressroom.queue.sync(() =>
      during.add(pressroom.store.db.pragma('cache_size', { simple: true })),
    );
    expect([...during]).toEqual([100]);
  });
});
