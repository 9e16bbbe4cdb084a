import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/answers';
import type { BotSummary, SyncReport } from '../../shared/domain';
import BotsScreen from '../../renderer/src/screens/BotsScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { BotsState, applyWrites } from '../../renderer/src/state/bots.svelte';
import type { BotWrite } from '../../renderer/src/state/bots.svelte';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { outboxItem as item } from '../support/outbox';
import { FakeTransport, ok, refused } from './fake-transport';
import { bot } from './fixtures';
import { botSchedule, stubJsdom } from './post-editor-fixtures';

const report: SyncReport = { bots: 2, posts: 0, products: 0, orders: 0, subscribers: 0 };
/**
 * A core with these bots and schedules (bot id → text); setSchedule keeps the text and announces
 * the change, as the core does.
 */
function setup(
  cached: BotSummary[] = [bot('bot_1', 'Corner Bakery'), bot('bot_2', 'Orders')],
  schedules = new Map<string, string>(),
) {
  let list = cached;
  const transport = new FakeTransport({
    listBots: () => ok(list),
    listSchedules: () => ok([...schedules].map(([botId, text]) => ({ botId, text }))),
    getSchedule: (input) => {
      const { botId } = input as { botId: string };
      return ok(botSchedule(botId, schedules.get(botId) ?? ''));
    },
    setSchedule: (input) => {
      const { botId, schedule } = input as { botId: string; schedule: string };
      if (schedule) schedules.set(botId, schedule);
      else schedules.delete(botId);
      transport.emit({ type: 'changed', what: 'schedules' });
      return ok(botSchedule(botId, schedule));
    },
    sync: () => ok(report),
    createBot: () => ok(item(10, 'create_bot')),
    renameBot: () => ok(item(11, 'update_bot')),
    deleteBot: () => ok(item(12, 'delete_bot')),
    getSettings: () => ok(null),
    status: () => ok(null),
  });
  const shell = new Shell(transport);
  // The shell relays the transport's events to the screens once started.
  void shell.start();
  shells.push(shell);
  const bots = new BotsState(shell);
  const stop = bots.watch();
  /** What the platform lists from the next sync on. */
  const platformHas = (next: BotSummary[]) => (list = next);
  return { transport, shell, bots, stop, platformHas };
}

const shells: Shell[] = [];
beforeAll(stubJsdom);
afterEach(() => {
  cleanup();
  for (const shell of shells.splice(0)) shell.stop();
});

const names = (bots: BotsState) => bots.rows.map((row) => `${row.name}:${row.change ?? ''}`);

describe('bots state', () => {
  it('shows a created bot as pending, then keeps it under its platform id until a sync has it', async () => {
    const { transport, bots, platformHas } = setup();
    await bots.load();
    expect(
      await bots.create({ name: ' Night Shift ', channel: 'whatsapp', description: '' }),
    ).toBeNull();
    expect(transport.callsOf('createBot')).toEqual([
      { name: 'Night Shift', channel: 'whatsapp', description: null },
    ]);
    expect(names(bots)).toEqual(['Corner Bakery:', 'Orders:', 'Night Shift:creating']);

    // The platform made it; until the sync after it lands, the row stands in for the cache.
    platformHas([bot('bot_1', 'Corner Bakery'), bot('bot_9', 'Night Shift')]);
    transport.emit({
      type: 'done',
      item: item(10, 'create_bot', { state: 'done' }),
      remoteId: 'bot_9',
    });
    expect(bots.rows.at(-1)).toMatchObject({ id: 'bot_9', name: 'Night Shift', change: null });
    await vi.waitFor(() => expect(transport.callsOf('listBots')).toHaveLength(2));
    expect(transport.callsOf('sync')).toEqual([{}]);
    expect(bots.writes.list).toEqual([]);
    expect(names(bots)).toEqual(['Corner Bakery:', 'Night Shift:']);
  });

  it('keeps a settled write shown when the sync could not read the bots', async () => {
    const { transport, bots } = setup();
    await bots.load();
    await bots.rename(bots.rows[0]!, 'Corner Café');
    transport.answer('sync', () => ok({ ...report, bots: { error: 'HTTP 503' } }));
    transport.emit({
      type: 'done',
      item: item(11, 'update_bot', { state: 'done' }),
      remoteId: 'bot_1',
    });
    await vi.waitFor(() => expect(transport.callsOf('listBots')).toHaveLength(2));
    expect(names(bots)[0]).toBe('Corner Café:');
    expect(bots.refreshError).toContain('HTTP 503');
  });

  it('rolls a rename back with the server’s reason when the queue fails it', async () => {
    const { transport, shell, bots } = setup();
    await bots.load();
    await bots.rename(bots.rows[0]!, 'Corner Café');
    expect(transport.callsOf('renameBot')).toEqual([{ botId: 'bot_1', name: 'Corner Café' }]);
    expect(names(bots)[0]).toBe('Corner Café:renaming');

    transport.emit({
      type: 'retrying',
      item: item(11, 'update_bot'),
      reason: 'The platform is busy',
      readyAt: 5,
    });
    expect(bots.rows[0]?.note).toBe('The platform is busy');

    transport.emit({
      type: 'failed',
      item: item(11, 'update_bot', { state: 'failed' }),
      reason: 'name: is already taken',
      fieldErrors: [],
    });
    expect(names(bots)[0]).toBe('Corner Bakery:');
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Could not rename “Corner Bakery”: name: is already taken',
    );
  });

  it('rolls a delete back at once when the core refuses it', async () => {
    const { transport, shell, bots } = setup();
    await bots.load();
    transport.answer('deleteBot', () => refused('no bot bot_2'));
    const deleting = bots.remove(bots.rows[1]!);
    expect(names(bots)[1]).toBe('Orders:deleting');
    await deleting;
    expect(names(bots)[1]).toBe('Orders:');
    expect(shell.notices.list.at(-1)?.text).toBe('Could not delete “Orders”: no bot bot_2');
  });

  it('settles a write whose queue event came before the call’s answer', async () => {
    const { transport, bots, platformHas } = setup();
    await bots.load();
    platformHas([bot('bot_1', 'Corner Bakery')]);
    let answer: (result: CallResult) => void = () => undefined;
    transport.answer('deleteBot', () => new Promise((resolve) => (answer = resolve)));
    const deleting = bots.remove(bots.rows[1]!);
    transport.emit({
      type: 'done',
      item: item(12, 'delete_bot', { state: 'done' }),
      remoteId: 'bot_2',
    });
    answer(ok(item(12, 'delete_bot')));
    await deleting;
    expect(names(bots)).toEqual(['Corner Bakery:']);
  });

  it('lays writes over the cache in order', () => {
    const write = (patch: Partial<BotWrite> & Pick<BotWrite, 'kind' | 'key'>): BotWrite => ({
      botId: 'bot_1',
      name: 'Renamed',
      channel: null,
      description: null,
      settled: true,
      note: null,
      ...patch,
    });
    const cached = [bot('bot_1', 'One'), bot('bot_2', 'Two')];
    expect(
      applyWrites(cached, [
        write({ key: 1, kind: 'rename' }),
        write({ key: 2, kind: 'delete', botId: 'bot_2', settled: false }),
        write({ key: 3, kind: 'create', botId: null, name: 'Three', settled: false }),
      ]).map((row) => [row.id, row.name, row.change]),
    ).toEqual([
      ['bot_1', 'Renamed', null],
      ['bot_2', 'Two', 'deleting'],
      ['new-3', 'Three', 'creating'],
    ]);
    expect(applyWrites(cached, [write({ key: 1, kind: 'delete', botId: 'bot_2' })])).toHaveLength(
      1,
    );
  });
});

describe('the bots screen', () => {
  it('creates a bot and shows the core’s refusal in the form', async () => {
    const { transport, shell, stop } = setup();
    stop();
    transport.answer('createBot', () => refused('name: must be at most 64 characters'));
    render(BotsScreen, { context: shellContext(shell) });
    await screen.findByRole('table', { name: 'Bots' });
    const form = screen.getByRole('form', { name: 'New bot' });
    await fireEvent.input(within(form).getByRole('textbox', { name: 'Name' }), {
      target: { value: 'Weekend' },
    });
    await fireEvent.click(within(form).getByRole('button', { name: 'Create bot' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'name: must be at most 64 characters',
    );
    expect(screen.queryByText('Weekend')).toBeNull();

    transport.answer('createBot', () => ok(item(10, 'create_bot')));
    await fireEvent.click(within(form).getByRole('button', { name: 'Create bot' }));
    const row = (await screen.findByText('Weekend')).closest('tr')!;
    expect(row.textContent).toContain('Creating…');
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('renames inline and deletes after asking, each pending until the queue answers', async () => {
    const { transport, shell, stop, platformHas } = setup();
    stop();
    render(BotsScreen, { context: shellContext(shell) });
    await screen.findByRole('table', { name: 'Bots' });

    await fireEvent.click(screen.getByRole('button', { name: 'Rename Corner Bakery' }));
    const input = screen.getByRole('textbox', { name: 'New name for Corner Bakery' });
    expect(document.activeElement).toBe(input);
    await fireEvent.input(input, { target: { value: 'Corner Café' } });
    await fireEvent.submit(input.closest('form')!);
    const renamed = (await screen.findByText('Corner Café')).closest('tr')!;
    expect(renamed.textContent).toContain('Renaming…');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Rename Corner Café');
    platformHas([bot('bot_1', 'Corner Café'), bot('bot_2', 'Orders')]);
    transport.emit({
      type: 'done',
      item: item(11, 'update_bot', { state: 'done' }),
      remoteId: 'bot_1',
    });
    await vi.waitFor(() => expect(renamed.textContent).not.toContain('Renaming…'));
    expect(renamed.textContent).toContain('Corner Café');

    const orders = screen.getByText('Orders').closest('tr')!;
    // The question counts what the bot has here and asks what becomes of it.
    // With none here, it still counts what the platform deletes with it: the posts the platform
    // was to publish itself (the Queue lists them) are not "no scheduled posts".
    transport.answer('botPosts', () =>
      ok({ scheduled: 0, drafts: 0, onPlatform: 3, subscribers: 1 }),
    );
    await fireEvent.click(within(orders).getByRole('button', { name: 'Delete Orders…' }));
    let question = await screen.findByRole('alertdialog', { name: 'Delete Orders?' });
    expect(question.textContent).not.toMatch(/no scheduled posts/);
    expect(question.textContent).toMatch(
      /Deleting it also deletes, on the platform, its 3 scheduled posts and its 1 subscriber\./,
    );
    expect(within(question).queryByRole('radio')).toBeNull();
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    transport.answer('botPosts', () =>
      ok({ scheduled: 1, drafts: 2, onPlatform: 0, subscribers: 0 }),
    );
    await fireEvent.click(within(orders).getByRole('button', { name: 'Delete Orders…' }));
    question = await screen.findByRole('alertdialog', { name: 'Delete Orders?' });
    expect(question.textContent).toMatch(/Orders has 1 scheduled post and 2 drafts here/);
    expect(question.textContent).toMatch(
      /It has no subscribers or scheduled posts on the platform/,
    );
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(transport.callsOf('deleteBot')).toEqual([]);
    await fireEvent.click(within(orders).getByRole('button', { name: 'Delete Orders…' }));
    question = await screen.findByRole('alertdialog', { name: 'Delete Orders?' });
    await fireEvent.change(
      within(question).getByRole('combobox', { name: 'The bot to move them to' }),
      { target: { value: 'bot_1' } },
    );
    await fireEvent.click(within(question).getByRole('radio', { name: /Move them to/ }));
    await fireEvent.click(within(question).getByRole('button', { name: 'Delete Orders' }));
    expect(transport.callsOf('deleteBot')).toEqual([
      { botId: 'bot_2', posts: 'move', moveTo: 'bot_1' },
    ]);
    expect(await within(orders).findByText('Deleting…')).toBeTruthy();
    platformHas([bot('bot_1', 'Corner Café')]);
    transport.emit({
      type: 'done',
      item: item(12, 'delete_bot', { state: 'done' }),
      remoteId: 'bot_2',
    });
    await vi.waitFor(() => expect(screen.queryByText('Orders')).toBeNull());
  });

  it('says what to do when there are no bots, and marks changes waiting from earlier', async () => {
    const { shell, stop } = setup([]);
    stop();
    render(BotsScreen, { context: shellContext(shell) });
    expect((await screen.findByText(/No bots yet/)).textContent).toContain('Create one above');
    cleanup();

    const waiting = setup([bot('bot_1', 'Corner Bakery', { pending: 2 })]);
    waiting.stop();
    render(BotsScreen, { context: shellContext(waiting.shell) });
    expect(await screen.findByText('2 changes waiting in the queue')).toBeTruthy();
  });

  it('shows every bot’s posting schedule from one call, and the one saved in the dialog', async () => {
    const { transport, shell, stop } = setup(
      undefined,
      new Map([['bot_1', 'mon-fri 09:00,12:30,17:00; sat 10:00']]),
    );
    stop();
    render(BotsScreen, { context: shellContext(shell) });
    const table = await screen.findByRole('table', { name: 'Bots' });
    const column = within(table)
      .getAllByRole('columnheader')
      .findIndex((header) => header.textContent?.trim() === 'Posting schedule');
    const scheduleOf = (name: string) =>
      within(within(table).getByText(name).closest('tr')!).getAllByRole('cell')[column]
        ?.textContent;
    expect(column).toBeGreaterThan(0);
    expect(scheduleOf('Corner Bakery')).toBe('mon-fri 09:00,12:30,17:00; sat 10:00');
    expect(scheduleOf('Orders')).toBe('No schedule');
    expect(transport.callsOf('listSchedules')).toEqual([{}]);
    expect(transport.callsOf('getSchedule')).toEqual([]);

    await fireEvent.click(screen.getByRole('button', { name: 'Posting schedule of Orders' }));
    const dialog = await screen.findByRole('dialog', { name: 'Posting schedule of Orders' });
    await fireEvent.input(
      await within(dialog).findByRole('textbox', { name: 'Schedule as text' }),
      {
        target: { value: 'sat 10:00' },
      },
    );
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await vi.waitFor(() => expect(scheduleOf('Orders')).toBe('sat 10:00'));
    expect(scheduleOf('Corner Bakery')).toBe('mon-fri 09:00,12:30,17:00; sat 10:00');
  });

  it('says so when the schedules cannot be read, and reads them again when asked', async () => {
    const { transport, shell, stop } = setup();
    stop();
    transport.answer('listSchedules', () => refused('The workspace database is locked'));
    render(BotsScreen, { context: shellContext(shell) });
    expect(await screen.findByText(/The workspace database is locked/)).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Bots' })).toBeNull();

    transport.answer('listSchedules', () => ok([{ botId: 'bot_2', text: 'sun 11:00' }]));
    await fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const table = await screen.findByRole('table', { name: 'Bots' });
    expect(within(table).getByText('sun 11:00').closest('tr')?.textContent).toContain('Orders');
  });
});
