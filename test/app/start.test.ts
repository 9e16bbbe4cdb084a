// `npm start`: without Electron, one line saying so, then Pressroom in the browser on the demo
// workspace, which publishes to the embedded reference server; with Electron's binary present,
// the shell is built and Electron is started on it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function start(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['main/app/launch.mjs', 'start'], {
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

// The first start after a checkout or an edit builds what it runs first (launch.mjs), as on a
// fresh clone: tens of seconds on a loaded machine.
describe('npm start', { timeout: 120_000 }, () => {
  it('says Electron is missing in its first line, then serves the demo workspace in the browser', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pressroom-home-'));
    // An empty override: the electron package is installed, its binary is not.
    const { child, output } = start({
      PRESSROOM_HOME: home,
      ELECTRON_OVERRIDE_DIST_PATH: join(home, 'no-electron'),
    });
    const ready = new Promise<void>((resolveReady, reject) => {
      child.stdout.on('data', () => {
        if (output().includes('Stop with Ctrl+C.')) resolveReady();
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output()}`)));
    });
    try {
      await ready;
      const [first] = output().split('\n');
      expect(first).toMatch(/^Electron is not installed here.*opens in the browser instead\.$/);
      expect(output()).not.toMatch(/pk_/); // the demo platform's token stays in memory
      expect(output()).toContain(home);
      const url = new URL(/is at (\S+)/.exec(output())?.[1] ?? '');
      const token = url.hash.slice('#token='.length);
      // The demo workspace syncs from the demo platform as it starts: its posts arrive.
      let posts: unknown[] = [];
      for (let tries = 0; posts.length === 0 && tries < 50; tries++) {
        const response = await fetch(`${url.origin}/api/call/listPosts`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: '{}',
        });
        posts = ((await response.json()) as { value: unknown[] }).value;
        if (posts.length === 0) await new Promise((wait) => setTimeout(wait, 100));
      }
      expect(posts.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGINT');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('builds the shell and runs Electron on it when the binary is there', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pressroom-home-'));
    const dist = mkdtempSync(join(tmpdir(), 'electron-dist-'));
    // A stand-in for Electron's binary (a shell script, where the package puts the binary on
    // Linux and macOS): records its arguments and exits with code 3.
    const binary = join(
      dist,
      process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron',
    );
    mkdirSync(dirname(binary), { recursive: true });
    writeFileSync(binary, `#!/bin/sh\necho "$@" > "${home}/args"\nexit 3\n`);
    chmodSync(binary, 0o755);
    const { child, output } = start({ PRESSROOM_HOME: home, ELECTRON_OVERRIDE_DIST_PATH: dist });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(output().split('\n')[0]).toBe(`Starting Pressroom in Electron (${binary}).`);
    expect(readFileSync(join(home, 'args'), 'utf8').trim()).toBe(resolve('out/main/index.js'));
    expect(code).toBe(3);
  });
});
