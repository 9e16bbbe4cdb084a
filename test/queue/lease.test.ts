// Two engines on one workspace file (issue 26, case 4): the publishing lease is judged without
// comparing two machines' clocks, and every claim and settle checks it still holds, so a second
// engine never resends what a live one is sending, and one that lost the lease stops at once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { WorkspaceStore } from '../../main/store';
import { rejectionOf, startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { startSilentProcess } from '../support/processes';
import { call } from '../../main/core/operations';

function workspaceFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'pressroom-lease-')), 'workspace.sqlite');
}

/** How many posts with each of `texts` the platform holds. */
async function copiesOn(platform: TestPlatform, texts: string[]): Promise<number[]> {
  // A token of its own, so reading spends none of the engines' rate limit.
  const { token } = await platform.admin<{ token: string }>('POST', '/accounts/acct_1/tokens');
  const reader = platform.clientWith(token);
  const remote: { text: string }[] = [];
  for (let page = 1; ; page++) {
    const result = await reader.listPosts({ per_page: 200, page });
    remote.push(...result.items);
    if (result.next.kind !== 'request') break;
  }
  return texts.map((text) => remote.filter((post) => post.text === text).length);
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('two engines on one workspace', () => {
  it('an engine whose clock is 40 s ahead stands by while another publishes: nothing twice', async () => {
    // Spec-literal: neither Idempotency-Key nor client_reference helps a second attempt.
    const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
    await platform.admin('PUT', '/faults', {
      latency_ms: 300,
      ignore_idempotency: true,
      ignore_reference_filter: true,
    });
    const dbFile = workspaceFile();
    const engine = (offsetMs: number) =>
      testWorkspace({
        dbFile,
        platform,
        plan: 'enterprise',
        now: () => Date.now() + offsetMs,
      });
    const first = engine(0);
    const texts = Array.from({ length: 20 }, (_, i) => `Leased post ${i}`);
    for (const text of texts) call(first, 'addPost', { text, botId: 'bot_1', mode: 'publish_now' });
    const publishing = call(first, 'publishDue');
    await until(() => first.store.outbox.counts().sending > 0);

    const ahead = engine(40_000);
    await call(ahead, 'publishDue');
    await publishing;
    expect(await copiesOn(platform, texts)).toEqual(texts.map(() => 1));
    expect(call(ahead, 'status').paused).toMatch(/Another Pressroom process/);
    expect(call(first, 'status').outbox).toMatchObject({ done: 20, sending: 0, failed: 0 });
    ahead.close();
    first.close();
  });

  it('an engine that lost the lease mid-pass sends nothing more', async () => {
    // Two requests a second: the pass takes seconds, most items wait for budget.
    const platform = await startTestPlatform({ seed: 'demo', rateLimit: 2, windowMs: 1_000 });
    const dbFile = workspaceFile();
    const holder = testWorkspace({
      dbFile,
      platform,
    });
    const texts = Array.from({ length: 10 }, (_, i) => `Fenced post ${i}`);
    for (const text of texts)
      call(holder, 'addPost', { text, botId: 'bot_1', mode: 'publish_now' });
    const publishing = call(holder, 'publishDue');
    await until(() => holder.store.outbox.counts().done > 0);

    // Another process decides the holder is stale (it was suspended, say) and takes the lease over.
    const taker = WorkspaceStore.open(dbFile);
    expect(taker.lease.take('taker', 0)).toMatchObject({ ok: true });
    const sentBefore = (await copiesOn(platform, texts)).reduce((sum, n) => sum + n, 0);
    await publishing;
    const sentAfter = (await copiesOn(platform, texts)).reduce((sum, n) => sum + n, 0);
    // At most what was already on its way when the lease changed hands.
    expect(sentAfter - sentBefore).toBeLessThanOrEqual(2);
    expect(call(holder, 'status').paused).toMatch(/Another Pressroom process/);
    taker.close();
    holder.close();
  });

  it('publish until empty waits for a silent holder to go stale, then publishes all', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const dbFile = workspaceFile();
    const hung = startSilentProcess();
    const store = WorkspaceStore.open(dbFile);
    expect(store.lease.take('hung publisher', 30_000, hung.pid)).toMatchObject({ ok: true });
    store.close();
    const engine = testWorkspace({
      dbFile,
      platform,
      leaseStaleMs: 400,
    });
    const texts = ['Waited for 1', 'Waited for 2'];
    for (const text of texts)
      call(engine, 'addPost', { text, botId: 'bot_1', mode: 'publish_now' });
    const started = performance.now();
    expect(await engine.queue.publishUntilEmpty()).toMatchObject({ published: 2, failed: 0 });
    // Judged by its own elapsed time: the holder's beat stood still for the stale time.
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    expect(await copiesOn(platform, texts)).toEqual([1, 1]);
    hung.end();
    engine.close();
  });

  it('publish until empty never succeeds while a live holder keeps the posts: it names it', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const dbFile = workspaceFile();
    const open = () =>
      testWorkspace({
        dbFile,
        platform,
        leaseStaleMs: 300,
      });
    const holder = open();
    // Takes the lease and keeps beating it; it runs no scheduler, so it sends nothing more.
    await call(holder, 'publishDue');
    const other = open();
    call(other, 'addPost', { text: 'Kept back', botId: 'bot_1', mode: 'publish_now' });
    const error = await rejectionOf(other.queue.publishUntilEmpty());
    expect(String(error)).toMatch(
      new RegExp(
        `Another Pressroom process \\(${process.pid} on .+\\) publishes this workspace.*1 items left`,
      ),
    );
    other.close();
    holder.close();
  });
});
