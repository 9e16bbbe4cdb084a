// Post import with fillSlots and the duplicate guard, through the core: undated rows take their
// bots' next free slots (and the wizard's preview shows which), and rows repeating a post, or an
// earlier row, are left out with a warning unless allowed.
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { toInstant } from '../../shared/time';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { uploaded } from '../support/uploads';
import { csvFiles } from '../support/csv-files';
import { call } from '../../main/core/operations';

const { fixture } = csvFiles('planning');
const BERLIN = 'Europe/Berlin';

function local(text: string): number {
  const instant = toInstant(text, BERLIN);
  if (!instant.ok) throw new Error(instant.reason);
  return instant.ms;
}
const wall = (ms: number | null) =>
  Temporal.Instant.fromEpochMilliseconds(ms ?? 0)
    .toZonedDateTimeISO(BERLIN)
    .toString({ smallestUnit: 'minute', timeZoneName: 'never' });

/** A Monday morning in Berlin, bot_1 posting weekdays at 09:00 and 17:00. */
function workspace(): Workspace {
  const pressroom = testWorkspace({ now: () => local('2026-11-23 08:00') });
  call(pressroom, 'saveSettings', { timezone: BERLIN });
  call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: 'mon-fri 09:00,17:00' });
  return pressroom;
}

describe('import with fillSlots', () => {
  const csv = [
    'text,bot,scheduled_at',
    'Dated,bot_1,2026-11-23 17:00',
    'First undated,bot_1,',
    'Second undated,,',
    'No schedule,bot_2,',
  ].join('\n');

  it('previews the slots rows will get, then imports them there, queued', async () => {
    const pressroom = workspace();
    call(pressroom, 'saveSettings', { defaultBotId: 'bot_1' });
    call(pressroom, 'addPost', {
      text: 'Held',
      botId: 'bot_1',
      at: '2026-11-23 09:00',
      zone: BERLIN,
    });
    const upload = {
      kind: 'posts' as const,
      upload: await uploaded(pressroom, 'calendar.csv', csv),
      timezone: BERLIN,
      fillSlots: true,
    };
    const preview = await call(pressroom, 'previewUpload', upload);
    const expected = [
      // Monday 09:00 is held by a post, 17:00 by the dated row: Tuesday's slots come next.
      { row: 3, botId: 'bot_1', at: local('2026-11-24 09:00') },
      { row: 4, botId: 'bot_1', at: local('2026-11-24 17:00') },
    ];
    expect(preview.result).toMatchObject({ rows: 4, invalid: 1, written: false, slots: expected });
    expect(preview.result?.errors).toEqual([
      {
        row: 5,
        column: 'bot',
        value: 'bot_2',
        message: 'bot_2 has no posting schedule; set one first',
      },
    ]);
    expect(pressroom.store.posts.list()).toHaveLength(1);

    const result = await call(pressroom, 'importUpload', { ...upload, onError: 'skip' });
    expect(result).toMatchObject({ inserted: 3, invalid: 1, written: true, slots: expected });
    const imported = pressroom.store.posts.list().filter((post) => post.batchId === result.batch);
    expect(
      imported.map((post) => [post.text, post.botId, wall(post.scheduledAt), post.status]),
    ).toEqual([
      ['Dated', 'bot_1', '2026-11-23T17:00+01:00', 'scheduled'],
      ['First undated', 'bot_1', '2026-11-24T09:00+01:00', 'scheduled'],
      ['Second undated', 'bot_1', '2026-11-24T17:00+01:00', 'scheduled'],
    ]);
    expect(pressroom.store.outbox.list().map((item) => item.dueAt)).toEqual(
      pressroom.store.posts.list().map((post) => post.scheduledAt),
    );
  });

  it('says which undated row has no bot when there is no default bot, and is refused for products', async () => {
    const pressroom = workspace();
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path: fixture('text\nNowhere\n'),
      fillSlots: true,
    });
    expect(result.errors).toEqual([
      {
        row: 2,
        column: 'bot',
        value: '',
        message:
          'A row without a time needs a bot to fill a posting slot: give it one, or set a default bot',
      },
    ]);
    await expect(
      call(pressroom, 'importFile', {
        kind: 'products',
        path: fixture('sku,name,price\nA,B,1\n'),
        fillSlots: true,
      }),
    ).rejects.toThrow('fillSlots: is for posts');
  });

  it('gives the same slots when a file too big to keep is read a second time', async () => {
    const pressroom = workspace();
    // Every quarter hour: 8,500 rows of 4,000 characters (34 MB) fill 89 days of slots.
    const quarters = Array.from({ length: 96 }, (_, index) => {
      const minutes = index * 15;
      return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    });
    call(pressroom, 'setSchedule', { botId: 'bot_1', schedule: `mon-sun ${quarters.join(',')}` });
    const rows = Array.from({ length: 8_500 }, (_, i) => `${i} ${'x'.repeat(4_000)},bot_1`);
    const path = fixture(`text,bot\n${rows.join('\n')}\n`);
    const result = await call(pressroom, 'importFile', { kind: 'posts', path, fillSlots: true });
    expect(result).toMatchObject({ rows: 8_500, inserted: 8_500, duplicates: 0, written: true });
    const times = pressroom.store.posts.list().map((post) => post.scheduledAt);
    // The answer lists the first slots and counts them all.
    expect(times.slice(0, result.slots.length)).toEqual(result.slots.map((slot) => slot.at));
    expect(result).toMatchObject({
      slotCount: 8_500,
      slotSpan: { first: times[0], last: times.at(-1) },
    });
    expect(new Set(times).size).toBe(8_500);
    expect(times[1]! - times[0]!).toBe(15 * 60_000);
  });
});

describe('import and the duplicate guard', () => {
  const csv = [
    'text,bot,scheduled_at',
    'FRESH RYE today https://bakery.example/rye,bot_1,2026-11-24 09:00',
    'Fresh rye today,bot_2,2026-11-24 09:00',
    'Cinnamon buns,bot_1,2026-11-25 09:00',
    'cinnamon   buns,bot_1,2026-11-27 09:00',
    'Cinnamon buns,bot_1,2026-11-29 09:01',
  ].join('\n');

  it('leaves out rows repeating a post or an earlier row, each with a warning', async () => {
    const pressroom = workspace();
    const rye = call(pressroom, 'addPost', {
      text: 'Fresh rye today',
      botId: 'bot_1',
      at: '2026-11-23 09:00',
      zone: BERLIN,
    });
    const path = fixture(csv);
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      queue: true,
      timezone: BERLIN,
    });
    expect(result).toMatchObject({
      rows: 5,
      inserted: 3,
      invalid: 0,
      duplicates: 2,
      written: true,
    });
    const keep = '; left out';
    expect(result.warnings).toEqual([
      {
        row: 2,
        column: 'text',
        value: 'FRESH RYE today https://bakery.example/rye',
        message: `The same text as post ${rye.id} of bot_1, going out 2026-11-23 09:00 (Europe/Berlin), within the 3-day duplicate window${keep}`,
      },
      {
        row: 5,
        column: 'text',
        value: 'cinnamon   buns',
        message: `The same text as row 4, going out 2026-11-25 09:00 (Europe/Berlin), within the 3-day duplicate window${keep}`,
      },
    ]);
    expect(pressroom.store.posts.list().map((post) => [post.text, post.botId])).toEqual([
      ['Fresh rye today', 'bot_1'],
      ['Fresh rye today', 'bot_2'],
      ['Cinnamon buns', 'bot_1'],
      ['Cinnamon buns', 'bot_1'],
    ]);

    // The same file again: the rows it wrote are the same posts, unchanged, not repeats.
    const again = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      queue: true,
      timezone: BERLIN,
    });
    expect(again).toMatchObject({ inserted: 0, unchanged: 3, duplicates: 2 });
  });

  it('imports them all with allowDuplicates, and does not check drafts', async () => {
    const pressroom = workspace();
    call(pressroom, 'addPost', {
      text: 'Fresh rye today',
      botId: 'bot_1',
      at: '2026-11-23 09:00',
      zone: BERLIN,
    });
    const allowed = await call(pressroom, 'importFile', {
      kind: 'posts',
      path: fixture(csv),
      queue: true,
      timezone: BERLIN,
      allowDuplicates: true,
    });
    expect(allowed).toMatchObject({ inserted: 5, duplicates: 0, warnings: [] });

    const drafts = await call(pressroom, 'importFile', {
      kind: 'posts',
      path: fixture(csv.replaceAll('2026-11-2', '2026-12-0')),
      timezone: BERLIN,
    });
    expect(drafts).toMatchObject({ inserted: 5, duplicates: 0, warnings: [] });
  });
});
