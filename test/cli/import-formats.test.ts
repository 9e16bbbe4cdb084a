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
