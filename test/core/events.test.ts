// The core's events: every change to the queue at the user's hand is told to watchers (another
// window), and a publishing pass that fails as a whole is never silent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { CoreEvent } from '../../shared/answers';
import { startTestPlatform } from '../support/platform';
import { call } from '../../main/core/operations';

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('core events', () => {
  it('says the queue changed after adding, queueing, retrying, cancelling, importing and undoing', async () => {
    const pressroom = testWorkspace();
    const events: CoreEvent[] = [];
    pressroom.subscribe((event) => events.push(event));
    const queueChanges = () =>
      events.filter((event) => event.type === 'changed' && event.what === 'queue').length;
    const after = (work: () => unknown) => {
      const before = queueChanges();
      work();
      return queueChanges() - before;
    };

    const post = call(pressroom, 'addPost', {
      text: 'Soon',
      botId: 'bot_1',
      at: inAnHour(),
      zone: 'UTC',
    });
    expect(queueChanges()).toBeGreaterThan(0);
    const [item] = pressroom.store.outbox.list();
    expect(after(() => call(pressroom, 'cancelItem', { id: item?.id ?? 0 }))).toBeGreaterThan(0);
    expect(after(() => call(pressroom, 'retryItem', { id: item?.id ?? 0 }))).toBeGreaterThan(0);
    expect(
      after(() =>
        call(pressroom, 'updatePost', { id: post.id, at: inAnHour().replace('Z', '+01:00') }),
      ),
    ).toBeGreaterThan(0);
    const draft = call(pressroom, 'addPost', { text: 'Draft', botId: 'bot_1', mode: 'draft' });
    expect(
      after(() => call(pressroom, 'queuePost', { id: draft.id, mode: 'publish_now' })),
    ).toBeGreaterThan(0);

    const path = join(mkdtempSync(join(tmpdir(), 'pressroom-events-')), 'posts.csv');
    writeFileSync(path, `text,scheduled_at,timezone,bot\nImported,${inAnHour()},UTC,bot_1\n`);
    const before = queueChanges();
    const imported = await call(pressroom, 'importFile', { kind: 'posts', path, queue: true });
    expect(queueChanges()).toBeGreaterThan(before);
    expect(events).toContainEqual({ type: 'changed', what: 'posts' });
    expect(
      after(() => call(pressroom, 'undoImport', { batch: imported.batch ?? '' })),
    ).toBeGreaterThan(0);
  });

  it('passes a publishing pass that fails as a whole to onError', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const errors: unknown[] = [];
    const pressroom = testWorkspace({
      platform,
      onError: (error) => errors.push(error),
    });
    pressroom.store.outbox.ready = () => {
      throw new Error('disk I/O error');
    };
    let stop = () => {};
    const watching = pressroom.queue.watch(
      new Promise<void>((resolve) => (stop = resolve)),
      60_000,
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    await watching;
    expect(errors).toContainEqual(new Error('disk I/O error'));
  });
});
