// After the platform accepted a post, whatever fails here it was sent: never "failed", never
// offered for a resend, never left `sending` (issue 26, case 3). And a post due at a time goes when
// the platform's clock says so, not this computer's (case 7).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { WorkspaceConfig } from '../../main/core/workspace';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

function pressroomOn(platform: TestPlatform, extra: Partial<WorkspaceConfig> = {}) {
  return testWorkspace({
    platform,
    timeoutMs: 2_000,
    retryRules: { baseMs: 1, capMs: 5, maxAttempts: 5 },
    ...extra,
  });
}

const copiesOf = (platform: TestPlatform, text: string) =>
  platform.server.store.posts
    .listPosts(platform.server.accountId, {}, { page: 1, perPage: 100_000 })
    .data.filter((post) => post.text === text);

/** Another process takes the database's write lock and keeps it `ms`; resolves once it holds it. */
function holdWriteLock(dbFile: string, ms: number): Promise<void> {
  const script = `const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, dbFile, String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('error', reject);
  });
}

describe('after the platform accepted a post', () => {
  it('records it sent once another process lets go of the database, and never fails it', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const dbFile = join(mkdtempSync(join(tmpdir(), 'pressroom-settle-')), 'workspace.db');
    let lockDuringSend = true;
    // While the post is on its way, another Pressroom process takes the write lock for 6 s.
    const locking: typeof fetch = async (input, init) => {
      if (lockDuringSend && init?.method === 'POST') {
        lockDuringSend = false;
        await holdWriteLock(dbFile, 6_000);
      }
      return fetch(input, init);
    };
    const pressroom = pressroomOn(platform, { dbFile, fetch: locking });
    const post = call(pressroom, 'addPost', {
      text: 'Locked out',
      botId: 'bot_1',
      mode: 'publish_now',
    });
    await pressroom.queue.publishUntilEmpty();
    expect(lockDuringSend).toBe(false);
    expect(call(pressroom, 'status').outbox).toMatchObject({ done: 1, failed: 0, sending: 0 });
    expect(pressroom.store.posts.require(post.id)).toMatchObject({ status: 'published' });
    expect(copiesOf(platform, 'Locked out')).toHaveLength(1);
    pressroom.close();
  }, 30_000);

  it('takes an id another post here already has as published, with a sentence, never to resend', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const pressroom = pressroomOn(platform);
    // The platform will give the next post an id that a post here already holds.
    const probe = platform.server.store.posts.createPost(platform.server.accountId, {
      botId: 1,
      text: 'Probe',
      mediaUrls: [],
      scheduledAt: null,
      clientReference: null,
    });
    const reused = `post_${Number(probe.id.slice('post_'.length)) + 1}`;
    const holder = call(pressroom, 'addPost', {
      text: 'Holder',
      botId: 'bot_1',
      at: new Date(Date.now() + 3_600_000).toISOString(),
      zone: 'UTC',
    });
    // As if published earlier: the holder's item is done and its post linked to the id.
    const held = pressroom.store.outbox.openFor({ postId: holder.id })?.id ?? 0;
    pressroom.store.db
      .prepare(`UPDATE outbox SET state = 'sending', ready_at = 0 WHERE id = ?`)
      .run(held);
    pressroom.store.outbox.markDone(held, reused);
    const post = call(pressroom, 'addPost', {
      text: 'Id reused',
      botId: 'bot_1',
      mode: 'publish_now',
    });
    await pressroom.queue.publishUntilEmpty();
    const item = pressroom.store.outbox.latestForPost(post.id);
    expect(item).toMatchObject({ state: 'done', outcomeUnknown: false });
    expect(item?.lastError).toMatch(new RegExp(`${reused}.*post ${holder.id} here already has`));
    expect(pressroom.store.posts.require(post.id)).toMatchObject({ status: 'published' });
    expect(pressroom.store.posts.require(holder.id).remoteId).toBe(reused);
    expect(() => call(pressroom, 'retryItem', { id: item?.id ?? 0 })).toThrow(/is done/);
    expect(copiesOf(platform, 'Id reused')).toHaveLength(1);
  });
});

describe('due times', () => {
  it('are judged on the platform’s clock when this computer’s runs 120 s ahead', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    let aheadMs = 0;
    const pressroom = pressroomOn(platform, { now: () => Date.now() + aheadMs });
    await call(pressroom, 'sync');
    const dueAt = Date.now() + 8_000;
    const post = call(pressroom, 'addPost', {
      text: 'On the platform’s time',
      botId: 'bot_1',
      at: new Date(dueAt).toISOString(),
      zone: 'UTC',
    });
    // The computer's clock is set two minutes ahead; the next answers measure it.
    aheadMs = 120_000;
    await call(pressroom, 'sync');
    expect(pressroom.governor.skewMs).toBeLessThan(-118_000);
    const report = await call(pressroom, 'publishDue');
    expect(Date.now()).toBeLessThan(dueAt); // still before its time on the platform
    expect(report).toMatchObject({ published: 0 });
    await pressroom.queue.publishUntilEmpty();
    const [remote] = copiesOf(platform, 'On the platform’s time');
    expect(Date.parse(remote?.created_at ?? '')).toBeGreaterThanOrEqual(dueAt);
    expect(pressroom.store.posts.require(post.id)).toMatchObject({ status: 'published' });
    pressroom.close();
  }, 20_000);
});
