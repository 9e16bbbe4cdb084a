// Posting schedules, "add to queue", "share next" and the duplicate-content guard through the
// core: slots computed from the stored posts in the workspace's zone, through DST changes.
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { OperationName } from '../../shared/contract';
import type { CallResult, CoreEvent, OperationResults } from '../../shared/answers';
import type { LocalPost } from '../../shared/domain';
import { toInstant } from '../../shared/time';
import { DuplicateContent, InvalidInput, NotAllowed } from '../../main/core/errors';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { call, invoke } from '../../main/core/operations';
import { openDemoSession } from '../support/session';
import { thrownBy } from '../support/calls';

const BERLIN = 'Europe/Berlin';
const DAY = 86_400_000;

/** A workspace whose clock reads `now` (a wall time in `zone`), planning in `zone`. */
function workspace(now: string, zone = BERLIN) {
  const clock = { now: local(now, zone) };
  const pressroom = testWorkspace({ now: () => clock.now });
  call(pressroom, 'saveSettings', { timezone: zone });
  return { pressroom, clock };
}

/** A wall time ("2026-11-23 09:00") of a zone as an instant. */
function local(text: string, zone = BERLIN): number {
  const instant = toInstant(text, zone);
  if (!instant.ok) throw new Error(instant.reason);
  return instant.ms;
}

/** An instant as the zone's wall time with its offset, "2026-11-23T09:00+01:00". */
const wall = (ms: number | null, zone = BERLIN) =>
  Temporal.Instant.fromEpochMilliseconds(ms ?? 0)
    .toZonedDateTimeISO(zone)
    .toString({ smallestUnit: 'minute', timeZoneName: 'never' });

const walls = (posts: { scheduledAt: number | null }[], zone = BERLIN) =>
  posts.map((post) => wall(post.scheduledAt, zone));

/** Each post's queue item is due at the post's time, and there is one item per post. */
function expectQueuedAtTheirTimes(pressroom: Workspace, posts: LocalPost[]): void {
  for (const post of posts) {
    const items = pressroom.store.outbox.list().filter((item) => item.postId === post.id);
    expect(items.filter((item) => item.state === 'queued')).toEqual([
      expect.objectContaining({ dueAt: post.scheduledAt, readyAt: post.scheduledAt }),
    ]);
  }
}

describe('posting schedules', () => {
  it('are set as text, read back with the next free slots, and refused with the part and why', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    const events: CoreEvent[] = [];
    pressroom.subscribe((event) => events.push(event));
    expect(call(pressroom, 'getSchedule', { botId: 'bot_1' })).toEqual({
      botId: 'bot_1',
      zone: BERLIN,
      days: [[], [], [], [], [], [], []],
      text: '',
      nextFree: [],
    });
    const saved = call(pressroom, 'setSchedule', {
      botId: 'bot_1',
      schedule: 'Mon-Fri 9:00, 17:00; sat 10:00',
    });
    expect(saved).toMatchObject({ text: 'mon-fri 09:00,17:00; sat 10:00', zone: BERLIN });
    expect(saved.nextFree.map((ms) => wall(ms))).toEqual([
      '2026-11-23T09:00+01:00',
      '2026-11-23T17:00+01:00',
      '2026-11-24T09:00+01:00',
    ]);
    expect(events).toContainEqual({ type: 'changed', what: 'schedules' });

    expect(
      thrownBy(() =>
        call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon 09:00; sat 25:00' }),
      ),
    ).toEqual(
      new InvalidInput([
        {
          field: 'schedule',
          message: 'part 2 ("sat 25:00"): "25:00" is not a time of day (HH:MM, 00:00 to 23:59)',
        },
      ]),
    );
    expect(call(pressroom, 'getSchedule', { botId: 'bot_1' }).text).toBe(
      'mon-fri 09:00,17:00; sat 10:00',
    );
    expect(call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: '' }).text).toBe('');
  });

  it('are listed as text for every bot in one call, leaving out bots without one', async () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    expect(call(pressroom, 'listSchedules')).toEqual([]);
    call(pressroom, 'setSchedule', { botId: 'bot_2', schedule: 'sat 10:00' });
    call(pressroom, 'setSchedule', {
      botId: 'bot_1',
      schedule: 'Mon-Fri 9:00,12:30, 17:00; sat 10:00',
    });
    call(pressroom, 'setSchedule', { botId: 'bot_3', schedule: 'sun 08:00' });
    call(pressroom, 'setSchedule', { botId: 'bot_3', schedule: '' });
    expect(call(pressroom, 'listSchedules')).toEqual([
      { botId: 'bot_1', text: 'mon-fri 09:00,12:30,17:00; sat 10:00' },
      { botId: 'bot_2', text: 'sat 10:00' },
    ]);
    // A damaged row reads as no schedule, as getSchedule reads it.
    pressroom.store.db
      .prepare("UPDATE bot_schedules SET schedule = '[\"09:00\"' WHERE bot_id = 'bot_2'")
      .run();
    expect(call(pressroom, 'listSchedules')).toEqual([
      { botId: 'bot_1', text: 'mon-fri 09:00,12:30,17:00; sat 10:00' },
    ]);

    const { session } = await openDemoSession();
    await invoke(session, 'setSchedule', { botId: 'bot_1', schedule: 'mon 09:00' });
    expect(await invoke(session, 'listSchedules', {})).toEqual({
      ok: true,
      value: [{ botId: 'bot_1', text: 'mon 09:00' }],
    });
    expect(await invoke(session, 'listSchedules', { botId: 'bot_1' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
  });
});

describe('add to queue', () => {
  it('three times fills the next three free slots, past slots other posts hold', () => {
    const { pressroom } = workspace('2026-11-23 08:00'); // a Monday
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,12:30,17:00' });
    call(pressroom, 'addPost', {
      text: 'Held',
      botId: 'bot_1',
      at: '2026-11-23 12:30',
      zone: BERLIN,
    });
    // Another bot's post, and a draft with a time, hold none of bot_1's slots.
    call(pressroom, 'addPost', {
      text: 'Other bot',
      botId: 'bot_2',
      at: '2026-11-23 09:00',
      zone: BERLIN,
    });
    call(pressroom, 'addPost', {
      text: 'Idea',
      botId: 'bot_1',
      at: '2026-11-23 17:00',
      mode: 'draft',
    });
    const queued = ['One', 'Two', 'Three'].map((text) =>
      call(pressroom, 'addToQueue', { text, botId: 'bot_1' }),
    );
    expect(walls(queued)).toEqual([
      '2026-11-23T09:00+01:00',
      '2026-11-23T17:00+01:00',
      '2026-11-24T09:00+01:00',
    ]);
    expect(queued.map((post) => [post.status, post.zone, post.botId])).toEqual(
      Array(3).fill(['scheduled', BERLIN, 'bot_1']),
    );
    expectQueuedAtTheirTimes(pressroom, queued);
  });

  it('moves an existing post: a draft into the next free slot, a scheduled one into an earlier gap', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,17:00' });
    call(pressroom, 'saveSettings', { defaultBotId: 'bot_1' });
    const later = call(pressroom, 'addPost', {
      text: 'Later',
      at: '2026-11-25 17:00',
      zone: BERLIN,
    });
    const draft = call(pressroom, 'addPost', { text: 'Draft', mode: 'draft' });
    expect(wall(call(pressroom, 'addToQueue', { id: draft.id }).scheduledAt)).toBe(
      '2026-11-23T09:00+01:00',
    );
    const moved = call(pressroom, 'addToQueue', { id: later.id });
    expect(wall(moved.scheduledAt)).toBe('2026-11-23T17:00+01:00');
    expectQueuedAtTheirTimes(pressroom, [moved, pressroom.store.posts.require(draft.id)]);
    expect(pressroom.store.outbox.list()).toHaveLength(2);
  });

  it('refuses without a bot, for a bot without a schedule, and for a muddled request', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    expect(() => call(pressroom, 'addToQueue', { text: 'Nobody' })).toThrow(
      'botId: is needed to queue a post: choose a bot, or set a default bot',
    );
    expect(() => call(pressroom, 'addToQueue', { text: 'Unplanned', botId: 'bot_9' })).toThrow(
      'botId: bot_9 has no posting schedule; set one first',
    );
    expect(() => call(pressroom, 'addToQueue', { id: 1, text: 'Both' })).toThrow(
      'text: give either id (a post to move) or text (a new post)',
    );
    const draft = call(pressroom, 'addPost', { text: 'Draft', mode: 'draft' });
    expect(() => call(pressroom, 'addToQueue', { id: draft.id, botId: 'bot_1' })).toThrow(
      'botId: is for a new post; change an existing one with updatePost',
    );
    const handedOff = call(pressroom, 'addPost', {
      text: 'Platform has it',
      botId: 'bot_1',
      at: '2026-11-24 09:00',
      zone: BERLIN,
      mode: 'hand_off',
    });
    expect(thrownBy(() => call(pressroom, 'addToQueue', { id: handedOff.id }))).toBeInstanceOf(
      NotAllowed,
    );
    expect(pressroom.store.posts.list()).toHaveLength(2);
  });

  it('finds a slot freed when a post is unscheduled, rescheduled or deleted', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,12:30,17:00' });
    const [first, second, third] = ['A', 'B', 'C'].map((text) =>
      call(pressroom, 'addToQueue', { text, botId: 'bot_1' }),
    );
    const monday = { from: local('2026-11-23 00:00'), to: local('2026-11-24 00:00') };
    expect(call(pressroom, 'listFreeSlots', monday)).toEqual([]);

    const item = pressroom.store.outbox.openFor({ postId: second!.id })!;
    call(pressroom, 'cancelItem', { id: item.id }); // B is a draft again
    expect(call(pressroom, 'listFreeSlots', monday)).toEqual([
      { botId: 'bot_1', at: second!.scheduledAt },
    ]);
    expect(call(pressroom, 'addToQueue', { text: 'D', botId: 'bot_1' }).scheduledAt).toBe(
      second!.scheduledAt,
    );

    call(pressroom, 'updatePost', { id: third!.id, at: '2026-11-25 10:00', zone: BERLIN });
    expect(call(pressroom, 'addToQueue', { text: 'E', botId: 'bot_1' }).scheduledAt).toBe(
      third!.scheduledAt,
    );

    pressroom.store.outbox.cancel(pressroom.store.outbox.openFor({ postId: first!.id })!.id);
    call(pressroom, 'deletePost', { id: first!.id });
    expect(call(pressroom, 'addToQueue', { text: 'F', botId: 'bot_1' }).scheduledAt).toBe(
      first!.scheduledAt,
    );
  });
});

describe('slots through DST changes and in other zones', () => {
  it('keep their wall time in Europe/Berlin on the last Sundays of March and October', () => {
    const spring = workspace('2026-03-27 08:30'); // Friday before the clocks go forward
    call(spring.pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00; sun 02:30' });
    const queued = () =>
      Array.from({ length: 4 }, (_, index) =>
        call(spring.pressroom, 'addToQueue', { text: `Spring ${index}`, botId: 'bot_1' }),
      );
    expect(walls(queued())).toEqual([
      '2026-03-27T09:00+01:00',
      // 02:30 does not exist that night: the slot moves to just after the change.
      '2026-03-29T03:30+02:00',
      '2026-03-30T09:00+02:00',
      '2026-03-31T09:00+02:00',
    ]);

    const autumn = workspace('2026-10-23 08:30');
    call(autumn.pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00; sun 02:30' });
    const fall = Array.from({ length: 3 }, (_, index) =>
      call(autumn.pressroom, 'addToQueue', { text: `Autumn ${index}`, botId: 'bot_1' }),
    );
    // 02:30 happens twice that night: the slot is the first one.
    expect(walls(fall)).toEqual([
      '2026-10-23T09:00+02:00',
      '2026-10-25T02:30+02:00',
      '2026-10-26T09:00+01:00',
    ]);
    expect(fall[2]!.scheduledAt! - fall[0]!.scheduledAt!).toBe(3 * DAY + 3_600_000);
  });

  it('follow the workspace’s zone: the same schedule is other instants in New York and Tokyo', () => {
    const { pressroom } = workspace('2026-03-06 08:00', 'America/New_York');
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00' });
    const week = {
      from: local('2026-03-06 00:00', 'America/New_York'),
      to: local('2026-03-10 00:00', 'America/New_York'),
    };
    // New York's clocks go forward on 2026-03-08: 09:00 stays 09:00, an hour earlier in UTC.
    expect(
      call(pressroom, 'listFreeSlots', week).map((slot) => new Date(slot.at).toISOString()),
    ).toEqual(['2026-03-06T14:00:00.000Z', '2026-03-09T13:00:00.000Z']);
    call(pressroom, 'saveSettings', { timezone: 'Asia/Tokyo' });
    expect(call(pressroom, 'getSchedule', { botId: 'bot_1' }).zone).toBe('Asia/Tokyo');
    expect(
      call(pressroom, 'listFreeSlots', week).map((slot) => new Date(slot.at).toISOString()),
    ).toEqual(['2026-03-09T00:00:00.000Z', '2026-03-10T00:00:00.000Z']);
    const queued = call(pressroom, 'addToQueue', { text: 'Konnichiwa', botId: 'bot_1' });
    expect(wall(queued.scheduledAt, 'Asia/Tokyo')).toBe('2026-03-09T09:00+09:00');
  });
});

describe('free slots for the calendar', () => {
  it('lists every scheduled bot’s empty slots ahead of now, by time, and refuses a bad range', () => {
    const { pressroom } = workspace('2026-11-23 10:00');
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,17:00' });
    call(pressroom, 'setSchedule', { botId: 'bot_2', schedule: 'mon-fri 12:00' });
    call(pressroom, 'addToQueue', { text: 'Taken', botId: 'bot_1' });
    const range = { from: local('2026-11-23 00:00'), to: local('2026-11-25 00:00') };
    expect(
      call(pressroom, 'listFreeSlots', range).map((slot) => [slot.botId, wall(slot.at)]),
    ).toEqual([
      ['bot_2', '2026-11-23T12:00+01:00'],
      ['bot_1', '2026-11-24T09:00+01:00'],
      ['bot_2', '2026-11-24T12:00+01:00'],
      ['bot_1', '2026-11-24T17:00+01:00'],
    ]);
    expect(call(pressroom, 'listFreeSlots', { ...range, botId: 'bot_2' })).toHaveLength(2);
    expect(() => call(pressroom, 'listFreeSlots', { from: range.to, to: range.from })).toThrow(
      'to: must be after from, and at most 366 days after it',
    );
  });
});

describe('share next', () => {
  it('takes the next slot and moves the queued posts behind it one slot later, up to a gap', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,17:00' });
    const [a, b] = ['A', 'B'].map((text) =>
      call(pressroom, 'addToQueue', { text, botId: 'bot_1' }),
    );
    // Handed off: the platform has the time, so it cannot move, and keeps its slot.
    const fixed = call(pressroom, 'addPost', {
      text: 'Fixed',
      botId: 'bot_1',
      at: '2026-11-24 09:00',
      zone: BERLIN,
      mode: 'hand_off',
    });
    const c = call(pressroom, 'addToQueue', { text: 'C', botId: 'bot_1' });
    expect(walls([a!, b!, c])).toEqual([
      '2026-11-23T09:00+01:00',
      '2026-11-23T17:00+01:00',
      '2026-11-24T17:00+01:00',
    ]);

    const shared = call(pressroom, 'shareNext', { text: 'Breaking', botId: 'bot_1' });
    expect(wall(shared.post.scheduledAt)).toBe('2026-11-23T09:00+01:00');
    expect(shared.moved.map(({ id, from, to }) => [id, wall(from), wall(to)])).toEqual([
      [a!.id, '2026-11-23T09:00+01:00', '2026-11-23T17:00+01:00'],
      [b!.id, '2026-11-23T17:00+01:00', '2026-11-24T17:00+01:00'],
      [c.id, '2026-11-24T17:00+01:00', '2026-11-25T09:00+01:00'],
    ]);
    expect(pressroom.store.posts.require(fixed.id).scheduledAt).toBe(fixed.scheduledAt);
    expectQueuedAtTheirTimes(
      pressroom,
      [a!, b!, c, shared.post].map((post) => pressroom.store.posts.require(post.id)),
    );

    // A queued post shared next leaves its own slot free for the others to move into.
    const again = call(pressroom, 'shareNext', { id: c.id });
    expect(wall(again.post.scheduledAt)).toBe('2026-11-23T09:00+01:00');
    expect(again.moved.map(({ id, to }) => [id, wall(to)])).toEqual([
      [shared.post.id, '2026-11-23T17:00+01:00'],
      [a!.id, '2026-11-24T17:00+01:00'],
      [b!.id, '2026-11-25T09:00+01:00'],
    ]);
    expect(pressroom.store.outbox.list()).toHaveLength(5);
  });

  it('moves nothing when the next slot is free', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,17:00' });
    call(pressroom, 'addPost', {
      text: 'Later',
      botId: 'bot_1',
      at: '2026-11-23 17:00',
      zone: BERLIN,
    });
    const shared = call(pressroom, 'shareNext', { text: 'First', botId: 'bot_1' });
    expect(wall(shared.post.scheduledAt)).toBe('2026-11-23T09:00+01:00');
    expect(shared.moved).toEqual([]);
  });
});

describe('the duplicate-content guard', () => {
  const refusal = (action: () => unknown) => {
    const error = thrownBy(action);
    if (error instanceof DuplicateContent) return error;
    throw error;
  };

  it('refuses the same text of the same bot within the window, unless allowed', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    const first = call(pressroom, 'addPost', {
      text: 'Fresh rye today! https://bakery.example/rye',
      botId: 'bot_1',
      at: '2026-11-24 09:00',
      zone: BERLIN,
    });
    const again = { text: '  fresh RYE   today! ', botId: 'bot_1', zone: BERLIN };
    const refused = refusal(() => call(pressroom, 'addPost', { ...again, at: '2026-11-26 09:00' }));
    expect(refused.message).toBe(
      `The same text as post ${first.id} of bot_1, going out 2026-11-24 09:00 (Europe/Berlin), within the 3-day duplicate window`,
    );
    expect(refused.conflict).toEqual({
      postId: first.id,
      botId: 'bot_1',
      status: 'scheduled',
      text: first.text,
      at: first.scheduledAt,
      requestedAt: local('2026-11-26 09:00'),
      windowDays: 3,
    });
    // The window's edges: three days is in, three days and a minute is out.
    refusal(() => call(pressroom, 'addPost', { ...again, at: '2026-11-27 09:00' }));
    refusal(() => call(pressroom, 'addPost', { ...again, mode: 'publish_now' }));
    expect(call(pressroom, 'addPost', { ...again, at: '2026-11-27 09:01' }).status).toBe(
      'scheduled',
    );
    // Another bot, and a draft, are no repeat.
    expect(
      call(pressroom, 'addPost', { ...again, botId: 'bot_2', at: '2026-11-24 09:00' }).status,
    ).toBe('scheduled');
    const draft = call(pressroom, 'addPost', { ...again, at: '2026-11-24 10:00', mode: 'draft' });
    expect(
      refusal(() => call(pressroom, 'queuePost', { id: draft.id, mode: 'schedule' })).conflict
        .postId,
    ).toBe(first.id);
    expect(
      call(pressroom, 'queuePost', { id: draft.id, mode: 'schedule', allowDuplicate: true }).status,
    ).toBe('scheduled');
    expect(
      call(pressroom, 'addPost', { ...again, at: '2026-11-25 09:00', allowDuplicate: true }).status,
    ).toBe('scheduled');
  });

  it('checks edits of queued posts, add to queue and share next, and is off with a window of 0', () => {
    const { pressroom } = workspace('2026-11-23 08:00');
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,17:00' });
    const rye = call(pressroom, 'addToQueue', { text: 'Rye', botId: 'bot_1' });
    const buns = call(pressroom, 'addToQueue', { text: 'Buns', botId: 'bot_1' });
    refusal(() => call(pressroom, 'updatePost', { id: buns.id, text: 'RYE' }));
    // Moving a post on its own is no repeat of itself.
    expect(
      call(pressroom, 'updatePost', { id: rye.id, at: '2026-11-24 09:00', zone: BERLIN }).text,
    ).toBe('Rye');
    const posts = pressroom.store.posts.list().length;
    refusal(() => call(pressroom, 'addToQueue', { text: 'rye', botId: 'bot_1' }));
    refusal(() => call(pressroom, 'shareNext', { text: 'rye', botId: 'bot_1' }));
    expect(pressroom.store.posts.list()).toHaveLength(posts);
    expect(pressroom.store.posts.require(buns.id).scheduledAt).toBe(buns.scheduledAt);

    call(pressroom, 'saveSettings', { duplicateWindowDays: 0 });
    expect(pressroom.settings.getSettings().duplicateWindowDays).toBe(0);
    expect(call(pressroom, 'addToQueue', { text: 'rye', botId: 'bot_1' }).status).toBe('scheduled');
  });

  it('counts published posts, and answers the renderer a `duplicate` error it can retry', async () => {
    const { session } = await openDemoSession();
    const invoked = async <K extends OperationName>(operation: K, input: unknown) =>
      (await invoke(session, operation, input)) as CallResult<OperationResults[K]>;

    const out = await invoked('addPost', { text: 'Open now', botId: 'bot_1', mode: 'publish_now' });
    expect(out.ok).toBe(true);
    await call(session.current, 'publishDue');
    const published = call(session.current, 'listPosts', { status: 'published' })[0]!;
    const tomorrow = new Date(Date.now() + DAY).toISOString();
    const refused = await invoked('addPost', { text: 'OPEN NOW', botId: 'bot_1', at: tomorrow });
    expect(refused).toEqual({
      ok: false,
      error: {
        kind: 'duplicate',
        message: expect.stringMatching(
          new RegExp(
            `^The same text as post ${published.id} of bot_1, published .+, within the 3-day duplicate window$`,
          ),
        ),
        duplicate: expect.objectContaining({
          postId: published.id,
          status: 'published',
          at: published.publishedAt,
        }),
      },
    });
    const retried = await invoked('addPost', {
      text: 'OPEN NOW',
      botId: 'bot_1',
      at: tomorrow,
      allowDuplicate: true,
    });
    expect(retried).toMatchObject({ ok: true, value: { status: 'scheduled' } });

    expect(
      await invoked('setSchedule', { botId: 'bot_1', schedule: 'someday 09:00' }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', issues: [{ field: 'schedule' }] },
    });
    expect(await invoked('addToQueue', { text: 'No slots', botId: 'bot_1' })).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_input',
        issues: [{ field: 'botId', message: 'bot_1 has no posting schedule; set one first' }],
      },
    });
  });
});
