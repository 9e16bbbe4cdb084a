import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import App from '../../renderer/src/App.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { FakeTransport, ok } from './fake-transport';
import { outboxItem } from '../support/outbox';
import { post, stubJsdom } from './post-editor-fixtures';

const settings = {
  timezone: 'Europe/Berlin',
  graceMinutes: 30,
  theme: 'dark',
  defaultCurrency: 'EUR',
  defaultBotId: null,
  account: { mode: 'demo', apiBase: 'http://127.0.0.1:1/api/v1', tokenHint: null, plan: 'free' },
};

describe('the app shell', () => {
  it('labels the demo workspace, applies the theme and switches screens', async () => {
    const transport = new FakeTransport({
      getSettings: () => ok(settings),
      status: () => ok(null),
    });
    const shell = new Shell(transport);
    render(App, { context: shellContext(shell) });
    expect(await screen.findByText('Demo workspace')).toBeTruthy();
    expect(document.documentElement.dataset.theme).toBe('dark');
    screen.getByRole('link', { name: 'Settings' }).click();
    await Promise.resolve();
    expect(shell.screen).toBe('settings');
    expect(location.hash).toBe('#/settings');
    // The screen is loaded when first opened; waited for, so its load never outlives the file.
    const heading = screen.findByRole(
      'heading',
      { level: 1, name: 'Settings' },
      { timeout: 10_000 },
    );
    expect(await heading).toBeTruthy();
    shell.stop();
  });

  it('reads the status once for a burst of events, and once more after it', async () => {
    const transport = new FakeTransport({
      getSettings: () => ok(settings),
      status: () => ok(null),
    });
    const shell = new Shell(transport);
    await shell.start();
    const before = transport.callsOf('status').length;
    for (let i = 0; i < 100; i++) transport.emit({ type: 'changed', what: 'queue' });
    await vi.waitFor(() => expect(transport.callsOf('status').length).toBe(before + 2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(transport.callsOf('status').length).toBe(before + 2);
    shell.stop();
  });

  it('shows the system theme as the OS’s light or dark, and follows the OS as it changes', async () => {
    // jsdom has no matchMedia: a stand-in for the OS's dark mode, switched by the test.
    const systemDark = Object.assign(new EventTarget(), { matches: true });
    vi.stubGlobal('matchMedia', () => systemDark);
    const transport = new FakeTransport({
      getSettings: () => ok({ ...settings, theme: 'system' }),
      status: () => ok(null),
    });
    const shell = new Shell(transport);
    const view = render(App, { context: shellContext(shell) });
    await vi.waitFor(() => expect(shell.settings?.theme).toBe('system'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    systemDark.matches = false;
    systemDark.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    view.unmount();
    shell.stop();
    vi.unstubAllGlobals();
  });

  it('shows a failed call as an error notice', async () => {
    const transport = new FakeTransport({
      getSettings: () => ({ ok: false, error: { kind: 'internal', message: 'disk is full' } }),
      status: () => ok(null),
    });
    location.hash = '#/calendar'; // the test before left the app on Settings, which says it too
    const shell = new Shell(transport);
    render(App, { context: shellContext(shell) });
    expect(await screen.findByText(/disk is full/)).toBeTruthy();
    shell.stop();
  });

  it('follows the address as the desktop menu changes it, New Post included', async () => {
    const transport = new FakeTransport({
      getSettings: () => ok(settings),
      status: () => ok(null),
    });
    location.hash = '#/catalog';
    const shell = new Shell(transport);
    expect(shell.screen).toBe('catalog');
    await shell.start();
    location.hash = '#/queue';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(shell.screen).toBe('queue');
    location.hash = '#/calendar/new';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(shell.screen).toBe('calendar');
    expect(shell.newPostRequested).toBe(true);
    expect(location.hash).toBe('#/calendar');
    shell.stop();
  });
});

/** The whole app on the Bots screen (away from what a notice opens), once it has loaded. */
async function appOnBots(transport: FakeTransport) {
  cleanup();
  stubJsdom();
  history.replaceState(null, '', '#/bots');
  const shell = new Shell(transport);
  const view = render(App, { context: shellContext(shell) });
  await screen.findByText('Demo workspace');
  // The screen is loaded when first opened; waited for, so its load never outlives the file.
  await screen.findByRole('heading', { level: 1, name: 'Bots' }, { timeout: 10_000 });
  return { shell, view };
}

describe('failures', () => {
  it('tells a failed post at once in plain words, counts it on the Queue, and opens the post', async () => {
    const failedPost = post({ id: 12, text: 'Pop-up stand opens at noon', status: 'failed' });
    let failed = 0;
    const transport = new FakeTransport({
      getSettings: () => ok(settings),
      status: () =>
        ok({ outbox: { queued: 0, sending: 0, retrying: 0, done: 0, cancelled: 0, failed } }),
      getPost: () => ok(failedPost),
    });
    const { shell, view } = await appOnBots(transport);
    expect(screen.getByRole('link', { name: 'Queue' })).toBeTruthy();
    failed = 1;
    transport.emit({
      type: 'failed',
      item: outboxItem(3, 'create_post', { postId: 12, state: 'sending' }),
      reason: 'POST /posts: 422 validation_failed: bot_id no bot with id "bot_4"',
      fieldErrors: [{ field: 'bot_id', message: 'no bot with id "bot_4"' }],
    });
    const notice = (await screen.findByText(/A post could not be published/)).closest('.notice');
    if (!(notice instanceof HTMLElement)) throw new Error('no notice');
    expect(notice.textContent).toContain(
      'A post could not be published. The bot this post was for no longer exists on the platform. Pick another bot and publish again.',
    );
    expect(notice.textContent).not.toContain('bot_4');
    expect(await screen.findByRole('link', { name: /^Queue\W+1 needs attention$/ })).toBeTruthy();
    await fireEvent.click(within(notice).getByRole('button', { name: 'Open the post' }));
    expect(shell.screen).toBe('calendar');
    await vi.waitFor(() => expect(transport.callsOf('getPost')).toEqual([{ id: 12 }]));
    // The editor is loaded when first opened: on a busy machine that takes more than a second.
    const opened = screen.findByDisplayValue('Pop-up stand opens at noon', {}, { timeout: 10_000 });
    expect(await opened).toBeTruthy();
    shell.stop();
    view.unmount();
  });
});

describe('review notices', () => {
  it('tells a post sent back to me on any screen, and opens it', async () => {
    const sentBack = post({ id: 21, text: 'Cider at the market' });
    const transport = new FakeTransport({
      getSettings: () => ok(settings),
      getPost: () => ok(sentBack),
    });
    const { shell, view } = await appOnBots(transport);
    transport.emit({ type: 'review', kind: 'sent_back', postId: 21, by: 'Bea' });
    const notice = (await screen.findByText(/Sent back to you/)).closest('.notice');
    if (!(notice instanceof HTMLElement)) throw new Error('no notice');
    expect(notice.textContent).toContain(
      'Sent back to you: Bea sent back a post with a comment: change it and submit it again.',
    );
    await fireEvent.click(within(notice).getByRole('button', { name: 'Open the post' }));
    expect(shell.screen).toBe('calendar');
    await vi.waitFor(() => expect(transport.callsOf('getPost')).toEqual([{ id: 21 }]));
    shell.stop();
    view.unmount();
  });
});
