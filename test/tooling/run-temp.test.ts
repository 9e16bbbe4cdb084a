// A test run keeps its temporary files in one folder of its own and removes it at the end
// (test/support/run-temp.ts): `npm test` leaves nothing in the machine's temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const WRITES_FILES = 'writes its files in the run folder, its child processes too';

describe('the test run temporary folder', () => {
  it(WRITES_FILES, () => {
    const runFolder = process.env.PRESSROOM_TEST_TEMP;
    expect(runFolder).toMatch(/pressroom-test-/);
    expect(tmpdir()).toBe(runFolder);
    const mine = mkdtempSync(join(tmpdir(), 'pressroom-run-temp-'));
    writeFileSync(join(mine, 'file.txt'), 'from the test');
    const childFolder = execFileSync(process.execPath, [
      '-e',
      `const { mkdtempSync, writeFileSync } = require('node:fs');
       const { join } = require('node:path');
       const folder = mkdtempSync(join(require('node:os').tmpdir(), 'pressroom-run-temp-'));
       writeFileSync(join(folder, 'file.txt'), 'from a child');
       process.stdout.write(folder);`,
    ]).toString();
    expect(childFolder.startsWith(`${runFolder}`)).toBe(true);
  });

  it('is gone when the run ends, with what its tests wrote', () => {
    // A run of the test above, on a temporary folder of its own that nothing else uses.
    const machineTemp = mkdtempSync(join(tmpdir(), 'pressroom-machine-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TMPDIR: machineTemp,
      TEMP: machineTemp,
      TMP: machineTemp,
    };
    delete env.PRESSROOM_TEST_TEMP;
    const report = join(mkdtempSync(join(tmpdir(), 'pressroom-report-')), 'report.json');
    execFileSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'node',
        'test/tooling/run-temp.test.ts',
        '--testNamePattern',
        WRITES_FILES,
        '--reporter',
        'json',
        '--outputFile',
        report,
      ],
      { env, stdio: 'pipe' },
    );
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({
      numPassedTests: 1,
      numFailedTests: 0,
    });
    expect(readdirSync(machineTemp)).toEqual([]);
  }, 60_000);
});
