// `npm start` without Electron: one line saying so, then the demo workspace, serving.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm start', () => {
  it('says Electron is missing in its first line, then serves the demo workspace', async () => {
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
      expect(first).toMatch(/^Electron is not installed here/);
      const baseUrl = /base URL: (\S+)/.exec(output)?.[1];
      const token = /token:\s+(\S+)/.exec(output)?.[1];
      const response = await fetch(`${baseUrl}/bots`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(
        ((await response.json()) as { data: { name: string }[] }).data.map((bot) => bot.name),
      ).toContain('Corner Bakery');
      expect(output).toContain(home);
    } finally {
      child.kill('SIGINT');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});
