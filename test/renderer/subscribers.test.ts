import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  OutboxItem,
  OutboxState,
  SubscriberDetail,
  SubscriberSummary,
  SyncReport,
} from '../../shared/domain';
import SubscribersScreen from '../../renderer/src/screens/SubscribersScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { SubscribersState, tally } from '../../renderer/src/state/subscribers.svelte';
import { outboxItem } from '../support/outbox';
import { stubJsdom } from './post-editor-fixtures';
import { FakeTransport, ok, refused } from './fake-transport';

const person = (id: string, name: string, tags: string[] = []): SubscriberSummary => ({
  id,
  botId: 'bot_1',
  name,
  tags,
  status: 'active',
});

const detail = (summary: SubscriberSummary): SubscriberDetail => ({
  ...summary,
  raw: {
    id: summary.id,
    name: summary.name,
    handle: '@ada',
    language: 'en',
    last_seen_at: '2026-11-20T09:30:00.000Z',
  },
});

const item = (id: number, extra: Partial<OutboxItem> = {}) => outboxItem(id, 'send_message', extra);

const counts = (patch: Partial<Record<OutboxState, number>>): Record<OutboxState, number> => ({
  queued: 0,
  sending: 0,
  done: 0,
  retrying: 0,
  failed: 0,
  cancelled: 0,
  ...patch,
});

const report: SyncReport = { bots: 1, posts: 0, products: 0, orders: 0, subscribers: 2 };
const ada = person('sub_1', 'Ada Lovelace', ['vip']);
const alan = person('sub_2', 'Alan Turing');

const BOTS = [
  { id: 'bot_1', name: 'Bakery', channel: 'telegram', status: null, description: null, pending: 0 },
  { id: 'bot_2', name: 'Cafe', channel: 'telegram', status: null, description: null, pending: 0 },
  { id: 'bot_3', name: 'Pop-up', channel: 'telegram', status: null, description: null, pending: 0 },
];

const shells: Shell[] = [];

function setup(people: SubscriberSummary[] = [ada, alan]) {
  let listed = people;
  const transport = new FakeTransport({
    listSubscribers: () => ok({ total: listed.length, rows: listed }),
    getSubscriber: (input) => {
      const found = listed.find((one) => one.id === (input as { id: string }).id);
      return found ? ok(detail(found)) : refused('no such subscriber');
    },
    sync: () => ok(report),
    sendMessage: () => ok(item(21)),
    addTag: () => ok(item(22, { kind: 'add_tag' })),
    getSettings: () => ok(null),
    status: () => ok(null),
    listBots: () => ok(BOTS),
  });
  const shell = new Shell(transport);
  // The shell relays the transport's events to the screens once started.
  void shell.start();
  shells.push(shell);
  const subscribers = new SubscribersState(shell);
  const stop = subscribers.watch();
  const platformHas = (next: SubscriberSummary[]) => (listed = next);
  return { transport, shell, subscribers, stop, platformHas };
}

afterEach(() => {
  cleanup();
  for (const shell of shells.splice(0)) shell.stop();
  vi.useRealTimers();
});

const shownTags = (subscribers: SubscribersState, who: SubscriberSummary) =>
  subscribers.tagsOf(who).map(({ tag, pending }) => (pending ? `${tag}…` : tag));

describe('subscribers state', () => {
  it('asks for one tag and the search from the first page, once typing pauses', async () => {
    vi.useFakeTimers();
    const { transport, subscribers, stop } = setup();
    subscribers.tag = ' vip ';
    subscribers.list.search = 'ad';
    subscribers.list.restartSoon();
    vi.advanceTimersByTime(100);
    subscribers.list.search = 'ada';
    subscribers.list.restartSoon();
    await vi.advanceTimersByTimeAsync(250);
    expect(transport.callsOf('listSubscribers')).toEqual([
      { offset: 0, limit: 50, search: 'ada', tag: 'vip' },
    ]);
    expect(subscribers.narrowed).toBe(true);
    stop();
  });

  it('shows an added tag at once and rolls it back with the server’s reason', async () => {
    const { transport, shell, subscribers } = setup();
    expect(await subscribers.addTag(ada, ' baker ')).toBeNull();
    expect(transport.callsOf('addTag')).toEqual([{ subscriberId: 'sub_1', tag: 'baker' }]);
    expect(shownTags(subscribers, ada)).toEqual(['vip', 'baker…']);
    expect(shownTags(subscribers, alan)).toEqual([]);

    transport.emit({
      type: 'failed',
      item: item(22, { kind: 'add_tag', state: 'failed' }),
      reason: 'subscriber sub_1 is unsubscribed',
      fieldErrors: [],
    });
    expect(shownTags(subscribers, ada)).toEqual(['vip']);
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Could not tag Ada Lovelace “baker”: subscriber sub_1 is unsubscribed',
    );
  });

  it('refuses a tag the subscriber has, and one the core refuses, without showing it', async () => {
    const { transport, subscribers } = setup();
    expect(await subscribers.addTag(ada, 'VIP')).toBe('Ada Lovelace already has the tag “VIP”');
    transport.answer('addTag', () => refused('tag: must not contain commas'));
    expect(await subscribers.addTag(ada, 'a,b')).toBe('tag: must not contain commas');
    expect(shownTags(subscribers, ada)).toEqual(['vip']);
    expect(transport.callsOf('addTag')).toHaveLength(1);
  });

  it('keeps a confirmed tag until the sync after it shows it', async () => {
    const { transport, subscribers, platformHas } = setup();
    await subscribers.load();
    await subscribers.addTag(ada, 'baker');
    platformHas([person('sub_1', 'Ada Lovelace', ['vip', 'baker']), alan]);
    transport.emit({
      type: 'done',
      item: item(22, { kind: 'add_tag', state: 'done' }),
      remoteId: 'sub_1',
    });
    expect(shownTags(subscribers, ada)).toEqual(['vip', 'baker']);
    await vi.waitFor(() => expect(subscribers.tagWrites.list).toEqual([]));
    expect(transport.callsOf('sync')).toEqual([{}]);
    expect(shownTags(subscribers, subscribers.list.rows[0]!)).toEqual(['vip', 'baker']);
  });

  it('follows a sent message from queued to sent, or to failed with the reason', async () => {
    const { transport, subscribers } = setup();
    expect(await subscribers.sendMessage('sub_1', 'Fresh rye at 8')).toBeNull();
    expect(subscribers.messagesTo('sub_1')).toMatchObject([
      { text: 'Fresh rye at 8', state: 'queued' },
    ]);
    transport.emit({ type: 'retrying', item: item(21), reason: 'HTTP 503', readyAt: 9 });
    expect(subscribers.messages[0]).toMatchObject({ state: 'retrying', reason: 'HTTP 503' });
    transport.emit({ type: 'done', item: item(21, { state: 'done' }), remoteId: 'msg_1' });
    expect(subscribers.messages[0]).toMatchObject({ state: 'done', reason: null });

    transport.answer('sendMessage', () => ok(item(23)));
    await subscribers.sendMessage('sub_2', 'Hello');
    transport.emit({
      type: 'failed',
      item: item(23, { state: 'failed' }),
      reason: 'subscriber sub_2 is unsubscribed',
      fieldErrors: [],
    });
    expect(subscribers.messagesTo('sub_2')).toMatchObject([
      { state: 'failed', reason: 'subscriber sub_2 is unsubscribed' },
    ]);
    expect(subscribers.messagesTo('sub_1')).toHaveLength(1);
  });

  it('polls a broadcast’s progress, also on its queue events, until every recipient is settled', async () => {
    vi.useFakeTimers();
    const { transport, subscribers, stop } = setup();
    let progress = counts({ queued: 3 });
    transport.answer('broadcast', () => ok({ group: 'broadcast-1', recipients: 3 }));
    transport.answer('broadcastProgress', () => ok(progress));
    expect(await subscribers.broadcast('vip', 'Doors open at 7', 3)).toBeNull();
    expect(transport.callsOf('broadcast')).toEqual([
      { tag: 'vip', text: 'Doors open at 7', recipients: 3 },
    ]);
    expect(subscribers.broadcastTally).toEqual({ sent: 0, failed: 0, waiting: 3, finished: false });

    progress = counts({ done: 1, queued: 2 });
    await vi.advanceTimersByTimeAsync(1_500);
    expect(subscribers.broadcastTally?.sent).toBe(1);

    progress = counts({ done: 2, failed: 1 });
    transport.emit({
      type: 'failed',
      item: item(30, { groupId: 'broadcast-1', state: 'failed' }),
      reason: 'unsubscribed',
      fieldErrors: [],
    });
    await vi.waitFor(() =>
      expect(subscribers.broadcastTally).toEqual({
        sent: 2,
        failed: 1,
        waiting: 0,
        finished: true,
      }),
    );
    const asked = transport.callsOf('broadcastProgress').length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.callsOf('broadcastProgress')).toHaveLength(asked);
    expect(transport.callsOf('broadcastProgress')[0]).toEqual({ group: 'broadcast-1' });
    stop();
  });

  it('counts cancelled messages as not sent', () => {
    expect(
      tally({ group: 'g', tag: 't', recipients: 4, counts: counts({ done: 2, cancelled: 1 }) }),
    ).toEqual({ sent: 2, failed: 1, waiting: 1, finished: false });
  });
});

describe('the subscribers screen', () => {
  it('opens a subscriber, adds a tag and sends a message that shows queued, then sent', async () => {
    const { transport, shell, stop } = setup();
    stop();
    render(SubscribersScreen, { context: shellContext(shell) });
    const table = await screen.findByRole('table', { name: 'Subscribers' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);

    await fireEvent.click(screen.getByRole('button', { name: 'Open Ada Lovelace' }));
    const panel = await screen.findByRole('complementary', { name: 'Ada Lovelace' });
    expect(transport.callsOf('getSubscriber')).toEqual([{ id: 'sub_1' }]);
    expect(within(panel).getByText('@ada')).toBeTruthy();
    expect(within(panel).getByText('Language')).toBeTruthy();
    expect(within(panel).getByText('Last seen at')).toBeTruthy();

    await fireEvent.input(within(panel).getByRole('textbox', { name: 'Add a tag' }), {
      target: { value: 'baker' },
    });
    await fireEvent.click(within(panel).getByRole('button', { name: 'Add tag' }));
    expect(transport.callsOf('addTag')).toEqual([{ subscriberId: 'sub_1', tag: 'baker' }]);
    expect(within(panel).getByText(/baker/).textContent).toContain('(adding)');
    expect(within(table).getAllByText(/baker/)).toHaveLength(1);

    await fireEvent.input(within(panel).getByRole('textbox', { name: 'Message to Ada Lovelace' }), {
      target: { value: 'Your loaf is ready' },
    });
    await fireEvent.click(within(panel).getByRole('button', { name: 'Send message' }));
    const log = await within(panel).findByRole('list', { name: 'Messages sent' });
    expect(log.textContent).toContain('Queued');
    expect(log.textContent).toContain('Your loaf is ready');
    transport.emit({ type: 'done', item: item(21, { state: 'done' }), remoteId: 'msg_1' });
    await vi.waitFor(() => expect(log.textContent).toContain('Sent'));

    await fireEvent.click(within(panel).getByRole('button', { name: 'Close the subscriber' }));
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Open Ada Lovelace');
  });

  it('tells one person on three bots apart by a bot column, each bot by its name', async () => {
    const { shell, stop } = setup(
      ['bot_1', 'bot_2', 'bot_3'].map((botId, index) => ({
        ...person(`sub_${index + 1}`, 'Ada Lovelace'),
        botId,
      })),
    );
    stop();
    render(SubscribersScreen, { context: shellContext(shell) });
    const table = await screen.findByRole('table', { name: 'Subscribers' });
    expect(within(table).getByRole('columnheader', { name: 'Bot' })).toBeTruthy();
    await vi.waitFor(() =>
      expect(
        within(table)
          .getAllByRole('row')
          .slice(1)
          .map((row) => within(row).getAllByRole('cell')[1]?.textContent?.trim()),
      ).toEqual(['Bakery', 'Cafe', 'Pop-up']),
    );
  });

  it('names the open subscriber’s bot, not its id', async () => {
    const { shell, stop } = setup([{ ...ada, botId: 'bot_2' }]);
    stop();
    render(SubscribersScreen, { context: shellContext(shell) });
    await fireEvent.click(await screen.findByRole('button', { name: 'Open Ada Lovelace' }));
    const panel = await screen.findByRole('complementary', { name: 'Ada Lovelace' });
    const bot = within(panel).getByText('Bot').nextElementSibling;
    await vi.waitFor(() => expect(bot?.textContent).toBe('Cafe'));
    expect(panel.textContent).not.toContain('bot_2');
  });

  it('shows the core’s refusal of a message in the form and keeps the text', async () => {
    const { transport, shell, stop } = setup();
    stop();
    transport.answer('sendMessage', () => refused('text: must be at most 4096 characters'));
    render(SubscribersScreen, { context: shellContext(shell) });
    await fireEvent.click(await screen.findByRole('button', { name: 'Open Alan Turing' }));
    const panel = await screen.findByRole('complementary', { name: 'Alan Turing' });
    const box = within(panel).getByRole('textbox', { name: 'Message to Alan Turing' });
    await fireEvent.input(box, { target: { value: 'Hello' } });
    await fireEvent.click(within(panel).getByRole('button', { name: 'Send message' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(
      'text: must be at most 4096 characters',
    );
    expect((box as HTMLTextAreaElement).value).toBe('Hello');
    expect(within(panel).queryByRole('list', { name: 'Messages sent' })).toBeNull();
  });

  it('suggests known tags, counts the recipients, asks, and only then broadcasts', async () => {
    stubJsdom();
    const { transport, shell, stop } = setup();
    stop();
    transport.answer('listTagAudiences', () =>
      ok([
        { tag: 'vip', recipients: 4 },
        { tag: 'wholesale', recipients: 1 },
      ]),
    );
    transport.answer('broadcast', () => ok({ group: 'broadcast-1', recipients: 4 }));
    transport.answer('broadcastProgress', () => ok(counts({ done: 4 })));
    render(SubscribersScreen, { context: shellContext(shell) });
    const section = await screen.findByRole('region', { name: 'Broadcast to a tag' });
    const tagBox = within(section).getByRole('combobox', { name: 'Tag' });
    await vi.waitFor(() =>
      expect(
        [...section.querySelectorAll('datalist option')].map((option) =>
          option.getAttribute('value'),
        ),
      ).toEqual(['vip', 'wholesale']),
    );
    await fireEvent.input(tagBox, { target: { value: 'VIP' } });
    expect(section.textContent).toContain('Reaches 4 active subscribers');
    await fireEvent.input(within(section).getByRole('textbox', { name: 'Message' }), {
      target: { value: 'Doors open at 7' },
    });
    const send = within(section).getByRole('button', { name: 'Send to the tag…' });
    await fireEvent.click(send);
    let question = await screen.findByRole('alertdialog', {
      name: 'Send to 4 active subscribers?',
    });
    expect(question.textContent).toMatch(/Sent\s+messages\s+cannot\s+be\s+called\s+back/);
    await fireEvent.click(within(question).getByRole('button', { name: 'Don’t send' }));
    expect(transport.callsOf('broadcast')).toEqual([]);

    await fireEvent.click(send);
    question = await screen.findByRole('alertdialog', { name: 'Send to 4 active subscribers?' });
    await fireEvent.click(
      within(question).getByRole('button', { name: 'Send to 4 active subscribers' }),
    );
    expect(transport.callsOf('broadcast')).toEqual([
      { tag: 'VIP', text: 'Doors open at 7', recipients: 4 },
    ]);
    const bar = await within(section).findByRole('progressbar', { name: 'Broadcast to VIP' });
    await vi.waitFor(() => expect(bar.getAttribute('value')).toBe('4'));
    expect(bar.getAttribute('max')).toBe('4');
    expect(section.textContent).toMatch(
      /Broadcast to “VIP” finished: 4 of 4\s+sent, 0 failed, 0 waiting/,
    );
  });

  it('says at once when no subscriber has the tag, and sends nothing', async () => {
    const { transport, shell, stop } = setup([]);
    stop();
    transport.answer('listTagAudiences', () => ok([{ tag: 'vip', recipients: 2 }]));
    render(SubscribersScreen, { context: shellContext(shell) });
    expect((await screen.findByText(/No subscribers yet/)).textContent).toMatch(
      /Refresh\s+from the platform/,
    );
    const section = screen.getByRole('region', { name: 'Broadcast to a tag' });
    await fireEvent.input(within(section).getByRole('textbox', { name: 'Message' }), {
      target: { value: 'Hi' },
    });
    await fireEvent.input(within(section).getByRole('combobox', { name: 'Tag' }), {
      target: { value: 'vipp' },
    });
    expect(within(section).getByText(/No active subscriber has the tag “vipp”/)).toBeTruthy();
    expect(
      (within(section).getByRole('button', { name: 'Send to the tag…' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    expect(transport.callsOf('broadcast')).toEqual([]);
  });
});
