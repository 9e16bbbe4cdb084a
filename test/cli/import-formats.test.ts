// `import` with other tools' files as a user runs it: a Hootsuite file without a header row,
// --bot for its rows, --queue refusing rows without a bot, and --encoding naming a file's
// encoding.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { offlineWorkspace, runCli } from '../support/cli';

describe('cli import of other tools’ files', () => {
  it('reads a Hootsuite file by position; --queue wants a bot, --bot gives one', async () => {
    const { folder, env } = offlineWorkspace('formats');
    const file = join(folder, 'hootsuite.csv');
    writeFileSync(file, '12/01/2099 09:00,Fresh rye,https://bakery.example.com/rye\n');
    const args = ['import', 'posts', file, '--date-format', 'MM/DD/YYYY', '--queue'];
    const refused = await runCli(args, env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('Hootsuite bulk file');
    expect(refused.stdout).toContain('no header row');
    expect(refused.stdout).toContain(
      'row 1, bot "": A post to be queued needs a bot: add a bot column, or choose a bot for rows without one (--bot)',
    );
    const written = await runCli([...args, '--bot', 'bot_1', '--json'], env);
    expect(written.code).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({
      source: 'Hootsuite bulk file',
      first_row_is_data: true,
      inserted: 1,
      invalid: 0,
    });
  });

  it('reads an unsure Windows-1251 product list in the computer’s code page, and says it guessed', async () => {
    const { folder, env } = offlineWorkspace('guess');
    const file = join(folder, 'excel-ru.csv');
    // Two rows of Russian as Excel saves them on a Russian Windows: too little for the detector.
    const csv = 'sku;name;price\nB-1;Хлеб ржаной;3,50\nB-2;Булочка с маком;1,20\n';
    writeFileSync(file, iconv.encode(csv, 'windows-1251'));
    const russian = { ...env, LC_ALL: '', LC_CTYPE: '', LANG: 'ru_RU.UTF-8' };
    const run = await runCli(['import', 'products', file, '--dry-run', '--json'], russian);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      encoding: string;
      encoding_guess: { encoding: string; sample: string }[];
    };
    expect(report.encoding).toBe('windows-1251');
    expect(report.encoding_guess[0]).toEqual({
      encoding: 'windows-1251',
      sample: 'B-1;Хлеб ржаной;3,50',
    });
    expect(report.encoding_guess.map((alternative) => alternative.encoding)).toContain(
      'windows-1252',
    );
    const words = await runCli(['import', 'products', file, '--dry-run'], russian);
    expect(words.stdout).toContain('The encoding was a guess (windows-1251');
    expect(words.stdout).toContain('  windows-1251: B-1;Хлеб ржаной;3,50');
    // On a Western computer the same file is read as Windows-1252, and said to be a guess too,
    // with the Russian reading among the alternatives.
    const western = await runCli(['import', 'products', file, '--dry-run', '--json'], {
      ...env,
      LC_ALL: '',
      LC_CTYPE: '',
      LANG: 'en_US.UTF-8',
    });
    const westernReport = JSON.parse(western.stdout) as typeof report;
    expect(westernReport.encoding).toBe('windows-1252');
    expect(westernReport.encoding_guess).toContainEqual({
      encoding: 'windows-1251',
      sample: 'B-1;Хлеб ржаной;3,50',
    });
  });

  it('reads a file in the encoding --encoding names', async () => {
    const { folder, env } = offlineWorkspace('formats');
    const file = join(folder, 'short.csv');
    writeFileSync(file, iconv.encode('sku,name,price\nA,Пирог,3\n', 'windows-1251'));
    const run = await runCli(
      ['import', 'products', file, '--encoding', 'windows-1251', '--dry-run'],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('windows-1251');
    const bad = await runCli(['import', 'products', file, '--encoding', 'klingon'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('klingon');
  });
});
