// The app's own month grid (jsdom): which weeks a month shows from the week's first day, where
// Previous and Next go, today's mark, the column heads and the title, as the library drew them.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { Temporal } from 'temporal-polyfill';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import CalendarScreen from '../../renderer/src/screens/CalendarScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import {
  localWeekStart,
  monthTitleOf,
  monthWeeks,
  stepDate,
} from '../../renderer/src/state/month-grid';
import { ok } from './fake-transport';
import { post, shellWith, stubJsdom, ZONE } from './post-editor-fixtures';

beforeAll(stubJsdom);
afterEach(cleanup);

describe('the month grid’s dates', () => {
  it('shows the weeks the month touches, from the week’s first day', () => {
    // 1 November 2026 is a Sunday.
    const sunday = monthWeeks('2026-11-17', 7);
    expect(sunday.weeks.map((week) => week[0])).toEqual([
      '2026-11-01',
      '2026-11-08',
      '2026-11-15',
      '2026-11-22',
      '2026-11-29',
    ]);
    expect(sunday.weeks.at(-1)).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
    ]);
    expect([sunday.start, sunday.end]).toEqual(['2026-11-01T00:00:00', '2026-12-06T00:00:00']);
    // From Monday, the Sunday the month starts on ends the grid's first week: six weeks.
    const monday = monthWeeks('2026-11-01', 1);
    expect(monday.weeks).toHaveLength(6);
    expect(monday.weeks[0]).toEqual([
      '2026-10-26',
      '2026-10-27',
      '2026-10-28',
      '2026-10-29',
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
    ]);
    expect(monday.end).toBe('2026-12-07T00:00:00');
    // February 2026 starts on a Sunday and has 28 days: four weeks from Sunday.
    expect(monthWeeks('2026-02-10', 7).weeks).toHaveLength(4);
  });

  it('goes a month, a week or a day at a time, the 31st to a shorter month’s last day', () => {
    expect(stepDate('2026-01-31', 'dayGridMonth', 1)).toBe('2026-02-28');
    expect(stepDate('2026-03-01', 'listMonth', -1)).toBe('2026-02-01');
    expect(stepDate('2026-12-29', 'timeGridWeek', 1)).toBe('2027-01-05');
    expect(stepDate('2026-03-01', 'timeGridDay', -1)).toBe('2026-02-28');
  });

  it('begins the week where the user’s locale does, Sunday when it cannot tell', () => {
    expect(localWeekStart('en-US')).toBe(7);
    expect(localWeekStart('en-GB')).toBe(1);
    expect(localWeekStart('not a locale!')).toBe(7);
  });
});

describe('the month grid on the screen', () => {
  async function mount() {
    const { shell, transport } = await shellWith({
      getCalendar: () => ok({ posts: [], hidden: {}, drafts: [], freeSlots: [], bots: [] }),
    });
    render(CalendarScreen, { context: shellContext(shell) });
    await screen.findByRole('status');
    return { shell, transport };
  }

  const today = () => Temporal.Now.plainDateISO(ZONE);

  it('is a grid of the month’s days under named weekdays, today marked', async () => {
    await mount();
    const grid = screen.getByRole('grid', { name: monthTitleOf(today().toString()) });
    const heads = within(grid).getAllByRole('columnheader');
    expect(heads.map((head) => head.getAttribute('aria-label'))).toEqual([
      'Sunday',
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
    ]);
    const rows = within(grid).getAllByRole('row');
    const weeks = monthWeeks(today().toString(), 7).weeks;
    expect(rows).toHaveLength(weeks.length + 1);
    const marked = grid.querySelectorAll('[aria-current="date"]');
    expect([...marked].map((cell) => cell.getAttribute('data-day'))).toEqual([today().toString()]);
    expect(marked[0]?.classList).toContain('today');
    // Days of the months beside are drawn, faded.
    const outside = weeks
      .flat()
      .filter((day) => day.slice(0, 7) !== today().toString().slice(0, 7));
    expect(
      [...grid.querySelectorAll('.other-month')].map((cell) => cell.getAttribute('data-day')),
    ).toEqual(outside);
  });

  it('goes to the next and previous month with its buttons, and back with Today', async () => {
    const { transport } = await mount();
    const ranges = () => transport.callsOf('getCalendar') as { from: number; to: number }[];
    const first = ranges().at(-1)!;
    const todayButton = screen.getByRole('button', { name: 'Today' }) as HTMLButtonElement;
    // Today is where the calendar already is.
    expect(todayButton.disabled).toBe(true);
    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    const next = today().with({ day: 1 }).add({ months: 1 });
    expect(screen.getByRole('heading', { name: monthTitleOf(next.toString()) })).toBeTruthy();
    const start = monthWeeks(next.toString(), 7).start;
    const startsAt = Temporal.PlainDateTime.from(start).toZonedDateTime(ZONE).epochMilliseconds;
    await vi.waitFor(() => expect(ranges().at(-1)!.from).toBe(startsAt));
    expect(todayButton.disabled).toBe(false);
    await fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    const previous = today().with({ day: 1 }).subtract({ months: 1 });
    expect(screen.getByRole('heading', { name: monthTitleOf(previous.toString()) })).toBeTruthy();
    await fireEvent.click(todayButton);
    await vi.waitFor(() => expect(ranges().at(-1)).toEqual(first));
    expect(screen.getByRole('grid').querySelector('[aria-current="date"]')).not.toBeNull();
  });

  it('opens at a day asked for, and draws a post on the day the clocks go forward on that day', async () => {
    // In Berlin, 29 March 2026 has 23 hours: 02:00 becomes 03:00.
    const at = Temporal.ZonedDateTime.from('2026-03-29T03:30[Europe/Berlin]').epochMilliseconds;
    const { shell, transport } = await shellWith({
      getCalendar: () =>
        ok({
          posts: [post({ id: 1, scheduledAt: at, text: 'Spring forward' })],
          hidden: {},
          drafts: [],
          freeSlots: [],
          bots: [],
        }),
    });
    shell.calendarDate = '2026-03-29';
    render(CalendarScreen, { context: shellContext(shell) });
    const chip = await screen.findByRole('button', { name: /Spring forward/ });
    expect(chip.closest('[role="gridcell"]')?.getAttribute('data-day')).toBe('2026-03-29');
    expect(screen.getByRole('heading', { name: monthTitleOf('2026-03-01') })).toBeTruthy();
    // The grid's range, from Sunday 1 March to Sunday 5 April, in Berlin's wall time.
    const range = (transport.callsOf('getCalendar') as { from: number; to: number }[]).at(-1);
    expect(range).toEqual({
      from: Temporal.ZonedDateTime.from('2026-03-01T00:00[Europe/Berlin]').epochMilliseconds,
      to: Temporal.ZonedDateTime.from('2026-04-05T00:00[Europe/Berlin]').epochMilliseconds,
      zone: ZONE,
      perDay: 3,
    });
  });
});
