// The heartbeat: a change wakes the queue at once, and due posts go out on time.
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

const waitFor = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('scheduler', () => {
  it('publishes a change at once and a due post on time, while watching', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    // A heartbeat that does not tick while the test runs: what goes out goes by the change's wake
    // or the precise timer, never by a tick, however slow the machine is.
    const heartbeat = { cron: '0 0 0 1 1 *', everyMs: 60_000 };
    const pressroom = testWorkspace({ platform, heartbeat });
    let stop: () => void = () => undefined;
    const watching = pressroom.queue.watch(new Promise<void>((resolve) => (stop = resolve)));
    try {
      const now = call(pressroom, 'addPost', {
        text: 'Right away',
        botId: 'bot_1',
        mode: 'publish_now',
      });
      // Not held until the next tick: none comes before this gives up.
      await waitFor(() => pressroom.store.posts.require(now.id).status === 'published');

      const dueAt = Date.now() + 1_300;
      const due = call(pressroom, 'addPost', {
        text: 'On time',
        botId: 'bot_1',
        at: new Date(dueAt).toISOString(),
        zone: 'UTC',
      });
      await waitFor(() => pressroom.store.posts.require(due.id).status === 'published');
      const publishedAt = pressroom.store.posts.require(due.id).publishedAt ?? 0;
      expect(publishedAt).toBeGreaterThanOrEqual(dueAt);
      expect(publishedAt - dueAt).toBeLessThan(1_000);
    } finally {
      stop();
      await watching;
      pressroom.close();
    }
  });
});
