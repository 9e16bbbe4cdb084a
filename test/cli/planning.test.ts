// The planning commands as a user runs them: `schedule show|set`, `posts add --queue-next`, the
// duplicate guard's refusal, and `import posts --fill-slots --allow-duplicates`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BotSchedule, LocalPost } from '../../shared/domain';
import { offlineWorkspace, runCli } from '../support/cli';

const json = <T>(stdout: string) => JSON.parse(stdout) as T;

describe('cli schedule and posts add --queue-next', () => {
  it('sets and shows a schedule, refusing bad input with one line and exit code 2', async () => {
    const { env } = offlineWorkspace('planning');
    const set = await runCli(
      ['schedule', 'set', 'bot_1', 'mon-fri 09:00,12:30,17:00; sat 10:00', '--json'],
      env,
    );
    expect(set.code).toBe(0);
    expect(json<BotSchedule>(set.stdout)).toMatchObject({
      botId: 'bot_1',
      zone: 'Europe/Berlin',
      text: 'mon-fri 09:00,12:30,17:00; sat 10:00',
      nextFree: [expect.any(Number), expect.any(Number), expect.any(Number)],
    });
    const shown = await runCli(['schedule', 'show', 'bot_1'], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /^bot_1 posts mon-fri 09:00,12:30,17:00; sat 10:00 \(Europe\/Berlin\)\nNext free slots:\n( {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Berlin\)\n){3}$/,
    );

    const bad = await runCli(['schedule', 'set', 'bot_1', 'mon 25:00'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'pressroom: schedule: part 1 ("mon 25:00"): "25:00" is not a time of day (HH:MM, 00:00 to 23:59)\n',
    );
    const muddled = await runCli(
      ['posts', 'add', '--text', 'X', '--queue-next', '--at', '2026-12-01T09:00'],
      env,
    );
    expect(muddled.code).toBe(2);
    expect(muddled.stderr).toBe(
      "pressroom: --queue-next takes the bot's next free slot itself; leave out --at, --zone and --mode\n",
    );
    const unplanned = await runCli(
      ['posts', 'add', '--text', 'X', '--queue-next', '--bot', 'bot_9'],
      env,
    );
    expect(unplanned.code).toBe(2);
    expect(unplanned.stderr).toBe(
      'pressroom: botId: bot_9 has no posting schedule; set one first\n',
    );
  });

  it('queues posts into the next three slots, and refuses a repeat unless allowed', async () => {
    const { env } = offlineWorkspace('planning');
    const set = await runCli(['schedule', 'set', 'bot_1', 'mon-sun 09:00,17:00', '--json'], env);
    const { nextFree } = json<BotSchedule>(set.stdout);
    const queued: LocalPost[] = [];
    for (const text of ['One', 'Two', 'Three']) {
      const added = await runCli(
        ['posts', 'add', '--text', text, '--queue-next', '--bot', 'bot_1', '--json'],
        env,
      );
      expect(added.code).toBe(0);
      queued.push(json<LocalPost>(added.stdout));
    }
    expect(queued.map((post) => [post.status, post.scheduledAt])).toEqual(
      nextFree.map((at) => ['scheduled', at]),
    );

    const repeat = await runCli(
      ['posts', 'add', '--text', 'ONE', '--queue-next', '--bot', 'bot_1'],
      env,
    );
    expect(repeat.code).toBe(1);
    expect(repeat.stderr).toMatch(
      /^pressroom: The same text as post 1 of bot_1, going out \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Berlin\), within the 3-day duplicate window; add --allow-duplicate to go ahead\n$/,
    );
    const allowed = await runCli(
      ['posts', 'add', '--text', 'ONE', '--queue-next', '--bot', 'bot_1', '--allow-duplicate'],
      env,
    );
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^Added #4 scheduled /);
  });
});

describe('cli import posts --fill-slots', () => {
  it('fills the next free slots, leaves a repeat out with a warning, and takes it with --allow-duplicates', async () => {
    const { env, folder } = offlineWorkspace('planning');
    await runCli(['schedule', 'set', 'bot_1', 'mon-sun 09:00,17:00'], env);
    const shown = json<BotSchedule>(
      (await runCli(['schedule', 'show', 'bot_1', '--json'], env)).stdout,
    );
    await runCli(['posts', 'add', '--text', 'Rye is back', '--bot', 'bot_1', '--queue-next'], env);
    const file = join(folder, 'posts.csv');
    writeFileSync(file, 'text,bot\nTasting on Saturday,bot_1\nrye is BACK,bot_1\n');

    const tried = await runCli(['import', 'posts', file, '--fill-slots', '--dry-run'], env);
    expect(tried.stdout).toContain(
      '1 repeated post left out; import with --allow-duplicates to keep it',
    );
    const imported = await runCli(['import', 'posts', file, '--fill-slots', '--json'], env);
    expect(imported.code).toBe(0);
    expect(json(imported.stdout)).toMatchObject({
      rows: 2,
      inserted: 1,
      duplicates: 1,
      errors: [],
      warnings: [
        {
          row: 3,
          column: 'text',
          value: 'rye is BACK',
          message: expect.stringMatching(
            /^The same text as post 1 of bot_1, going out .+; left out$/,
          ),
        },
      ],
      slots: [{ row: 2, bot_id: 'bot_1', at: new Date(shown.nextFree[1]!).toISOString() }],
    });

    const allowed = await runCli(
      ['import', 'posts', file, '--fill-slots', '--allow-duplicates', '--json'],
      env,
    );
    expect(allowed.code).toBe(0);
    expect(json(allowed.stdout)).toMatchObject({ inserted: 2, duplicates: 0, warnings: [] });
    const human = await runCli(['import', 'posts', file, '--fill-slots'], env);
    expect(human.stdout).toContain(
      '2 rows (utf-8, ","-separated): 0 new, 0 updated, 0 unchanged, 0 invalid, 2 left out as duplicates',
    );

    const products = await runCli(['import', 'products', file, '--fill-slots'], env);
    expect(products.code).toBe(2);
    expect(products.stderr).toBe('pressroom: --fill-slots is for posts\n');
  });
});
