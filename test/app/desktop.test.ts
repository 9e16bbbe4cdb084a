// The native parts as data: which queue events notify and how, the tray's line and menu, the
// application menu per platform, and the update check that stays inert without a publish target.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutboxItem, Status } from '../../shared/domain';
import { applicationMenu, notificationFor, queueSummary, trayMenu } from '../../main/app/desktop';
import type { NotificationSubject } from '../../main/app/desktop';
import { createLog } from '../../main/app/log';
import { checkForUpdates } from '../../main/app/updater';
import type { Updater } from '../../main/app/updater';
import { outboxItem } from '../support/outbox';
import { menuItem } from './fake-electron';

const item = (kind: OutboxItem['kind'], ids: Partial<OutboxItem> = {}): OutboxItem =>
  outboxItem(1, kind, { state: 'done', priority: 1, attempts: 1, idempotencyKey: 'k', ...ids });

const words = (entry: NotificationSubject) =>
  entry.postId === 7
    ? '  Rye   is back,\n warm from the oven  '
    : entry.productId
      ? 'Sourdough loaf'
      : null;

function status(outbox: Partial<Status['outbox']>, paused: string | null = null): Status {
  return {
    outbox: { queued: 0, sending: 0, retrying: 0, done: 0, failed: 0, cancelled: 0, ...outbox },
    paused,
  } as Status;
}

describe('notifications', () => {
  it('tell of published, failed and missed posts and products, in a few plain words', () => {
    expect(
      notificationFor(
        { type: 'done', item: item('create_post', { postId: 7 }), remoteId: 'p1' },
        words,
      ),
    ).toEqual({
      options: { title: 'Published', body: 'Post “Rye is back, warm from the oven” is live.' },
      opens: 'calendar/post/7',
    });
    expect(
      notificationFor(
        {
          type: 'failed',
          item: item('create_product', { productId: 3 }),
          reason: 'POST /products: 422 validation_failed: price must be positive',
          fieldErrors: [{ field: 'price', message: 'must be positive' }],
        },
        words,
      ),
    ).toEqual({
      options: {
        title: 'Publishing failed',
        body: 'Product “Sourdough loaf”: The platform refused the price (must be positive). Correct it in the product, then publish again.',
      },
      opens: 'queue',
    });
    expect(
      notificationFor({ type: 'missed', item: item('create_post', { postId: 8 }) }, words),
    ).toMatchObject({
      options: {
        title: 'Missed its time',
        body: expect.stringMatching(/^Post was not sent on time/),
      },
      opens: 'calendar/post/8',
    });
  });

  it('tell of a post sent to me for review or back to me, and open it', () => {
    expect(
      notificationFor({ type: 'review', kind: 'to_review', postId: 7, by: 'Ana' }, words),
    ).toEqual({
      options: {
        title: 'Waiting for your review',
        body: 'Ana sent Post “Rye is back, warm from the oven” for your review.',
      },
      opens: 'calendar/post/7',
    });
    expect(
      notificationFor({ type: 'review', kind: 'sent_back', postId: 9, by: 'Bea' }, words),
    ).toEqual({
      options: {
        title: 'Sent back to you',
        body: 'Bea sent back Post with a comment: change it and submit it again.',
      },
      opens: 'calendar/post/9',
    });
  });

  it('stay quiet for other writes and other events', () => {
    expect(
      notificationFor({ type: 'done', item: item('add_tag'), remoteId: null }, words),
    ).toBeNull();
    expect(notificationFor({ type: 'paused', reason: 'Paused by you' }, words)).toBeNull();
    expect(notificationFor({ type: 'changed', what: 'posts' }, words)).toBeNull();
  });

  it('shorten long posts', () => {
    const long = () => 'x'.repeat(100);
    const note = notificationFor(
      { type: 'done', item: item('create_post', { postId: 1 }), remoteId: null },
      long,
    );
    expect(note?.options.body).toBe(`Post “${'x'.repeat(59)}…” is live.`);
  });
});

describe('tray', () => {
  it('sums up the queue in one line', () => {
    expect(
      queueSummary({ status: status({ queued: 2, retrying: 1, failed: 4 }), connected: true }),
    ).toBe('Pressroom: running, 3 waiting, 4 failed');
    expect(queueSummary({ status: status({ sending: 2 }), connected: true })).toBe(
      'Pressroom: sending 2, 0 waiting',
    );
    expect(queueSummary({ status: status({}), connected: false })).toBe(
      'Pressroom: offline drafts (no account)',
    );
  });

  it('offers Pause or Resume, disabled when no queue runs', () => {
    const actions = {
      showWindow: () => undefined,
      pause: () => undefined,
      resume: () => undefined,
      quit: () => undefined,
    };
    expect(
      menuItem(
        trayMenu({ status: status({}, 'Paused by you'), connected: true }, actions),
        'Resume Queue',
      ).enabled,
    ).toBe(true);
    expect(
      menuItem(trayMenu({ status: status({}), connected: false }, actions), 'Pause Queue').enabled,
    ).toBe(false);
  });
});

describe('application menu', () => {
  const actions = {
    showScreen: () => undefined,
    newPost: () => undefined,
    importCsv: () => undefined,
    exportCsv: () => undefined,
  };

  it('puts Settings and Quit in File on Windows and Linux', () => {
    const menu = applicationMenu(actions, 'win32', true);
    expect(menu.map((entry) => entry.label ?? entry.role)).toEqual([
      'File',
      'editMenu',
      'View',
      'windowMenu',
    ]);
    expect(menuItem(menu, 'Settings…').accelerator).toBe('CmdOrCtrl+,');
    expect(menu[0]!.submenu!.at(-1)).toEqual({ role: 'quit', accelerator: 'Ctrl+Q' });
  });

  it('offers Toggle DevTools only in a build that is not packaged', () => {
    const roles = (packaged: boolean, platform: NodeJS.Platform) =>
      applicationMenu(actions, platform, packaged)
        .find((entry) => entry.label === 'View')!
        .submenu!.map((item) => item.role);
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      expect(roles(true, platform)).not.toContain('toggleDevTools');
      expect(roles(false, platform)).toContain('toggleDevTools');
    }
  });
});

describe('updates', () => {
  function recorder() {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-update-'));
    const log = createLog({ file: join(folder, 'main.log') });
    return { folder, log, text: () => readFileSync(join(folder, 'main.log'), 'utf8') };
  }

  it('do nothing until the build names a publish target', () => {
    const { folder, log, text } = recorder();
    const load = (): Updater => {
      throw new Error('electron-updater must not be loaded');
    };
    expect(checkForUpdates({ resourcesPath: null, log, load })).toBe(false);
    expect(checkForUpdates({ resourcesPath: folder, log, load })).toBe(false);
    expect(text()).toMatch(/no publish target configured/);
  });

  it('check and log through electron-updater once app-update.yml is packaged', async () => {
    const { folder, log } = recorder();
    writeFileSync(join(folder, 'app-update.yml'), 'provider: github\n');
    let checks = 0;
    const updater: Updater = {
      logger: null,
      checkForUpdatesAndNotify: async () => void checks++,
    };
    expect(checkForUpdates({ resourcesPath: folder, log, load: () => updater })).toBe(true);
    expect(checks).toBe(1);
    expect(updater.logger).toBe(log);
  });
});
