// `npm start` without Electron: one line saying so, then Pressroom in the browser on the demo
// workspace, which publishes to the embedded reference server.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm start', () => {
  it('says Electron is missing in its first line, then serves the demo workspace in the browser', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pressroom-home-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/app/start.ts'], {
      env: { ...process.env, PRESSROOM_HOME: home },
    });
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Stop with Ctrl+C.')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    try {
      await ready;
      const [first] = output.split('\n');
      expect(first).toMatch(/^Electron is not installed here.*opens in the browser instead\.$/);
      expect(output).not.toMatch(/pk_/); // the demo platform's token stays in memory
      expect(output).toContain(home);
      const url = new URL(/is at (\S+)/.exec(output)?.[1] ?? '');
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
        if (posts.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(posts.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGINT');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});
