// main/app/launch.mjs runs the commands from their bundle, and never an old one, and `start` (like
// `serve`, builds.mjs) serves an interface built from the current sources: a project of two tiny
// commands and a one-file interface, with the real launcher and builds, in a temporary folder.
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
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

interface Manifest {
  build: string;
  sources: Record<string, string>;
  stamps: Record<string, string>;
}

function manifest(): Manifest {
  return JSON.parse(readFileSync(join(root, 'out/node/manifest.json'), 'utf8')) as Manifest;
}

function currentBuild(): string {
  return manifest().build;
}

function writeWord(word: string): void {
  writeFileSync(join(root, 'main/cli/word.ts'), `export const word: string = '${word}';\n`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pressroom-launch-'));
  mkdirSync(join(root, 'main/app'), { recursive: true });
  mkdirSync(join(root, 'main/cli'), { recursive: true });
  for (const file of ['launch.mjs', 'builds.mjs', 'build.ts'])
    cpSync(resolve('main/app', file), join(root, 'main/app', file));
  // The renderer's build writes its compressed copies with the web host's static files module.
  mkdirSync(join(root, 'main/host'), { recursive: true });
  cpSync(resolve('main/host/static-files.ts'), join(root, 'main/host/static-files.ts'));
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(root, 'main/cli/index.ts'),
    "import { word } from './word';\nconsole.log(`${word} ${process.argv.slice(2).join(' ')}`);\n",
  );
  writeFileSync(join(root, 'main/app/start.ts'), "console.log('started');\n");
  writeWord('one');
  mkdirSync(join(root, 'renderer/src'), { recursive: true });
  mkdirSync(join(root, 'renderer/public'), { recursive: true });
  cpSync(resolve('renderer/vite.config.ts'), join(root, 'renderer/vite.config.ts'));
  writeFileSync(
    join(root, 'renderer/index.html'),
    '<!doctype html><title>t</title><script type="module" src="./src/main.ts"></script>\n',
  );
  writeGreeting('hello');
});

function writeGreeting(greeting: string): void {
  writeFileSync(join(root, 'renderer/src/main.ts'), `document.title = '${greeting}';\n`);
}

/** The text of the built interface's scripts. */
function builtInterface(): string {
  const assets = join(root, 'dist/renderer/assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(assets, name), 'utf8'))
    .join('\n');
}

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

  it('trusts no stamp of a file changed within a clock step of the build, or later', async () => {
    writeWord('six');
    // Its time ahead of the build (unpacked from a computer whose clock is ahead, or edited
    // as the build began): an edit in the same clock step could keep its stamp, so it is hashed.
    const word = join(root, 'main/cli/word.ts');
    const ahead = new Date(Date.now() + 60_000);
    utimesSync(word, ahead, ahead);
    await launch('cli');
    expect(manifest().stamps['main/cli/word.ts']).toBeUndefined();
    expect(manifest().stamps['main/cli/index.ts']).toBeDefined();
  }, 60_000);

  it('reads no source whose stamp is unchanged, and sees an edit that keeps size and time', async () => {
    writeWord('ten');
    // Older than the file system clock's coarsest step when the build begins: stamped.
    await new Promise((done) => setTimeout(done, 2100));
    expect((await launch('cli')).stdout).toBe('ten \n');
    const word = join(root, 'main/cli/word.ts');
    expect(manifest().stamps['main/cli/word.ts']).toBeDefined();
    // A recorded hash the file no longer has is not looked at while its stamp holds.
    const path = join(root, 'out/node/manifest.json');
    const wrong = { ...manifest(), sources: { ...manifest().sources } };
    wrong.sources['main/cli/word.ts'] = '0'.repeat(64);
    writeFileSync(path, JSON.stringify(wrong));
    expect((await launch('cli')).stdout).toBe('ten \n');
    expect(manifest()).toEqual(wrong);
    // Same size, modification time set back: the change time still tells.
    const { atime, mtime } = statSync(word);
    writeWord('two');
    utimesSync(word, atime, mtime);
    expect((await launch('cli')).stdout).toBe('two \n');
    expect(manifest().sources['main/cli/word.ts']).not.toBe('0'.repeat(64));
  }, 60_000);

  it('builds the interface for start when it is missing, and again after a source changed', async () => {
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    expect((await launch('start')).stdout).toBe('started\n');
    expect(builtInterface()).toContain('hello');
    // Unchanged sources: the build is left as it is.
    const built = statSync(join(root, 'dist/renderer/index.html')).mtimeMs;
    await launch('start');
    expect(statSync(join(root, 'dist/renderer/index.html')).mtimeMs).toBe(built);
    writeGreeting('hallo');
    await launch('start');
    expect(builtInterface()).toContain('hallo');
    expect(builtInterface()).not.toContain('hello');
  }, 60_000);

  it('build brings the interface up to date once, however many ask at once', async () => {
    writeGreeting('moin');
    const outputs = await Promise.all([launch('build'), launch('build'), launch('build')]);
    expect(outputs.map((output) => output.stderr).sort()).toEqual([
      "Building Pressroom's interface (after an install or an edit)…\n",
      "Pressroom's interface is up to date (dist/renderer).\n",
      "Pressroom's interface is up to date (dist/renderer).\n",
    ]);
    expect(builtInterface()).toContain('moin');
    expect(existsSync(join(root, 'dist/.renderer-build.lock'))).toBe(false);
  }, 60_000);

  it('refuses an unknown command name', async () => {
    await expect(launch('serve')).rejects.toMatchObject({
      code: 2,
      stderr: 'usage: node main/app/launch.mjs cli|start|build [arguments]\n',
    });
  });
});
