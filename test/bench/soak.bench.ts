// npm run bench:soak — 2,000 posts through a spec-literal server (no client reference, no
// Idempotency-Key), Pro plan with a 2 s window, run in its own process:
//  baseline: no answer lost, the server's clock on time;
//  soak:     5 % of the answers to committed writes dropped, the server's clock 90 s behind.
// Prints duplicates, lost and left-failed posts (target 0 each), 429s (target at most 1), the
// requests made and the time taken, for both, so the lookups' cost shows beside the baseline.
import { join } from 'node:path';
import { Workspace } from '../../main/core/workspace';
import { createPlatformClient } from '../../main/platform/client';
import { adminOf, startPlatformCli } from '../support/cli';
import { call } from '../../main/core/operations';
import { benchFolder } from './folders';

const POSTS = 2_000;
const WINDOW_MS = 2_000;

async function soak(label: string, dropRate: number, clockOffsetMs: number) {
  const { child, ...server } = await startPlatformCli([
    '--seed',
    'demo',
    '--admin',
    '--plan',
    'pro',
    '--window-ms',
    String(WINDOW_MS),
    '--spec-literal',
    '--clock-offset-ms',
    String(clockOffsetMs),
  ]);
  const admin = adminOf(server);
  await admin('PUT', '/faults', { drop_after_commit_rate: dropRate, latency_ms: 20 });
  const pressroom = new Workspace({
    dbFile: join(benchFolder('pressroom-soak-'), 'workspace.sqlite'),
    apiBase: server.base_url,
    token: server.token,
    plan: 'pro',
    windowMs: WINDOW_MS,
    timeoutMs: 5_000,
  });
  pressroom.store.transaction(() => {
    for (let i = 0; i < POSTS; i++)
      call(pressroom, 'addPost', { text: `Soak post ${i}`, botId: 'bot_1', mode: 'publish_now' });
  });
  const started = Date.now();
  await pressroom.queue.publishUntilEmpty();
  const elapsed = Date.now() - started;

  const { token } = (await admin('POST', '/accounts/acct_1/tokens')) as { token: string };
  const reader = createPlatformClient({ baseUrl: server.base_url, token });
  const copies = new Map<string, number>();
  for (let page = 1; ; page++) {
    const result = await reader.listPosts({ per_page: 200, page });
    for (const post of result.items)
      if (post.text.startsWith('Soak post'))
        copies.set(post.text, (copies.get(post.text) ?? 0) + 1);
    if (result.next.kind !== 'request') break;
  }
  const stats = (await admin('GET', '/state')).stats as { droppedAfterCommit: number };
  const duplicates = [...copies.values()].reduce((sum, count) => sum + count - 1, 0);
  const status = call(pressroom, 'status');
  pressroom.close();
  child.kill('SIGTERM');
  console.log(
    `${label}\n  ${POSTS} posts in ${(elapsed / 1000).toFixed(1)} s; answers dropped after commit ${stats.droppedAfterCommit}; requests ${status.requests}; 429s ${status.rateLimited}; duplicates ${duplicates}; lost ${POSTS - copies.size}; left failed ${status.outbox.failed}; left sending or waiting ${status.outbox.sending + status.outbox.retrying + status.outbox.queued}`,
  );
}

await soak('baseline: spec-literal server, nothing lost, clock on time', 0, 0);
await soak(
  'soak: spec-literal server, 5 % of answers lost after commit, clock 90 s behind',
  0.05,
  -90_000,
);
