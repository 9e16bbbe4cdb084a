// main/app/launch.mjs runs the commands from their bundle, and never an old one: a project of two
// tiny commands, with the real launcher and build, in a temporary folder.
import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
let root = '';

function launch(entry: string, ...args: string[]) {
  return run(process.execPath, [join(root, 'main/app/launch.mjs'), entry, ...args], { cwd: root });
}

function currentBuild(): string {
  return (
    JSON.parse(readFileSync(join(root, 'out/node/manifest.json'), 'utf8')) as { build: string }
  ).build;
}

function writeWord(word: string): void {
  writeFileSync(join(root, 'main/cli/word.ts'), `export const word: string = '${word}';\n`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pressroom-launch-'));
  mkdirSync(join(root, 'main/app'), { recursive: true });
  mkdirSync(join(root, 'main/cli'), { recursive: true });
  for (const file of ['launch.mjs', 'build.ts'])
    cpSync(resolve('main/app', file), join(root, 'main/app', file));
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(root, 'main/cli/index.ts'),
    "import { word } from './word';\nconsole.log(`${word} ${process.argv.slice(2).join(' ')}`);\n",
  );
  writeFileSync(join(root, 'main/app/start.ts'), "console.log('started');\n");
  writeWord('one');
});

describe('launch.mjs', () => {
  it('builds on first use, then runs that build while the sources are unchanged', async () => {
    expect((await launch('cli', 'a', 'b')).stdout).toBe('one a b\n');
    const first = currentBuild();
    expect((await launch('start')).stdout).toBe('started\n');
    expect(currentBuild()).toBe(first);
    expect(readdirSync(join(root, 'out/node')).sort()).toEqual([first, 'manifest.json']);
  }, 60_000);

  it('rebuilds when a source changed, even to the same size, for every launch running at once', async () => {
    await launch('cli');
    const before = currentBuild();
    writeWord('two');
    const outputs = await Promise.all([launch('cli'), launch('cli'), launch('cli')]);
    expect(outputs.map((output) => output.stdout)).toEqual(['two \n', 'two \n', 'two \n']);
    expect(outputs.map((output) => output.stderr)).toEqual(['', '', '']);
    expect(currentBuild()).not.toBe(before);
  }, 60_000);

  it('refuses an unknown command name', async () => {
    await expect(launch('serve')).rejects.toMatchObject({
      code: 2,
      stderr: 'usage: node main/app/launch.mjs cli|start [arguments]\n',
    });
  });
});
