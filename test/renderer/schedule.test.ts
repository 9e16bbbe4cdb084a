// A bot's posting schedule (jsdom): the editor's grid and text kept in step both ways, saving
// through setSchedule with the core's refusal at the text, and the dialog the Bots screen opens,
// with the zone and the next free slots.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/answers';
import type { BotSummary } from '../../shared/domain';
import { parseSchedule } from '../../shared/schedule';
import BotsScreen from '../../renderer/src/screens/BotsScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { ScheduleEditor } from '../../renderer/src/state/schedule.svelte';
import { ok } from './fake-transport';
import { botSchedule, refused, shellWith, stubJsdom } from './post-editor-fixtures';

/** Monday 11 January 2027 at 09:00 and 12:30 in Berlin, and Tuesday at 09:00. */
const NEXT_FREE = [
  Date.UTC(2027, 0, 11, 8, 0),
  Date.UTC(2027, 0, 11, 11, 30),
  Date.UTC(2027, 0, 12, 8, 0),
];

/** A core that keeps one bot's schedule and answers as setSchedule does. */
async function setup(text = 'mon-fri 09:00,12:30') {
  let saved = botSchedule('bot_1', text, NEXT_FREE);
  const { shell, transport } = await shellWith({
    getSchedule: () => ok(saved),
    setSchedule: (input) => {
      const { schedule } = input as { schedule: string };
      const parsed = parseSchedule(schedule);
      if (!parsed.ok) return refused('bad input', [{ field: 'schedule', message: parsed.reason }]);
      saved = botSchedule('bot_1', schedule.trim(), schedule.trim() ? NEXT_FREE : []);
      return ok(saved);
    },
  });
  const editor = new ScheduleEditor(shell, 'bot_1', 'Corner Bakery');
  await editor.load();
  return { shell, transport, editor };
}

beforeAll(stubJsdom);
afterEach(cleanup);

describe('the schedule editor', () => {
  it('starts from the saved schedule: grid, text, zone and next free slots', async () => {
    const { editor, transport } = await setup();
    expect(transport.callsOf('getSchedule')).toEqual([{ botId: 'bot_1' }]);
    expect(editor.days.slice(0, 6)).toEqual([
      ['09:00', '12:30'],
      ['09:00', '12:30'],
      ['09:00', '12:30'],
      ['09:00', '12:30'],
      ['09:00', '12:30'],
      [],
    ]);
    expect(editor.text).toBe('mon-fri 09:00,12:30');
    expect(editor.zone).toBe('Europe/Berlin');
    expect(editor.saved?.nextFree).toEqual(NEXT_FREE);
    expect(editor.changed).toBe(false);
  });

  it('writes the text from grid changes: add, remove, copy Monday, clear', async () => {
    const { editor } = await setup('mon 09:00');
    editor.newTimes[5] = '10:00';
    editor.addTime(5);
    expect(editor.text).toBe('mon 09:00; sat 10:00');
    expect(editor.newTimes[5]).toBe('');
    editor.newTimes[0] = '07:30';
    editor.addTime(0);
    editor.newTimes[0] = '09:00';
    editor.addTime(0); // already there: kept once
    expect(editor.days[0]).toEqual(['07:30', '09:00']);
    editor.copyMondayToWorkdays();
    expect(editor.text).toBe('mon-fri 07:30,09:00; sat 10:00');
    editor.removeTime(2, '07:30');
    expect(editor.text).toBe('mon-tue 07:30,09:00; wed 09:00; thu-fri 07:30,09:00; sat 10:00');
    expect(editor.changed).toBe(true);
    editor.clear();
    expect(editor.text).toBe('');
    expect(editor.days.every((times) => times.length === 0)).toBe(true);
  });

  it('reads typed text into the grid, and says why text cannot be read without touching the grid', async () => {
    const { editor } = await setup('mon 09:00');
    editor.text = 'Sat-Sun 10:00, 8:15';
    expect(editor.days[5]).toEqual(['08:15', '10:00']);
    expect(editor.days[6]).toEqual(['08:15', '10:00']);
    expect(editor.textError).toBeNull();
    editor.text = 'sat-sun 25:00';
    expect(editor.textError).toBe(
      'part 1 ("sat-sun 25:00"): "25:00" is not a time of day (HH:MM, 00:00 to 23:59)',
    );
    expect(editor.days[5]).toEqual(['08:15', '10:00']);
  });

  it('saves the text as typed and shows what the core answers', async () => {
    const { editor, transport, shell } = await setup('mon 09:00');
    editor.text = 'tue 10:00';
    expect(await editor.save()).toBe(true);
    expect(transport.callsOf('setSchedule')).toEqual([{ botId: 'bot_1', schedule: 'tue 10:00' }]);
    expect(editor.saved?.text).toBe('tue 10:00');
    expect(editor.changed).toBe(false);
    expect(shell.notices.list.at(-1)?.text).toBe('Posting schedule of Corner Bakery saved');
    editor.clear();
    expect(await editor.save()).toBe(true);
    expect(transport.callsOf('setSchedule').at(-1)).toEqual({ botId: 'bot_1', schedule: '' });
    expect(shell.notices.list.at(-1)?.text).toBe('Corner Bakery has no posting schedule now');
  });

  it('does not send text it cannot read, and puts the core’s refusal at the text', async () => {
    const { editor, transport } = await setup();
    editor.text = 'someday 09:00';
    expect(await editor.save()).toBe(false);
    expect(transport.callsOf('setSchedule')).toEqual([]);
    transport.answer('setSchedule', () =>
      refused('bad input', [{ field: 'schedule', message: 'has more slots than a week can hold' }]),
    );
    editor.text = 'mon 09:00';
    expect(await editor.save()).toBe(false);
    expect(editor.textError).toBe('has more slots than a week can hold');
    expect(editor.failure).toBeNull();
    transport.answer('setSchedule', () => refused('The workspace database is locked'));
    expect(await editor.save()).toBe(false);
    expect(editor.failure).toBe('The workspace database is locked');
  });
});

describe('the posting schedule on the Bots screen', () => {
  const bots: BotSummary[] = [
    {
      id: 'bot_1',
      name: 'Corner Bakery',
      channel: 'telegram',
      status: 'active',
      description: null,
      pending: 0,
    },
  ];

  async function open(answer?: (input: unknown) => CallResult) {
    const { shell, transport } = await setup('mon 09:00');
    transport.answer('listBots', () => ok(bots));
    transport.answer('listSchedules', () => ok([{ botId: 'bot_1', text: 'mon 09:00' }]));
    if (answer) transport.answer('setSchedule', answer);
    render(BotsScreen, { context: shellContext(shell) });
    await fireEvent.click(
      await screen.findByRole('button', { name: 'Posting schedule of Corner Bakery' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Posting schedule of Corner Bakery' });
    await within(dialog).findByRole('heading', { name: 'Next free slots' });
    return { transport, dialog };
  }

  it('shows the zone and next free slots, and edits the grid and the text together', async () => {
    const { dialog, transport } = await open();
    expect(dialog.textContent).toContain('Times are in Europe/Berlin');
    const next = within(dialog).getByRole('region', { name: 'Next free slots' });
    expect(
      within(next)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Jan 11, 2027, 9:00 AM', 'Jan 11, 2027, 12:30 PM', 'Jan 12, 2027, 9:00 AM']);
    const text = within(dialog).getByRole('textbox', { name: 'Schedule as text' });
    expect((text as HTMLInputElement).value).toBe('mon 09:00');

    const add = within(dialog).getByRole('button', { name: 'Add a time on Monday' });
    expect(add).toHaveProperty('disabled', true);
    await fireEvent.input(within(dialog).getByLabelText('New time on Monday'), {
      target: { value: '12:30' },
    });
    await fireEvent.click(add);
    await fireEvent.click(
      within(dialog).getByRole('button', { name: 'Copy Monday to Monday–Friday' }),
    );
    expect((text as HTMLInputElement).value).toBe('mon-fri 09:00,12:30');
    expect(within(dialog).getByText(/save to see your changes here/)).toBeTruthy();
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Remove 12:30 on Friday' }));
    expect((text as HTMLInputElement).value).toBe('mon-thu 09:00,12:30; fri 09:00');

    await fireEvent.input(text, { target: { value: 'sat 10:00' } });
    const saturday = within(dialog).getByRole('row', { name: /^Saturday/ });
    expect(within(saturday).getByRole('button', { name: 'Remove 10:00 on Saturday' })).toBeTruthy();
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await vi.waitFor(() =>
      expect(transport.callsOf('setSchedule')).toEqual([{ botId: 'bot_1', schedule: 'sat 10:00' }]),
    );
    await vi.waitFor(() =>
      expect(within(dialog).queryByText(/save to see your changes/)).toBeNull(),
    );
  });

  it('shows why the text cannot be saved at the field, the core’s words included', async () => {
    const { dialog } = await open(() =>
      refused('bad input', [{ field: 'schedule', message: 'part 1 ("mon 09:00"): is full' }]),
    );
    const text = within(dialog).getByRole('textbox', { name: 'Schedule as text' });
    const described = () =>
      (text.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent?.trim())
        .join(' ');
    await fireEvent.input(text, { target: { value: 'mon' } });
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(described()).toContain('write the days, then the times');
    await fireEvent.input(text, { target: { value: 'mon 09:00' } });
    expect(text.getAttribute('aria-invalid')).toBeNull();
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await vi.waitFor(() => expect(described()).toContain('part 1 ("mon 09:00"): is full'));
    expect(text.getAttribute('aria-invalid')).toBe('true');
  });

  it('adds a time with Enter in its field instead of saving', async () => {
    const { dialog, transport } = await open();
    const field = within(dialog).getByLabelText('New time on Sunday');
    await fireEvent.input(field, { target: { value: '11:00' } });
    await fireEvent.keyDown(field, { key: 'Enter' });
    expect(
      (within(dialog).getByRole('textbox', { name: 'Schedule as text' }) as HTMLInputElement).value,
    ).toBe('mon 09:00; sun 11:00');
    expect(transport.callsOf('setSchedule')).toEqual([]);
  });
});
