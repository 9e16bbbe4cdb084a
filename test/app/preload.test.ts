// The preload: exposes exactly `window.pressroom` — the renderer's Transport — with calls on each
// operation's own channel and events without Electron's event object; no ipcRenderer, no Node.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallResult, CoreEvent } from '../../shared/answers';
import type { Transport } from '../../renderer/src/lib/api';
import { DROPPED_FILE_CHANNEL } from '../../main/app/channels';

const exposed = new Map<string, unknown>();
const invoked: { channel: string; args: unknown[] }[] = [];
const listeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>();

vi.mock('electron', () => ({
  // Electron gives a path only for a File the user dropped or picked; none for one made by script.
  webUtils: {
    getPathForFile: (file: File) => (file.name === 'made-up.csv' ? '' : `/home/u/${file.name}`),
  },
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    async invoke(channel: string, ...args: unknown[]): Promise<CallResult> {
      invoked.push({ channel, args });
      // Like Electron when the main process registered no handler for the channel.
      if (channel.endsWith(':noSuchThing'))
        throw new Error(`No handler registered for '${channel}'`);
      return { ok: true, value: [] };
    },
    on(channel: string, listener: (event: unknown, payload: unknown) => void) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
    removeListener(channel: string, listener: (event: unknown, payload: unknown) => void) {
      listeners.set(
        channel,
        (listeners.get(channel) ?? []).filter((known) => known !== listener),
      );
    },
  },
}));

let transport: Transport;
beforeAll(async () => {
  await import('../../main/app/preload');
  transport = exposed.get('pressroom') as Transport;
});

describe('preload', () => {
  it('exposes only window.pressroom, with call, events, dropped files and uploads', () => {
    expect([...exposed.keys()]).toEqual(['pressroom']);
    expect(Object.keys(transport).sort()).toEqual(['call', 'dropFile', 'events', 'upload']);
  });

  it('hands main the path of a file dropped on the page, and none for a file made by script', async () => {
    invoked.length = 0;
    await transport.dropFile!(new File(['text\n'], 'week.csv'));
    await transport.dropFile!(new File(['text\n'], 'made-up.csv'));
    expect(invoked).toEqual([{ channel: DROPPED_FILE_CHANNEL, args: ['/home/u/week.csv'] }]);
  });

  it('sends each call on its operation’s channel with its one payload', async () => {
    expect(await transport.call('listPosts', { status: 'draft' })).toEqual({ ok: true, value: [] });
    expect(invoked.at(-1)).toEqual({
      channel: 'pressroom:call:listPosts',
      args: [{ status: 'draft' }],
    });
  });

  it('answers a name outside the contract as unknown, never with a throw', async () => {
    const result = await transport.call('noSuchThing' as 'listPosts', {});
    expect(result).toEqual({
      ok: false,
      error: { kind: 'unknown_operation', message: 'There is no operation "noSuchThing"' },
    });
  });

  it('hands the page core events alone, and stops when asked', () => {
    const seen: CoreEvent[] = [];
    const stop = transport.events((event) => seen.push(event));
    const emit = (payload: CoreEvent) =>
      listeners
        .get('pressroom:event')
        ?.forEach((listener) => listener({ sender: 'secret' }, payload));
    emit({ type: 'changed', what: 'posts' });
    stop();
    emit({ type: 'changed', what: 'queue' });
    expect(seen).toEqual([{ type: 'changed', what: 'posts' }]);
  });
});
