// Crash test: an engine publishing against the reference server, with answers lost or garbled
// after writes commit (dropped connections, 204, 201 with only Location, JSON cut short, a proxy's
// HTML 502, an empty 500), is killed with SIGKILL at random moments and restarted, again and
// again, now and then with a second engine opening the same file. In the end every post exists on
// the platform exactly once, none is lost, deliberate repeats all went out, and no scheduled post
// went out before its time.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ODD_ANSWERS } from '../../main/emulator/server-state';
import { Pressroom } from '../../main/core/pressroom';
import { startTestPlatform } from '../support/platform';

const POSTS = 300;
/** Posts with one text, repeated on purpose: each must go out, none matched to another. */
const REPEATS = 5;
/** Posts scheduled a little ahead: none may go out early. */
const SCHEDULED = 20;
const KILLS = 12;

type Outcome = 'killed' | 'empty' | 'standby';

function runEngine(
  env: Record<string, string>,
  killAfterMs: number | null,
  /** Run once the engine is ready; the kill's clock starts once what it returns settles. */
  onReady: () => Promise<unknown> = () => Promise.resolve(),
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/engine-child.ts'], {
      env: { ...process.env, ...env },
    });
    let output = '';
    let ready = false;
    let timer: NodeJS.Timeout | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready || !output.includes('ready')) return;
      ready = true;
      void onReady().then(() => {
        if (killAfterMs !== null && child.exitCode === null)
          timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0 && output.includes('standby')) resolve('standby');
      else if (code === 0 && output.includes('empty')) resolve('empty');
      else reject(new Error(`engine exited with ${code}: ${output}`));
    });
  });
}

describe('crash safety', () => {
  it(
    `publishes ${POSTS} posts exactly once through ${KILLS} SIGKILLs and lost answers`,
    { timeout: 120_000 },
    async () => {
      const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise' });
      await platform.admin('PUT', '/faults', {
        drop_after_commit_rate: 0.1,
        odd_answer_rate: 0.15,
        latency_ms: 60,
        ignore_idempotency: true,
        ignore_reference_filter: true,
      });
      const dbFile = join(mkdtempSync(join(tmpdir(), 'pressroom-crash-')), 'workspace.sqlite');
      const setup = new Pressroom({ dbFile });
      for (let i = 0; i < POSTS; i++)
        setup.addPost({ text: `Crash-safe post ${i}`, botId: 'bot_1', mode: 'publish_now' });
      for (let i = 0; i < REPEATS; i++)
        setup.addPost({
          text: 'Crash-safe repeat',
          botId: 'bot_1',
          mode: 'publish_now',
          allowDuplicate: true,
        });
      const scheduledAt = Date.now() + 4_000;
      for (let i = 0; i < SCHEDULED; i++)
        setup.addPost({
          text: `Crash-safe scheduled ${i}`,
          botId: 'bot_2',
          at: new Date(scheduledAt).toISOString(),
          zone: 'UTC',
        });
      setup.close();

      const env = {
        CRASH_DB: dbFile,
        CRASH_API_BASE: platform.server.baseUrl,
        CRASH_TOKEN: platform.server.token,
      };
      let kills = 0;
      let standbys = 0;
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      while (kills < KILLS) {
        // Each run meets another odd answer after commit.
        await platform.admin('PUT', '/faults', {
          odd_answer: ODD_ANSWERS[kills % ODD_ANSWERS.length],
        });
        // Timed from the engine's "ready", so each run dies a little way into publishing.
        const killAfterMs = 10 + Math.floor(random() * 250);
        // Every other run, a second engine opens the same file while the first publishes (started
        // once the first is ready, and the first lives until the second has looked, whatever the
        // machine's speed): it must stand by and send nothing.
        let second: Promise<Outcome> | null = null;
        const outcome = await runEngine(
          env,
          killAfterMs,
          kills % 2 === 1 ? () => (second = runEngine(env, null)) : undefined,
        );
        const secondOutcome = await second;
        if (secondOutcome === 'standby') standbys++;
        if (outcome === 'empty' || secondOutcome === 'empty') break;
        if (outcome === 'killed') kills++;
      }
      expect(await runEngine(env, null)).toBe('empty');

      const { token } = await platform.admin<{ token: string }>('POST', '/accounts/acct_1/tokens');
      const reader = platform.clientWith(token);
      const remote = [];
      for (let page = 1; ; page++) {
        const result = await reader.listPosts({ per_page: 200, page });
        remote.push(...result.items);
        if (result.next.kind !== 'request') break;
      }
      const ours = remote.filter((post) => post.text.startsWith('Crash-safe post'));
      const perText = new Map<string, number>();
      for (const post of ours) perText.set(post.text, (perText.get(post.text) ?? 0) + 1);
      expect(perText.size).toBe(POSTS); // none lost
      expect([...perText.values()].filter((count) => count !== 1)).toEqual([]); // none twice
      expect(remote.filter((post) => post.text === 'Crash-safe repeat')).toHaveLength(REPEATS);
      const scheduled = remote.filter((post) => post.text.startsWith('Crash-safe scheduled'));
      expect(new Set(scheduled.map((post) => post.text)).size).toBe(SCHEDULED);
      expect(scheduled).toHaveLength(SCHEDULED);
      const early = scheduled.filter((post) => Date.parse(post.created_at ?? '') < scheduledAt);
      expect(early).toEqual([]);

      const check = new Pressroom({ dbFile });
      expect(check.status().outbox).toMatchObject({
        done: POSTS + REPEATS + SCHEDULED,
        failed: 0,
        queued: 0,
        retrying: 0,
        sending: 0,
      });
      check.close();
      // The test proves something only if the engine really died mid-work and answers were lost.
      expect(kills).toBeGreaterThanOrEqual(KILLS / 2);
      expect(standbys).toBeGreaterThan(0); // two engines did open the file at once
      expect(platform.server.stats.droppedAfterCommit).toBeGreaterThan(0);
      expect(platform.server.stats.oddAfterCommit).toBeGreaterThan(0);
    },
  );
});
