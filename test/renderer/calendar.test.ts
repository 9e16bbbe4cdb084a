// The calendar (jsdom): its state's events, free slots, filters, zone and drag-to-reschedule, and
// the screen as the user sees it, over a fake transport.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { Temporal } from 'temporal-polyfill';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OperationInput } from '../../shared/contract';
import type { CallResult } from '../../shared/answers';
import { POST_STATUSES, type FreeSlot, type LocalPost } from '../../shared/domain';
import CalendarScreen from '../../renderer/src/screens/CalendarScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { CalendarState, NO_BOT, openingTime } from '../../renderer/src/state/calendar.svelte';
import { LOCK_ICON, botColour, moreOf, postOf } from '../../renderer/src/state/calendar-events';
import { wallTime } from '../../renderer/src/lib/format';
import { ok, type Answer } from './fake-transport';
import { post, refused, settings, shellWith, stubJsdom, ZONE } from './post-editor-fixtures';
import { chooseZone } from './fixtures';

const bots = [
  { id: 'bot_1', name: 'Bakery', channel: 'telegram', status: null, description: null, pending: 0 },
  { id: 'bot_2', name: 'Cafe', channel: 'telegram', status: null, description: null, pending: 0 },
];

/** A week of Berlin wall time around the fixtures' posts (23 November 2026). */
const WEEK = { start: '2026-11-23T00:00:00', end: '2026-11-30T00:00:00', view: 'timeGridWeek' };
/** A moment before that week, so a clicked day's morning is still ahead. */
const EARLIER = Date.UTC(2026, 10, 20, 8, 0);

const propsOf = (calendar: CalendarState, id: number) =>
  postOf(calendar.events.find((event) => event.id === String(id))!);

/** WCAG contrast of white text on an `hsl(h s% l%)` colour. */
function contrastWithWhite(colour: string): number {
  const [h, sat, light] = (/^hsl\((\d+) (\d+)% (\d+)%\)$/.exec(colour) ?? [])
    .slice(1)
    .map(Number) as [number, number, number];
  const s = sat / 100;
  const l = light / 100;
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
  return 1.05 / (luminance + 0.05);
}

/**
 * The core's getCalendar over these posts: those the filters asked for, all of them (the state
 * caps what it draws either way), the drafts without a time, the free slots and the bots.
 */
function calendarAnswer(
  posts: LocalPost[],
  drafts: LocalPost[] = [],
  freeSlots: FreeSlot[] = [],
): Answer {
  return (input) => {
    const { botId, status } = input as OperationInput<'getCalendar'>;
    return ok({
      posts: posts.filter(
        (post) =>
          (botId === undefined || post.botId === botId) && (!status || post.status === status),
      ),
      hidden: {},
      drafts: drafts.filter((draft) => draft.scheduledAt === null),
      freeSlots,
      bots,
    });
  };
}

async function setup(posts: LocalPost[], drafts: LocalPost[] = []) {
  const { shell, transport } = await shellWith({
    getCalendar: calendarAnswer(posts, drafts),
    updatePost: (input) => {
      const { id, zone } = input as { id: number; zone: string };
      const found = posts.find((candidate) => candidate.id === id)!;
      return ok({ ...found, zone, scheduledAt: Date.parse((input as { at: string }).at) });
    },
  });
  const calendar = new CalendarState(shell);
  await calendar.setRange(WEEK);
  return { shell, transport, calendar };
}

beforeAll(stubJsdom);
// The week, day and list views load their library when first opened; loaded once here, so a
// test's waits measure the screen, not jsdom compiling the library.
beforeAll(() => import('../../renderer/src/components/calendar/TimeViews.svelte'), 30_000);
afterEach(cleanup);

describe('calendar state', () => {
  it('reads the range as instants of the user’s zone, with the drafts that have no time', async () => {
    const undated = post({ id: 9, status: 'draft', scheduledAt: null });
    const { transport, calendar } = await setup([post({ id: 1 })], [undated, post({ id: 2 })]);
    expect(transport.callsOf('getCalendar')).toEqual([
      {
        from: Date.UTC(2026, 10, 22, 23, 0),
        to: Date.UTC(2026, 10, 29, 23, 0),
        zone: ZONE,
        perDay: 24,
      },
    ]);
    expect(calendar.drafts.map((draft) => draft.id)).toEqual([9]);
    expect(calendar.loaded).toBe(true);
  });

  it('draws each post at its wall time, coloured by bot, with a mark for every status', async () => {
    const posts = POST_STATUSES.map((status, index) =>
      post({
        id: index + 1,
        status,
        botId: index % 2 ? 'bot_2' : 'bot_1',
        text: `P${index}\nmore`,
      }),
    );
    const { calendar } = await setup([...posts, post({ id: 99, origin: 'remote' })]);
    const first = calendar.events[0]!;
    expect(first).toMatchObject({
      start: '2026-11-23T09:00:00',
      end: '2026-11-23T09:30:00',
      title: 'P0',
      backgroundColor: botColour('bot_1'),
    });
    expect(calendar.events[1]?.backgroundColor).toBe(botColour('bot_2'));
    expect(botColour('bot_1')).not.toBe(botColour('bot_2'));
    const marks = POST_STATUSES.map((status, index) => {
      const props = propsOf(calendar, index + 1);
      expect(calendar.events[index]?.classNames).toContain(`post-${status}`);
      return [props.status, props.spokenBefore, props.icon !== ''];
    });
    expect(marks).toEqual([
      ['draft', 'Draft, Bakery:', true],
      ['scheduled', 'Scheduled, Cafe:', true],
      ['sending', 'Sending, Bakery:', true],
      ['published', 'Published, Cafe:', true],
      ['failed', 'Failed, Bakery:', true],
      ['missed', 'Missed, Cafe:', true],
      ['handed_off', 'Handed off, Bakery:', true],
    ]);
    const locked = calendar.events.filter((event) => postOf(event).locked);
    expect(locked.map((event) => event.id)).toEqual(['3', '4', '7', '99']);
    expect(locked.every((event) => event.classNames?.includes('post-locked'))).toBe(true);
    expect(propsOf(calendar, 4)).toMatchObject({
      hover:
        'Published · Cafe · Cannot be moved: It is published; API v1 has no way to change a published post',
      spokenAfter: '(locked: It is published; API v1 has no way to change a published post)',
    });
    expect(propsOf(calendar, 2)).toMatchObject({ hover: 'Scheduled · Cafe', spokenAfter: '' });
  });

  it('names a failed post’s deleted bot in words, never by its id', async () => {
    const gone = post({ id: 5, status: 'failed', botId: 'bot_gone' });
    const undated = post({ id: 6, status: 'draft', botId: 'bot_gone', scheduledAt: null });
    const { calendar } = await setup([gone], [undated]);
    expect(propsOf(calendar, 5)).toMatchObject({
      spokenBefore: 'Failed, A bot no longer on the platform:',
      hover: 'Failed · A bot no longer on the platform',
    });
    expect(calendar.botName('bot_gone')).toBe('A bot no longer on the platform');
    expect(calendar.botName(null)).toBe('No bot');
  });

  it('gives neighbouring bot ids distinct hues, each readable under white text', () => {
    const hue = (id: string) => Number(/^hsl\((\d+) /.exec(botColour(id))?.[1]);
    const hues = ['bot_1', 'bot_2', 'bot_3'].map(hue);
    for (const [index, value] of hues.entries())
      for (const other of hues.slice(index + 1)) {
        const apart = Math.abs(value - other);
        expect(Math.min(apart, 360 - apart)).toBeGreaterThan(40);
      }
    for (let id = 0; id < 200; id++)
      expect(contrastWithWhite(botColour(`bot_${id}`))).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite(botColour(null))).toBeGreaterThanOrEqual(4.5);
  });

  it('filters by bot, by status and by no bot, drafts too, reading the posts again', async () => {
    const { calendar, transport } = await setup(
      [
        post({ id: 1 }),
        post({ id: 2, botId: 'bot_2', status: 'failed' }),
        post({ id: 3, botId: null }),
      ],
      [post({ id: 4, status: 'draft', scheduledAt: null, botId: 'bot_2' })],
    );
    const drawn = () => calendar.events.map((event) => event.id);
    calendar.botFilter = 'bot_2';
    expect(calendar.visibleDrafts.map((draft) => draft.id)).toEqual([4]);
    await vi.waitFor(() => expect(drawn()).toEqual(['2']));
    calendar.statusFilter = 'scheduled';
    await vi.waitFor(() => expect(drawn()).toEqual([]));
    expect(calendar.filtered).toBe(true);
    calendar.botFilter = NO_BOT;
    await vi.waitFor(() => expect(drawn()).toEqual(['3']));
    expect(transport.callsOf('getCalendar').at(-1)).toMatchObject({
      botId: null,
      status: 'scheduled',
    });
    calendar.clearFilters();
    await vi.waitFor(() => expect(drawn()).toHaveLength(3));
    expect(calendar.filtered).toBe(false);
    expect(transport.callsOf('getCalendar').at(-1)).not.toHaveProperty('botId');
  });

  it('changes the zone for the whole app and shows the same instants at its wall times', async () => {
    const { shell, transport, calendar } = await setup([post({ id: 1 })]);
    let zone = ZONE;
    transport.answer('saveSettings', (input) => {
      zone = (input as { timezone: string }).timezone;
      return ok({ ...settings, timezone: zone });
    });
    transport.answer('getSettings', () => ok({ ...settings, timezone: zone }));
    await calendar.setZone('America/New_York');
    expect(transport.callsOf('saveSettings')).toEqual([{ timezone: 'America/New_York' }]);
    expect(shell.timezone).toBe('America/New_York');
    expect(calendar.events[0]?.start).toBe('2026-11-23T03:00:00');
    expect(transport.callsOf('getCalendar').at(-1)).toMatchObject({
      from: Date.UTC(2026, 10, 23, 5, 0),
      to: Date.UTC(2026, 10, 30, 5, 0),
      zone: 'America/New_York',
    });
  });

  it('keeps the zone and says why when it cannot be saved', async () => {
    const { shell, transport, calendar } = await setup([post({ id: 1 })]);
    transport.answer('saveSettings', () => refused('the settings file is read-only'));
    await calendar.setZone('Asia/Tokyo');
    expect(calendar.zone).toBe(ZONE);
    expect(shell.notices.list.at(-1)?.text).toContain('the settings file is read-only');
  });

  it('moves a dragged post by the wall-clock delta, showing it there at once', async () => {
    const { transport, calendar } = await setup([post({ id: 1 })]);
    let answer: (value: CallResult) => void = () => undefined;
    transport.answer('updatePost', () => new Promise((resolve) => (answer = resolve)));
    const moved = calendar.moves.move(1, { years: 0, months: 0, days: 2, seconds: 5400 });
    expect(calendar.events[0]?.start).toBe('2026-11-25T10:30:00');
    answer(ok(post({ id: 1, scheduledAt: Date.UTC(2026, 10, 25, 9, 30) })));
    expect(await moved).toBeNull();
    expect(transport.callsOf('updatePost')).toEqual([
      { id: 1, at: '2026-11-25T10:30+01:00', zone: ZONE },
    ]);
    expect(transport.callsOf('queuePost')).toEqual([]);
  });

  it('moves a post dropped on another day, or moved by days, at the same wall time', async () => {
    const { transport, calendar } = await setup([post({ id: 1 })]);
    expect(await calendar.moves.moveToDay(1, '2026-11-26')).toBeNull();
    expect(calendar.events[0]?.start).toBe('2026-11-26T09:00:00');
    // Back across the change to winter time (25 October), still at nine on the wall clock.
    expect(await calendar.moves.moveDays(1, -40)).toBeNull();
    expect(calendar.events[0]?.start).toBe('2026-10-17T09:00:00');
    // Dropped on its own day: nothing to do.
    expect(await calendar.moves.moveToDay(1, '2026-10-17')).toBeNull();
    expect(transport.callsOf('updatePost')).toEqual([
      { id: 1, at: '2026-11-26T09:00+01:00', zone: ZONE },
      { id: 1, at: '2026-10-17T09:00+02:00', zone: ZONE },
    ]);
  });

  it('says where a moved post went, with Undo that puts it back at its old time', async () => {
    const { shell, transport, calendar } = await setup([post({ id: 1 })]);
    transport.answer('updatePost', (input) =>
      ok(post({ id: 1, scheduledAt: Date.parse((input as { at: string }).at) })),
    );
    expect(await calendar.moves.moveDays(1, 2)).toBeNull();
    const notice = shell.notices.list.at(-1)!;
    expect(notice.tone).toBe('success');
    expect(notice.text).toMatch(/^Post moved to .*25.*/);
    expect(notice.action?.label).toBe('Undo');
    shell.notices.act(notice);
    await vi.waitFor(() => expect(transport.callsOf('updatePost')).toHaveLength(2));
    expect(transport.callsOf('updatePost')[1]).toEqual({
      id: 1,
      at: '2026-11-23T09:00+01:00',
      zone: ZONE,
    });
    await vi.waitFor(() => expect(calendar.events[0]?.start).toBe('2026-11-23T09:00:00'));
    // Undoing says so, and offers no Undo of the Undo.
    await vi.waitFor(() => expect(shell.notices.list.at(-1)?.text).toMatch(/^Move undone/));
    expect(shell.notices.list.at(-1)?.action).toBeUndefined();
  });

  it('opens the week and day views an hour before the range’s earliest post, not at 6 AM', async () => {
    // Evening posts (Berlin 18:30 and, on another day, 20:00).
    const evening = [
      post({ id: 1, scheduledAt: Date.UTC(2026, 10, 24, 17, 30) }),
      post({ id: 2, scheduledAt: Date.UTC(2026, 10, 23, 19, 0) }),
    ];
    const { calendar } = await setup(evening);
    expect(calendar.scrollTime).toBe('17:00:00');
    // An empty range opens at the start of a working day.
    expect(openingTime([], ZONE)).toBe('08:00:00');
    expect(openingTime([Date.UTC(2026, 10, 23, 23, 30)], ZONE)).toBe('00:00:00');
  });

  it('puts a post back and shows the server’s message when the move is refused', async () => {
    const { shell, transport, calendar } = await setup([post({ id: 1 })]);
    transport.answer('updatePost', () => refused('Post 1 cannot be changed. It is being sent.'));
    const reason = await calendar.moves.reschedule(1, '2026-11-26T12:00');
    expect(reason).toBe('Post 1 cannot be changed. It is being sent.');
    expect(calendar.events[0]?.start).toBe('2026-11-23T09:00:00');
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Could not move the post: Post 1 cannot be changed. It is being sent.',
    );
  });

  it('blocks moving published and handed-off posts, saying why, without a call', async () => {
    const { shell, transport, calendar } = await setup([
      post({ id: 1, status: 'published' }),
      post({ id: 2, status: 'handed_off' }),
    ]);
    expect(await calendar.moves.move(1, { years: 0, months: 0, days: 1, seconds: 0 })).toContain(
      'published',
    );
    expect(await calendar.moves.reschedule(2, '2026-11-26T12:00')).toContain('handed off');
    expect(shell.notices.list.map((notice) => notice.text)).toEqual([
      'Could not move the post: It is published; API v1 has no way to change a published post',
      'Could not move the post: It was handed off: the platform publishes it, and API v1 cannot change it',
    ]);
    expect(transport.callsOf('updatePost')).toEqual([]);
    expect(calendar.events.map((event) => event.start)).toEqual([
      '2026-11-23T09:00:00',
      '2026-11-23T09:00:00',
    ]);
  });

  it('refuses a drop on a wall time the clocks skip or repeat, instead of guessing', async () => {
    const { transport, calendar } = await setup([post({ id: 1 })]);
    expect(await calendar.moves.reschedule(1, '2027-03-28T02:30')).toContain('does not exist');
    expect(await calendar.moves.reschedule(1, '2027-10-31T02:30')).toContain('happens twice');
    expect(transport.callsOf('updatePost')).toEqual([]);
  });

  it('puts a missed post moved into the future back in the queue', async () => {
    const missed = post({ id: 1, status: 'missed' });
    const { transport, calendar } = await setup([missed]);
    transport.answer('queuePost', () => ok({ ...missed, status: 'scheduled' }));
    expect(
      await calendar.moves.reschedule(1, '2026-11-26T12:00', Date.UTC(2026, 10, 23)),
    ).toBeNull();
    expect(transport.callsOf('queuePost')).toEqual([{ id: 1, mode: 'schedule' }]);
    expect(calendar.posts[0]?.status).toBe('scheduled');
  });

  it('reloads on post events, collapsing a burst, and ignores others', async () => {
    const { shell, transport, calendar } = await setup([post({ id: 1 })]);
    void shell.start();
    const stop = calendar.start();
    const reads = () => transport.callsOf('getCalendar').length;
    const before = reads();
    transport.emit({ type: 'changed', what: 'posts' });
    transport.emit({ type: 'changed', what: 'posts' });
    transport.emit({ type: 'changed', what: 'posts' });
    await vi.waitFor(() => expect(reads()).toBe(before + 2));
    transport.emit({ type: 'changed', what: 'products' });
    await Promise.resolve();
    expect(reads()).toBe(before + 2);
    stop();
    shell.stop();
  });

  it('draws a busy day’s earliest posts and one "+N more" in the month view, all in the day view', async () => {
    const busy = Array.from({ length: 10 }, (_, index) =>
      post({ id: index + 1, scheduledAt: Date.UTC(2026, 10, 24, 17 - index), text: `P${index}` }),
    );
    const quiet = post({ id: 50, scheduledAt: Date.UTC(2026, 10, 25, 9), text: 'Quiet day' });
    const { calendar, transport } = await setup([...busy, quiet]);
    await calendar.setRange({ ...WEEK, view: 'dayGridMonth' });
    // The month's days draw their posts and "+N more" themselves; the library gets no events.
    const titles = (day: string) => calendar.monthDays[day]?.posts.map((view) => view.title);
    expect(titles('2026-11-24')).toEqual(['P9', 'P8']);
    expect(calendar.monthDays['2026-11-24']?.more).toBe(8);
    expect(titles('2026-11-25')).toEqual(['Quiet day']);
    expect(calendar.monthDays['2026-11-25']?.more).toBe(0);
    expect(calendar.drawn).toEqual([]);
    await calendar.setRange(WEEK);
    expect(calendar.events).toHaveLength(11); // under the week view's cap
    expect(calendar.drawn).toHaveLength(11);
    await calendar.setRange({ ...WEEK, view: 'timeGridDay' });
    expect(calendar.events).toHaveLength(11);
    expect(calendar.events.some((event) => moreOf(event))).toBe(false);
    expect(calendar.monthDays).toEqual({});
    expect(
      transport.callsOf('getCalendar').map((input) => (input as { perDay?: number }).perDay),
    ).toEqual([24, 3, 24, undefined]);
  });

  it('counts the posts the core left out of a busy day in its "+N more"', async () => {
    const shown = [0, 1, 2].map((index) =>
      post({ id: index + 1, scheduledAt: Date.UTC(2026, 10, 24, 8 + index), text: `P${index}` }),
    );
    const { transport, calendar } = await setup([]);
    transport.answer('getCalendar', () =>
      ok({ posts: shown, hidden: { '2026-11-24': 160 }, drafts: [], freeSlots: [], bots }),
    );
    await calendar.setRange({ ...WEEK, view: 'dayGridMonth' });
    expect(calendar.monthDays['2026-11-24']).toMatchObject({
      posts: [{ title: 'P0' }, { title: 'P1' }],
      more: 161,
    });
    // The week view draws its "+N more" in the day's all-day row.
    await calendar.setRange(WEEK);
    const more = calendar.events.at(-1)!;
    expect(more).toMatchObject({ title: '+161 more', allDay: true, start: '2026-11-24' });
    expect(moreOf(more)).toEqual({ moreOn: '2026-11-24', hidden: 161 });
  });

  /** Free slots on Tuesday 24 November (09:00 Bakery, 12:30 Cafe) and Wednesday (09:00 Bakery). */
  const SLOTS = [
    { botId: 'bot_1', at: Date.UTC(2026, 10, 24, 8, 0) },
    { botId: 'bot_2', at: Date.UTC(2026, 10, 24, 11, 30) },
    { botId: 'bot_1', at: Date.UTC(2026, 10, 25, 8, 0) },
  ];

  async function withSlots(slots: FreeSlot[] = SLOTS) {
    const setUp = await setup([post({ id: 1 })]);
    setUp.transport.answer('getCalendar', calendarAnswer([post({ id: 1 })], [], slots));
    await setUp.calendar.load();
    return setUp;
  }

  it('reads the range’s free slots with its posts and draws each as a faint band behind them', async () => {
    const { calendar } = await withSlots();
    expect(calendar.events.map((event) => event.id)).toEqual(['1']);
    expect(calendar.slotEvents).toEqual([
      {
        id: `free-bot_1-${SLOTS[0]!.at}`,
        start: '2026-11-24T09:00:00',
        end: '2026-11-24T09:30:00',
        display: 'background',
        backgroundColor: botColour('bot_1'),
        classNames: ['free-slot'],
      },
      expect.objectContaining({
        start: '2026-11-24T12:30:00',
        backgroundColor: botColour('bot_2'),
      }),
      expect.objectContaining({ start: '2026-11-25T09:00:00' }),
    ]);
    expect(calendar.drawn).toEqual([...calendar.events, ...calendar.slotEvents]);
    calendar.botFilter = 'bot_2';
    expect(calendar.slotEvents.map((event) => event.start)).toEqual(['2026-11-24T12:30:00']);
    calendar.botFilter = NO_BOT;
    expect(calendar.slotEvents).toEqual([]);
  });

  it('marks each day with free slots once in the month view, however many it has', async () => {
    const { calendar } = await withSlots();
    await calendar.setRange({ ...WEEK, view: 'dayGridMonth' });
    const free = (month: CalendarState) =>
      Object.entries(month.monthDays)
        .filter(([, day]) => day.free)
        .map(([date]) => date);
    expect(free(calendar)).toEqual(['2026-11-24', '2026-11-25']);
    // Beside the day's posts, which the month draws itself: the library draws nothing.
    expect(calendar.monthDays['2026-11-23']).toMatchObject({ posts: [{ postId: 1 }], free: false });
    expect(calendar.drawn).toEqual([]);
    calendar.botFilter = 'bot_2';
    expect(free(calendar)).toEqual(['2026-11-24']);
    // A busy month stays cheap: one marker a day, even with dozens of slots a day.
    const crowded = Array.from({ length: 96 }, (_, index) => ({
      botId: 'bot_1',
      at: Date.UTC(2026, 10, 24, 0, 15 * index) - 3_600_000,
    }));
    const { calendar: month } = await withSlots(crowded);
    await month.setRange({ ...WEEK, view: 'dayGridMonth' });
    expect(free(month)).toEqual(['2026-11-24']);
  });

  it('draws only the first few free slots, so a month of them is not hatched all over', async () => {
    // A free morning slot on each of ten days.
    const daily = Array.from({ length: 10 }, (_, index) => ({
      botId: 'bot_1',
      at: Date.UTC(2026, 10, 24 + index, 8, 0),
    }));
    const { calendar } = await withSlots(daily);
    expect(calendar.slotEvents.map((event) => String(event.start).slice(0, 10))).toEqual([
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
    ]);
    await calendar.setRange({ ...WEEK, view: 'dayGridMonth' });
    const hatched = Object.entries(calendar.monthDays).filter(([, day]) => day.free);
    expect(hatched.map(([date]) => date)).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    // A click on a later free slot still fills it.
    expect(calendar.newPostAt('2026-12-01', null)).toEqual({
      date: '2026-12-01',
      time: '09:00',
      botId: 'bot_1',
    });
  });

  it('starts a post clicked on a free slot in that slot, with its bot', async () => {
    const { calendar } = await withSlots();
    expect(calendar.newPostAt('2026-11-24', '09:00')).toEqual({
      date: '2026-11-24',
      time: '09:00',
      botId: 'bot_1',
    });
    // The 12:30 band covers half past twelve to one; the cell from 12:00 is clear of it.
    expect(calendar.newPostAt('2026-11-24', '12:30')).toMatchObject({ botId: 'bot_2' });
    expect(calendar.newPostAt('2026-11-24', '12:00')).toEqual({
      date: '2026-11-24',
      time: '12:00',
    });
    // A whole day clicked takes its first free slot, else a morning time.
    expect(calendar.newPostAt('2026-11-25', null)).toEqual({
      date: '2026-11-25',
      time: '09:00',
      botId: 'bot_1',
    });
    expect(calendar.newPostAt('2026-11-26', null, EARLIER)).toEqual({
      date: '2026-11-26',
      time: '09:00',
    });
    calendar.botFilter = 'bot_2';
    expect(calendar.newPostAt('2026-11-24', null)).toMatchObject({ time: '12:30', botId: 'bot_2' });
  });

  it('starts a post on a clicked day or from New post at a time still ahead', async () => {
    const { calendar } = await withSlots();
    // 26 November 2026, 14:20 in Berlin: that morning has passed.
    const afternoon = Date.UTC(2026, 10, 26, 13, 20);
    expect(calendar.newPostAt('2026-11-26', null, afternoon)).toEqual({
      date: '2026-11-26',
      time: '15:00',
    });
    expect(calendar.newPostAt('2026-11-27', null, afternoon)).toEqual({
      date: '2026-11-27',
      time: '09:00',
    });
    // Late in the evening, the next whole hour is the next day's first.
    const lateEvening = Date.UTC(2026, 10, 26, 22, 40);
    expect(calendar.newPostAt('2026-11-26', null, lateEvening)).toEqual({
      date: '2026-11-27',
      time: '00:00',
    });
    expect(calendar.newPost(afternoon)).toEqual({ date: '2026-11-26', time: '15:00' });
    // The night the clocks go forward (02:00 → 03:00 in Berlin), 01:30 is followed by 03:00.
    expect(calendar.newPost(Date.UTC(2027, 2, 28, 0, 30))).toEqual({
      date: '2027-03-28',
      time: '03:00',
    });
  });

  it('reads the free slots again when schedules change', async () => {
    const { shell, transport, calendar } = await withSlots();
    void shell.start();
    const stop = calendar.start();
    transport.answer('getCalendar', calendarAnswer([post({ id: 1 })], [], SLOTS.slice(2)));
    transport.emit({ type: 'changed', what: 'schedules' });
    await vi.waitFor(() => expect(calendar.slotEvents).toHaveLength(1));
    expect(calendar.events).toHaveLength(1);
    stop();
    shell.stop();
  });

  it('draws once per load: bots come with the posts, and re-read settings redraw nothing', async () => {
    const { shell, calendar, transport } = await setup([post({ id: 1 })]);
    expect(transport.callsOf('getCalendar')).toHaveLength(1);
    expect(calendar.botName('bot_1')).not.toBe('bot_1');
    const drawn = calendar.drawn;
    shell.settings = { ...shell.settings! };
    expect(calendar.drawn).toBe(drawn);
    shell.settings = { ...shell.settings!, timezone: 'Asia/Tokyo' };
    expect(calendar.drawn).not.toBe(drawn);
  });

  it('keeps the core’s message when the posts cannot be read', async () => {
    const { transport, calendar } = await setup([]);
    transport.answer('getCalendar', () => refused('The database is locked; close other copies'));
    await calendar.load();
    expect(calendar.loadError).toBe('The database is locked; close other copies');
  });
});

describe('the calendar screen', () => {
  async function mount(posts: LocalPost[], drafts: LocalPost[] = []) {
    const { shell, transport } = await shellWith({ getCalendar: calendarAnswer(posts, drafts) });
    render(CalendarScreen, { context: shellContext(shell) });
    return { shell, transport };
  }

  it('shows month posts with their status and bot colours, and opens one by click or Enter', async () => {
    const today = Date.now();
    await mount([
      post({ id: 1, scheduledAt: today, text: 'Fresh rye today' }),
      post({ id: 2, scheduledAt: today, status: 'published', botId: 'bot_2', text: 'Out' }),
    ]);
    const chip = await screen.findByRole('button', {
      name: /Scheduled, Bakery: .*Fresh rye today/,
    });
    // jsdom writes colours as rgb(), so the bot's colour is read back the same way.
    const probe = document.createElement('span');
    probe.style.backgroundColor = botColour('bot_1');
    expect(chip.style.backgroundColor).toBe(probe.style.backgroundColor);
    expect(chip.classList).toContain('post-scheduled');
    expect(chip.querySelector('[title]')?.getAttribute('title')).toBe('Scheduled · Bakery');
    const locked = screen.getByRole('button', {
      name: /^Published, Cafe: .*Out \(locked: It is published; API v1 has no way/,
    });
    expect([...locked.classList]).toEqual(
      expect.arrayContaining(['post-published', 'post-locked']),
    );
    expect(locked.textContent).toContain(LOCK_ICON);
    const legend = screen.getByRole('list', { name: 'Bot colours' });
    const named = within(legend)
      .getAllByRole('listitem')
      .map((item) => item.textContent?.trim());
    expect(named).toEqual(['Bakery', 'Cafe']);
    await fireEvent.click(chip);
    // The editor's code loads on its first use (renderer split by screen and dialog).
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' }, { timeout: 10_000 });
    expect(
      (within(dialog).getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement).value,
    ).toBe('Fresh rye today');
    // A click on a post is the post's: no new post starts on its day as well.
    expect(screen.queryByRole('dialog', { name: 'New post' })).toBeNull();
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    // The week view's posts are the library's events, which open with Enter.
    await fireEvent.keyDown(document.body, { key: 'w' });
    // Until the week view has replaced the month, the month's chip may still be there beside it;
    // an event that crosses midnight is drawn in two pieces, each opening the post.
    const event = await vi.waitFor(
      () => {
        const found = screen.getAllByRole('button', { name: /Bakery: .*Fresh rye today/ });
        expect(found.filter((node) => node.classList.contains('month-post'))).toEqual([]);
        return found[0]!;
      },
      { timeout: 5_000 },
    );
    await fireEvent.keyDown(event, { key: 'Enter' });
    expect(await screen.findByRole('dialog', { name: 'Edit post' })).toBeTruthy();
  });

  it('opens a busy day’s Day view from its "+N more"', async () => {
    const today = Date.now();
    const busy = Array.from({ length: 5 }, (_, index) =>
      post({ id: index + 1, scheduledAt: today - (today % 3_600_000), text: `Busy ${index}` }),
    );
    await mount(busy);
    // Found once the bot names are in, which redraws the events.
    await screen.findByRole('button', { name: /Scheduled, Bakery: .*Busy 0/ });
    const more = screen.getByRole('button', { name: /\+3 more/ });
    expect(more.textContent).toContain('posts on');
    expect(screen.getAllByRole('button', { name: /Busy \d/ })).toHaveLength(2);
    // A link in the day, not the day itself: no new post is started.
    await fireEvent.pointerDown(more);
    await fireEvent.click(more);
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Day', pressed: true })).toBeTruthy(),
    );
    expect(await screen.findAllByRole('button', { name: /Busy \d/ })).toHaveLength(5);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('draws a post another window added as soon as the core says posts changed', async () => {
    const { shell, transport } = await mount([]);
    await screen.findByRole('status');
    void shell.start();
    transport.answer(
      'getCalendar',
      calendarAnswer([post({ id: 2, scheduledAt: Date.now(), text: 'Added elsewhere' })]),
    );
    transport.emit({ type: 'changed', what: 'posts' });
    expect(await screen.findByRole('button', { name: /Added elsewhere/ })).toBeTruthy();
    shell.stop();
  });

  it('says what to do when the range is empty, and when filters hide everything', async () => {
    await mount([]);
    expect((await screen.findByRole('status')).textContent).toContain('Click a day or a time');
    await fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), {
      target: { value: 'failed' },
    });
    expect(screen.getByRole('status').textContent).toContain('No posts here match the filters');
    await fireEvent.click(screen.getByRole('button', { name: 'Show all posts' }));
    expect(screen.getByRole('status').textContent).toContain('Click a day or a time');
  });

  it('marks a post that failed to publish now, listed with the drafts as it has no time', async () => {
    await mount(
      [],
      [post({ id: 5, status: 'failed', scheduledAt: null, botId: 'bot_gone', text: 'Open now' })],
    );
    const drafts = screen.getByRole('region', { name: 'Unscheduled drafts' });
    const failed = await within(drafts).findByRole('button', { name: /Open now/ });
    expect(failed.textContent).toMatch(/⚠ Failed\s*Open now\s*A bot no longer on the platform/);
  });

  it('opens a new post from the toolbar and an unscheduled draft from the list', async () => {
    await mount([], [post({ id: 5, status: 'draft', scheduledAt: null, text: 'Idea for Friday' })]);
    const drafts = screen.getByRole('region', { name: 'Unscheduled drafts' });
    await fireEvent.click(await within(drafts).findByRole('button', { name: /Idea for Friday/ }));
    expect(await screen.findByRole('dialog', { name: 'Edit post' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await fireEvent.click(screen.getByRole('button', { name: 'New post' }));
    expect(await screen.findByRole('dialog', { name: 'New post' })).toBeTruthy();
  });

  it('opens a new post when the address asks for one (the desktop menu’s New Post)', async () => {
    const { shell } = await mount([]);
    shell.newPostRequested = true;
    expect(await screen.findByRole('dialog', { name: 'New post' })).toBeTruthy();
    expect(shell.newPostRequested).toBe(false);
  });

  const dayCell = (date: string): Element =>
    document.querySelector(`time[datetime="${date}"]`)!.closest('[role="gridcell"]')!;

  it('opens the editor at an empty day clicked and schedules the post there', async () => {
    const { transport } = await mount([]);
    transport.answer('addPost', (input) => ok(post({ id: 30, ...(input as object) })));
    await screen.findByRole('status');
    // The last day of next month's grid is always ahead, so the post can be scheduled there.
    await fireEvent.keyDown(document.body, { key: 'n' });
    const times = document.querySelectorAll('time[datetime]');
    const date = times[times.length - 1]!.getAttribute('datetime')!;
    expect(date > new Date().toISOString().slice(0, 10)).toBe(true);
    const cell = dayCell(date);
    await fireEvent.click(cell);
    const dialog = await screen.findByRole('dialog', { name: 'New post' });
    expect((within(dialog).getByLabelText('Date') as HTMLInputElement).value).toBe(date);
    expect((within(dialog).getByLabelText('Time') as HTMLInputElement).value).toBe('09:00');
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Text' }), {
      target: { value: 'Open on Sunday' },
    });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await vi.waitFor(() =>
      expect(transport.callsOf('addPost')).toEqual([
        {
          text: 'Open on Sunday',
          zone: ZONE,
          mediaUrls: [],
          mode: 'schedule',
          at: `${date}T09:00`,
        },
      ]),
    );
  });

  it('opens the editor in the free slot of a day clicked, with the slot’s bot', async () => {
    const { transport } = await mount([]);
    await screen.findByRole('status');
    // A free slot at 17:30 on the last day of whatever range is shown.
    transport.answer('getCalendar', (input) => {
      const lastDay = Temporal.Instant.fromEpochMilliseconds((input as { to: number }).to - 1)
        .toZonedDateTimeISO(ZONE)
        .toPlainDate();
      const at = lastDay.toPlainDateTime({ hour: 17, minute: 30 }).toZonedDateTime(ZONE);
      return calendarAnswer([], [], [{ botId: 'bot_2', at: at.epochMilliseconds }])(input);
    });
    await fireEvent.keyDown(document.body, { key: 'n' });
    const times = document.querySelectorAll('time[datetime]');
    const date = times[times.length - 1]!.getAttribute('datetime')!;
    // The month view tints the day (behind its posts) rather than drawing the slot's time.
    await vi.waitFor(() => expect(document.querySelectorAll('.free-day')).toHaveLength(1));
    const cell = dayCell(date);
    await fireEvent.click(cell);
    const dialog = await screen.findByRole('dialog', { name: 'New post' });
    expect((within(dialog).getByLabelText('Time') as HTMLInputElement).value).toBe('17:30');
    expect((within(dialog).getByLabelText('Bot') as HTMLSelectElement).value).toBe('bot_2');
  });

  /** What a drag carries, as the browser would hand it to each drag event. */
  class Carried {
    private readonly data = new Map<string, string>();
    dropEffect = 'none';
    effectAllowed = 'all';
    get types(): string[] {
      return [...this.data.keys()];
    }
    setData(type: string, value: string): void {
      this.data.set(type, value);
    }
    getData(type: string): string {
      return this.data.get(type) ?? '';
    }
  }

  /** Drags a month post onto a day cell, as the browser fires it; whether the day took it. */
  async function drag(chip: Element, cell: Element): Promise<boolean> {
    const dataTransfer = new Carried();
    await fireEvent.dragStart(chip, { dataTransfer });
    // fireEvent says false when a handler prevented the default: the day accepts the drop.
    const accepted = !(await fireEvent.dragOver(cell, { dataTransfer }));
    await fireEvent.drop(cell, { dataTransfer });
    return accepted;
  }

  /** The month's days around a post's, by wall date: its own and `offset` days away in the grid. */
  function daysAround(at: number, offset: number): { from: string; to: string } {
    const from = Temporal.Instant.fromEpochMilliseconds(at)
      .toZonedDateTimeISO(ZONE)
      .toPlainDate()
      .toString();
    const days = [...document.querySelectorAll('time[datetime]')].map((time) =>
      time.getAttribute('datetime')!,
    );
    const index = days.indexOf(from);
    return { from, to: days[index + offset] ?? days[index - offset]! };
  }

  /** The month post, by its text, in the day cell it is drawn in; null where it is not. */
  const chipIn = (date: string, text: string) =>
    within(dayCell(date) as HTMLElement).queryByRole('button', { name: new RegExp(text) });

  it('reschedules a month post dragged to another day, and puts back one the core refuses', async () => {
    // Today is always in the month shown, whatever day the test runs.
    const at = Date.now();
    const { shell, transport } = await mount([post({ id: 1, scheduledAt: at, text: 'Move me' })]);
    let answer: (value: CallResult) => void = () => undefined;
    transport.answer('updatePost', () => new Promise((resolve) => (answer = resolve)));
    const chip = await screen.findByRole('button', { name: /Bakery: .*Move me/ });
    const { from, to } = daysAround(at, 2);
    expect(chipIn(from, 'Move me')).toBe(chip);
    expect(await drag(chip, dayCell(to))).toBe(true);
    // Shown on its new day at once, at the same wall time.
    await vi.waitFor(() => expect(chipIn(to, 'Move me')).not.toBeNull());
    expect(chipIn(from, 'Move me')).toBeNull();
    const sent = (transport.callsOf('updatePost') as { at: string }[]).map((call) => call.at);
    expect(sent.map((wall) => wall.slice(0, 16))).toEqual([`${to}${wallTime(at, ZONE).slice(10)}`]);
    answer(refused('Post 1 cannot be changed. It is being sent.'));
    // The app's notice area (outside this screen) shows the notice.
    await vi.waitFor(() =>
      expect(shell.notices.list.at(-1)?.text).toBe(
        'Could not move the post: Post 1 cannot be changed. It is being sent.',
      ),
    );
    await vi.waitFor(() => expect(chipIn(from, 'Move me')).not.toBeNull());
    expect(chipIn(to, 'Move me')).toBeNull();
    // No new post was started by the drag, and a drop outside the days is not taken.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await drag(chipIn(from, 'Move me')!, document.body)).toBe(false);
    expect(transport.callsOf('updatePost')).toHaveLength(1);
  });

  it('moves a focused month post a day or a week by Alt and an arrow, the focus with it', async () => {
    const at = Date.now();
    const moved = post({ id: 1, scheduledAt: at, text: 'Key me' });
    const { transport } = await mount([moved]);
    transport.answer('updatePost', (input) =>
      ok({ ...moved, scheduledAt: Date.parse((input as { at: string }).at) }),
    );
    const chip = await screen.findByRole('button', { name: /Bakery: .*Key me/ });
    const { from, to } = daysAround(at, 1);
    chip.focus();
    // An arrow alone moves the focus in the grid; with Alt it moves the post.
    await fireEvent.keyDown(chip, { key: 'ArrowRight' });
    expect(transport.callsOf('updatePost')).toEqual([]);
    chip.focus();
    await fireEvent.keyDown(chip, { key: to > from ? 'ArrowRight' : 'ArrowLeft', altKey: true });
    await vi.waitFor(() => expect(chipIn(to, 'Key me')).not.toBeNull());
    await vi.waitFor(() => expect(document.activeElement).toBe(chipIn(to, 'Key me')));
    expect((transport.callsOf('updatePost')[0] as { at: string }).at.slice(0, 10)).toBe(to);
    // A week on, by Alt and the arrow down (or up, at the end of the month).
    const week = daysAround(Date.parse(`${to}T12:00Z`), 7).to;
    await fireEvent.keyDown(document.activeElement!, {
      key: week > to ? 'ArrowDown' : 'ArrowUp',
      altKey: true,
    });
    await vi.waitFor(() =>
      expect((transport.callsOf('updatePost')[1] as { at: string }).at.slice(0, 10)).toBe(week),
    );
  });

  it('keeps a published post where it is, dragged or moved by key, and says why', async () => {
    const at = Date.now();
    const { shell, transport } = await mount([
      post({ id: 1, scheduledAt: at, status: 'published', text: 'Gone out' }),
    ]);
    const chip = await screen.findByRole('button', { name: /Published, Bakery: .*Gone out/ });
    const { from, to } = daysAround(at, 2);
    await drag(chip, dayCell(to));
    await fireEvent.keyDown(chip, { key: 'ArrowLeft', altKey: true });
    const why =
      'Could not move the post: It is published; API v1 has no way to change a published post';
    await vi.waitFor(() =>
      expect(shell.notices.list.map((notice) => notice.text)).toEqual([why, why]),
    );
    expect(chipIn(from, 'Gone out')).toBe(chip);
    expect(transport.callsOf('updatePost')).toEqual([]);
  });

  it('draws the month’s posts again when a filter or the zone changes', async () => {
    const at = Date.now();
    const { transport } = await mount([
      post({ id: 1, scheduledAt: at, text: 'Rye' }),
      post({ id: 2, scheduledAt: at, status: 'failed', botId: 'bot_2', text: 'Cake' }),
    ]);
    await screen.findByRole('button', { name: /Failed, Cafe: .*Cake/ });
    await fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), {
      target: { value: 'failed' },
    });
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: /Rye/ })).toBeNull());
    expect(screen.getByRole('button', { name: /Failed, Cafe: .*Cake/ })).toBeTruthy();
    await fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), {
      target: { value: '' },
    });
    await screen.findByRole('button', { name: /Rye/ });
    // In Tokyo the same instant is at another wall time, perhaps on another day.
    let zone = ZONE;
    transport.answer('saveSettings', (input) => {
      zone = (input as { timezone: string }).timezone;
      return ok({ ...settings, timezone: zone });
    });
    transport.answer('getSettings', () => ok({ ...settings, timezone: zone }));
    await chooseZone(screen.getByRole('combobox', { name: 'Your time zone' }), 'Asia/Tokyo');
    const tokyo = wallTime(at, 'Asia/Tokyo');
    const time = new Intl.DateTimeFormat(undefined, {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Asia/Tokyo',
    }).format(at);
    await vi.waitFor(() => expect(chipIn(tokyo.slice(0, 10), 'Rye')?.textContent).toContain(time));
  });

  it('is one Tab stop: arrows walk a day’s number and posts and go on to the days beside', async () => {
    const noon = Temporal.Now.plainDateISO(ZONE).toZonedDateTime({
      timeZone: ZONE,
      plainTime: '12:00',
    }).epochMilliseconds;
    await mount([
      post({ id: 1, scheduledAt: noon, text: 'First' }),
      post({ id: 2, scheduledAt: noon + 60_000, text: 'Second' }),
    ]);
    const first = await screen.findByRole('button', { name: /Bakery: .*First/ });
    const second = screen.getByRole('button', { name: /Bakery: .*Second/ });
    const tabStops = () =>
      [...document.querySelectorAll('[data-nav]')].filter(
        (element) => element.getAttribute('tabindex') === '0',
      );
    // The month's first post is the grid's one Tab stop; the rest is reached by arrows.
    expect(tabStops()).toEqual([first]);
    first.focus();
    await fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(second);
    await fireEvent.keyDown(second, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(first);
    await fireEvent.keyDown(first, { key: 'ArrowUp' });
    const { from: today, to } = daysAround(noon, 1);
    expect(document.activeElement?.getAttribute('data-nav')).toBe(`day:${today}`);
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/: write a post$/);
    await fireEvent.keyDown(document.activeElement!, {
      key: to > today ? 'ArrowRight' : 'ArrowLeft',
    });
    expect(document.activeElement?.getAttribute('data-nav')).toBe(`day:${to}`);
    // The Tab stop follows the focus.
    await tick();
    expect(tabStops()).toEqual([document.activeElement]);
    // A day's number pressed writes a post on that day.
    await fireEvent.click(document.activeElement!);
    const editor = await screen.findByRole('dialog', { name: 'New post' });
    expect((within(editor).getByLabelText('Date') as HTMLInputElement).value).toBe(to);
  });

  it('keeps its keys in a dialog opened by the Keys button or ?, not on the screen', async () => {
    await mount([]);
    await screen.findByRole('status');
    expect(screen.queryByText(/previous, /)).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Keys' }));
    const keys = screen.getByRole('dialog', { name: 'Calendar keys' });
    expect(within(keys).getByText('Delete the post (with Undo)')).toBeTruthy();
    await fireEvent.click(within(keys).getByRole('button', { name: 'Close' }));
    keys.dispatchEvent(new Event('close'));
    await tick();
    expect(screen.queryByRole('dialog', { name: 'Calendar keys' })).toBeNull();
    await fireEvent.keyDown(document.body, { key: '?' });
    expect(screen.getByRole('dialog', { name: 'Calendar keys' })).toBeTruthy();
  });

  it('switches views and moves through time by key', async () => {
    const { transport } = await mount([]);
    await screen.findByRole('status');
    const ranges = () => transport.callsOf('getCalendar') as { from: number; to: number }[];
    const month = ranges().at(-1)!;
    const views = screen.getByRole('group', { name: 'Calendar view' });
    const active = () => within(views).getByRole('button', { pressed: true }).textContent;
    expect(active()).toBe('Month');
    await fireEvent.keyDown(document.body, { key: 'n' });
    await vi.waitFor(() => expect(ranges().at(-1)!.from).toBeGreaterThan(month.from));
    await fireEvent.keyDown(document.body, { key: 't' });
    await vi.waitFor(() => expect(ranges().at(-1)).toEqual(month));
    await fireEvent.keyDown(document.body, { key: 'w' });
    expect(active()).toBe('Week');
    await vi.waitFor(() => {
      const week = ranges().at(-1)!;
      // Seven days, give or take an hour where the clocks change.
      expect(Math.round((week.to - week.from) / 86_400_000)).toBe(7);
    });
    await fireEvent.keyDown(document.body, { key: 'd' });
    expect(active()).toBe('Day');
    await fireEvent.keyDown(document.body, { key: 'l' });
    expect(active()).toBe('List');
    await fireEvent.click(within(views).getByRole('button', { name: 'Week' }));
    expect(active()).toBe('Week');
    await fireEvent.keyDown(document.body, { key: 'l' });
    // Keys typed into a field stay the field's.
    await fireEvent.keyDown(screen.getByRole('combobox', { name: 'Bot' }), { key: 'm' });
    expect(active()).toBe('List');
  });

  it('shows the core’s message when the posts cannot be read, with a way to try again', async () => {
    const { transport } = await mount([]);
    transport.answer('getCalendar', () => refused('The database is locked; close other copies'));
    await fireEvent.keyDown(document.body, { key: 'n' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The database is locked; close other copies');
    transport.answer('getCalendar', calendarAnswer([]));
    await fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('shows the user’s zone and changes it from the toolbar', async () => {
    const { transport } = await mount([]);
    transport.answer('saveSettings', () => ok({ ...settings, timezone: 'Asia/Tokyo' }));
    const zone = screen.getByRole('combobox', { name: 'Your time zone' }) as HTMLSelectElement;
    expect(zone.value).toBe(ZONE);
    // The first draw holds the chosen zone alone; the focus lists them all, the choice kept.
    expect([...zone.options].map((option) => option.value)).toEqual([ZONE]);
    await fireEvent.focus(zone);
    expect(zone.options.length).toBeGreaterThan(100);
    expect(zone.value).toBe(ZONE);
    await chooseZone(zone, 'Asia/Tokyo');
    await vi.waitFor(() =>
      expect(transport.callsOf('saveSettings')).toEqual([{ timezone: 'Asia/Tokyo' }]),
    );
  });
});
