// Post files as social media schedulers want them, through the core: Hootsuite's bulk file (no
// header row), and the bulk templates of Metricool, Buffer, Later, Publer and Sprout Social, each
// written here from the columns their help pages describe; plus --bot and a queued import with
// no bot.
import { describe, expect, it } from 'vitest';
import { toInstant } from '../../shared/time';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { csvFiles } from '../support/csv-files';
import { badRowsOf } from '../support/uploads';
import { call } from '../../main/core/operations';

const { fixture } = csvFiles('schedulers');
const BERLIN = 'Europe/Berlin';
const at = (text: string) => {
  const instant = toInstant(text, BERLIN);
  if (!instant.ok) throw new Error(instant.reason);
  return instant.ms;
};
const workspace = () => {
  const pressroom = testWorkspace({ now: () => at('2026-11-23 08:00') });
  call(pressroom, 'saveSettings', { timezone: BERLIN });
  return pressroom;
};
const posts = (pressroom: Workspace) =>
  call(pressroom, 'listPosts')
    .map((post) => ({
      text: post.text,
      at: post.scheduledAt,
      bot: post.botId,
      media: post.mediaUrls,
      status: post.status,
    }))
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
const pic = (name: string) => `https://media.example.com/${name}.jpg`;

describe('Hootsuite bulk file (no header row)', () => {
  it('reads date and time, message and link by position, month-first', async () => {
    const pressroom = workspace();
    const path = fixture(
      [
        '12/01/2026 09:00,"Fresh rye, today only",https://bakery.example.com/rye',
        '12/02/2026 17:30,Stollen season starts,',
      ].join('\r\n'),
    );
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      dateFormat: 'MM/DD/YYYY',
      bot: 'bot_1',
    });
    expect(result).toMatchObject({
      source: 'Hootsuite bulk file',
      firstRowIsData: true,
      rows: 2,
      inserted: 2,
      invalid: 0,
    });
    expect(posts(pressroom)).toEqual([
      {
        text: 'Fresh rye, today only https://bakery.example.com/rye',
        at: at('2026-12-01 09:00'),
        bot: 'bot_1',
        media: [],
        status: 'draft',
      },
      {
        text: 'Stollen season starts',
        at: at('2026-12-02 17:30'),
        bot: 'bot_1',
        media: [],
        status: 'draft',
      },
    ]);
  });

  it('reads day-first dates, and numbers rows from 1 in errors', async () => {
    const pressroom = workspace();
    const path = fixture('13/12/2026 08:15,Lucia buns\n31/02/2026 08:15,No such day\n');
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      dateFormat: 'DD/MM/YYYY',
      onError: 'skip',
    });
    expect(result).toMatchObject({ inserted: 1, invalid: 1 });
    expect(result.errors).toEqual([
      {
        row: 2,
        column: 'Column 1',
        value: '31/02/2026 08:15',
        message: '"31/02/2026 08:15" is not a real date and time of day',
      },
    ]);
    expect(posts(pressroom)[0]).toMatchObject({ text: 'Lucia buns', at: at('2026-12-13 08:15') });
    // The bad rows as a file like the one read: no header, the error after the link column.
    expect(await badRowsOf(pressroom, result)).toBe(
      '31/02/2026 08:15,No such day,,"Column 1: ""31/02/2026 08:15"" is not a real date and time of day"\r\n',
    );
  });

  it('lets the mapping say the first row is data when it is not found so', async () => {
    const pressroom = workspace();
    const path = fixture('Good morning,bot_1\nGood night,bot_1\n');
    // No date in it: the first row reads as a header, which names no text column.
    await expect(
      call(pressroom, 'importFile', { kind: 'posts', path, dryRun: true }),
    ).rejects.toThrow('has no "text" column (the header row has: Good morning, bot_1)');
    const asData = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      firstRowIsData: true,
      mapping: { text: 'Column 1', bot: 'Column 2' },
    });
    expect(asData).toMatchObject({ rows: 2, inserted: 2, firstRowIsData: true });
    expect(posts(pressroom).map((post) => post.text)).toEqual(['Good morning', 'Good night']);
  });
});

describe('schedulers’ bulk templates', () => {
  it('Metricool: pictures in order, Draft kept out of the queue', async () => {
    const pressroom = workspace();
    const path = fixture(
      [
        'Text,Date,Time,Draft,Facebook,Instagram,Picture Url 1,Picture Url 2,Picture Url 3,Shortener',
        `Advent calendar is here,2026-12-01,09:00,FALSE,TRUE,TRUE,${pic('a1')},${pic('a2')},${pic('a3')},FALSE`,
        `Ideas for the 2nd,2026-12-02,10:00,TRUE,TRUE,FALSE,${pic('b1')},,,FALSE`,
      ].join('\n'),
    );
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      queue: true,
      bot: 'bot_1',
    });
    expect(result).toMatchObject({ source: 'Metricool bulk file', inserted: 2, invalid: 0 });
    expect(posts(pressroom)).toEqual([
      {
        text: 'Advent calendar is here',
        at: at('2026-12-01 09:00'),
        bot: 'bot_1',
        media: [pic('a1'), pic('a2'), pic('a3')],
        status: 'scheduled',
      },
      {
        text: 'Ideas for the 2nd',
        at: at('2026-12-02 10:00'),
        bot: 'bot_1',
        media: [pic('b1')],
        status: 'draft',
      },
    ]);
    expect(pressroom.store.outbox.list()).toHaveLength(1);
    const again = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      queue: true,
      bot: 'bot_1',
    });
    expect(again).toMatchObject({ inserted: 0, unchanged: 2 });
    expect(pressroom.store.outbox.list()).toHaveLength(1);
  });

  it('Buffer: Text, Image URL, Tags, Posting Time', async () => {
    const pressroom = workspace();
    const path = fixture(
      [
        'Text,Image URL,Tags,Posting Time',
        `Gingerbread workshop,${pic('ginger')},events,2026-12-05 11:00`,
      ].join('\n'),
    );
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      bot: 'bot_2',
    });
    expect(result).toMatchObject({ source: 'Buffer bulk file', inserted: 1, invalid: 0 });
    expect(posts(pressroom)).toEqual([
      {
        text: 'Gingerbread workshop',
        at: at('2026-12-05 11:00'),
        bot: 'bot_2',
        media: [pic('ginger')],
        status: 'draft',
      },
    ]);
  });

  it('Later: Caption, Date, Time and numbered media columns; a draft column', async () => {
    const pressroom = workspace();
    const path = fixture(
      [
        'Caption,Date,Time,Media URL 1,Media URL 2,Draft',
        `Two loaves,2026-12-06,08:00,${pic('l1')},${pic('l2')},no`,
        `One loaf,2026-12-07,08:00,${pic('l3')},,yes`,
      ].join('\n'),
    );
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      queue: true,
      bot: 'bot_1',
    });
    expect(result).toMatchObject({ inserted: 2, invalid: 0 });
    expect(posts(pressroom).map((post) => [post.text, post.media, post.status])).toEqual([
      ['Two loaves', [pic('l1'), pic('l2')], 'scheduled'],
      ['One loaf', [pic('l3')], 'draft'],
    ]);
  });

  it('Publer: Date, Text, Link(s), Media URL(s) with their descriptions in the header', async () => {
    const pressroom = workspace();
    const path = fixture(
      [
        'Date - Intl. format or prompt,Text,Link(s) - Separated by comma for FB carousels,Media URL(s) - Separated by comma,Title,Label(s)',
        `2026-12-08 12:00,Pretzel day,https://bakery.example.com/pretzel,"${pic('p1')},${pic('p2')}",,specials`,
      ].join('\n'),
    );
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      bot: 'bot_1',
    });
    expect(result).toMatchObject({ source: 'Publer bulk file', inserted: 1, invalid: 0 });
    expect(posts(pressroom)[0]).toMatchObject({
      text: 'Pretzel day https://bakery.example.com/pretzel',
      at: at('2026-12-08 12:00'),
      media: [pic('p1'), pic('p2')],
    });
  });

  it('Sprout Social: date, time_24hr, message_text, link, image_url', async () => {
    const pressroom = workspace();
    const path = fixture(
      [
        'date,time_24hr,message_text,link,image_url',
        `12/09/2026,14:00,Cinnamon rolls at two,https://bakery.example.com/rolls,${pic('roll')}`,
      ].join('\n'),
    );
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path,
      timezone: BERLIN,
      dateFormat: 'MM/DD/YYYY',
      bot: 'bot_1',
    });
    expect(result).toMatchObject({ source: 'Sprout Social bulk file', inserted: 1, invalid: 0 });
    expect(posts(pressroom)[0]).toMatchObject({
      text: 'Cinnamon rolls at two https://bakery.example.com/rolls',
      at: at('2026-12-09 14:00'),
      media: [pic('roll')],
    });
  });
});

describe('bots for files without a bot column', () => {
  const file = 'text,scheduled_at\nMorning bake,2026-12-01 07:00\nEvening bake,2026-12-01 18:00\n';

  it('a queued row that ends with no bot is a row error, and nothing is queued', async () => {
    const pressroom = workspace();
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path: fixture(file),
      queue: true,
    });
    expect(result).toMatchObject({ invalid: 2, inserted: 0, written: false });
    expect(result.errors[0]).toEqual({
      row: 2,
      column: 'bot',
      value: '',
      message:
        'A post to be queued needs a bot: add a bot column, or choose a bot for rows without one (--bot)',
    });
    expect(pressroom.store.outbox.list()).toEqual([]);
  });

  it('--bot gives every row without one its bot, by id or by name', async () => {
    const pressroom = workspace();
    const result = await call(pressroom, 'importFile', {
      kind: 'posts',
      path: fixture(
        `${file}With its own,2026-12-02 07:00,bot_2\n`.replace(
          'scheduled_at\n',
          'scheduled_at,bot\n',
        ),
      ),
      queue: true,
      bot: 'bot_1',
    });
    expect(result).toMatchObject({ invalid: 0, inserted: 3 });
    expect(posts(pressroom).map((post) => [post.text, post.bot, post.status])).toEqual([
      ['Morning bake', 'bot_1', 'scheduled'],
      ['Evening bake', 'bot_1', 'scheduled'],
      ['With its own', 'bot_2', 'scheduled'],
    ]);
  });
});
