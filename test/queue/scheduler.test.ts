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
    const pressroom = testWorkspace({
      platform,
    });
    let stop: () => void = () => undefined;
    const watching = pressroom.queue.watch(new Promise<void>((resolve) => (stop = resolve)));
    try {
      const started = Date.now();
      const now = call(pressroom, 'addPost', {
        text: 'Right away',
        botId: 'bot_1',
        mode: 'publish_now',
      });
      await waitFor(() => pressroom.store.posts.require(now.id).status === 'published');
      expect(Date.now() - started).toBeLessThan(500); // not held until the next tick

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
