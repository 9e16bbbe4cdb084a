// Lists that end only when the server proves it (issue 26, cases 6, 9, 10): sync against the
// reference server paging by offset, by relative next links, behind a cap that echoes the page
// size asked, refusing a page once, and losing an order while the list is read. Never a cached
// row deleted that still exists; every list read to its end.
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import type { Conventions } from '../../main/reference-server/conventions';
import type { TestPlatform } from '../support/platform';
import { platformWith250Orders, startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

/** Retry steps short enough for a test; Retry-After still holds a page back as long as it says. */
const QUICK_RETRIES = { baseMs: 20, capMs: 100, maxAttempts: 8 };
const SEEDED = { bots: 3, posts: 60, products: 40, orders: 250, subscribers: 300 };

function connect(platform: TestPlatform, fetch?: typeof globalThis.fetch) {
  return testWorkspace({
    platform,
    plan: 'enterprise',
    retryRules: QUICK_RETRIES,
    ...(fetch ? { fetch } : {}),
  });
}

const cachedOrderIds = (pressroom: Workspace) =>
  pressroom.store.cache.orders({ offset: 0, limit: 10_000 }).rows.map((order) => order.id);

describe('lists read to their end', () => {
  it.each<[string, Partial<Conventions>]>([
    ['{data, meta: {offset, limit, total}}, page ignored', { paging: 'offset' }],
    ['{data, offset, limit, total}, page ignored', { envelope: 'data', paging: 'offset' }],
    ['offset and limit capped at 50', { envelope: 'data', paging: 'offset', pageCap: 50 }],
    ['a relative next link "orders?page=2"', { envelope: 'data', paging: 'next-relative' }],
    ['a cap of 100 that echoes per_page 200', { pageCap: 100, pageCapEchoes: true }],
    ['a bare array capped at 100', { envelope: 'bare', pageCap: 100 }],
  ])('reads all 250 orders from %s', async (_name, conventions) => {
    const platform = await platformWith250Orders({ pageCap: 50, ...conventions });
    const pressroom = connect(platform);
    expect(await call(pressroom, 'sync')).toEqual(SEEDED);
    expect(pressroom.store.cache.counts().orders).toBe(250);
  });

  it('retries a page refused once with 429 or 503, through the governor, instead of failing the list', async () => {
    const platform = await platformWith250Orders({ pageCap: 100 });
    const refusals: string[] = [];
    const refuseOnce = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      const page = url.searchParams.get('page') ?? '1';
      const key = `${url.pathname.split('/').at(-1)}?page=${page}`;
      const refuse: Record<string, [number, Record<string, string>]> = {
        'bots?page=1': [429, { 'Retry-After': '1' }],
        'orders?page=2': [503, {}],
      };
      const answer = refuse[key];
      if (answer && !refusals.includes(key)) {
        refusals.push(key);
        const [status, headers] = answer;
        const body = {
          error: { code: status === 429 ? 'rate_limited' : 'unavailable', message: 'Try later' },
        };
        return new Response(JSON.stringify(body), {
          status,
          headers: { 'Content-Type': 'application/json', ...headers },
        });
      }
      return fetch(input, init);
    }) as typeof fetch;
    const pressroom = connect(platform, refuseOnce);
    const started = Date.now();
    expect(await call(pressroom, 'sync')).toEqual(SEEDED);
    expect(refusals).toEqual(['bots?page=1', 'orders?page=2']);
    // The 429's Retry-After was honoured before the page was asked again.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(call(pressroom, 'status').sync.bots?.problem).toBeNull();
  });

  it('gives a page up after a bounded number of refusals, and deletes nothing', async () => {
    const platform = await platformWith250Orders({ pageCap: 100 });
    const pressroom = connect(platform);
    await call(pressroom, 'sync');
    await platform.admin('PUT', '/faults', { error_rate: 1 });
    const report = await call(pressroom, 'sync');
    expect(report.orders).toEqual({ error: expect.stringContaining('503') });
    expect(pressroom.store.cache.counts().orders).toBe(250);
  });
});

describe('pruning only what provably went', () => {
  it('keeps a live order that an offset shift hid, when another is deleted mid-sync', async () => {
    const platform = await platformWith250Orders({ pageCap: 100 });
    let deleteDuringNextRead = false;
    // Deletes ord_5 right after the first page of orders was read: every later row moves up one,
    // so page 2 starts at ord_102 and ord_101 is never seen in this read.
    const deletesMidSync = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      const url = new URL(String(input));
      if (deleteDuringNextRead && url.pathname.endsWith('/orders')) {
        deleteDuringNextRead = false;
        await platform.admin('DELETE', '/orders/ord_5');
      }
      return response;
    }) as typeof fetch;
    const pressroom = connect(platform, deletesMidSync);
    expect((await call(pressroom, 'sync')).orders).toBe(250);

    deleteDuringNextRead = true;
    await call(pressroom, 'sync');
    expect(cachedOrderIds(pressroom)).toContain('ord_101');
    expect(pressroom.store.cache.counts().orders).toBe(250);

    // Once the order is gone from whole reads that see everything else, it goes from the cache.
    await call(pressroom, 'sync');
    const ids = cachedOrderIds(pressroom);
    expect(ids).toContain('ord_101');
    expect(ids).not.toContain('ord_5');
    expect(ids).toHaveLength(249);
  });

  it('drops a bot deleted on the platform in the next sync', async () => {
    const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
    const pressroom = connect(platform);
    await call(pressroom, 'sync');
    await platform.client.deleteBot('bot_3');
    await call(pressroom, 'sync');
    expect(pressroom.store.cache.bots().map((bot) => bot.id)).toEqual(
      expect.not.arrayContaining(['bot_3']),
    );
    expect(pressroom.store.cache.counts().bots).toBe(2);
  });
});
