// `serve` from the command line: the URL with its token, a working call, the built interface, a
// clean stop.
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../support/cli';

describe('cli serve', () => {
  it('prints {"url"} first, serves the contract, and stops on SIGTERM', async () => {
    const { child, firstLine } = await startCli(['serve', '--json', '--port', '0'], {
      PRESSROOM_DB: join(mkdtempSync(join(tmpdir(), 'pressroom-serve-')), 'w.sqlite'),
      PRESSROOM_API_BASE: '',
      PRESSROOM_API_TOKEN: '',
    });
    try {
      const { url } = JSON.parse(firstLine) as { url: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+$/);
      const target = new URL(url);
      const token = target.hash.slice('#token='.length);
      const response = await fetch(`${target.origin}/api/call/listPosts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(await response.json()).toEqual({ ok: true, value: [] });
      // The interface itself, built from the current sources if it was not (builds.mjs).
      const page = await (await fetch(`${target.origin}/`)).text();
      const script = /<script type="module" crossorigin src="\.\/(assets\/[^"]+\.js)"/.exec(
        page,
      )?.[1];
      expect(script).toBeDefined();
      const scriptResponse = await fetch(`${target.origin}/${script}`);
      expect(scriptResponse.status).toBe(200);
      expect(scriptResponse.headers.get('content-type')).toMatch(/javascript/);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  // Windows opens links through cmd.exe, which a test cannot stand in for on the PATH.
  it.runIf(process.platform !== 'win32')(
    'opens the browser on a one-time code, never the session token, so ps shows no token',
    async () => {
      const bin = mkdtempSync(join(tmpdir(), 'pressroom-browser-'));
      const seen = join(bin, 'argv.txt');
      for (const name of ['xdg-open', 'open']) {
        writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$@" > '${seen}'\n`);
        chmodSync(join(bin, name), 0o755);
      }
      const { child, firstLine } = await startCli(['serve', '--json', '--port', '0', '--open'], {
        PRESSROOM_DB: join(mkdtempSync(join(tmpdir(), 'pressroom-serve-')), 'w.sqlite'),
        PRESSROOM_API_BASE: '',
        PRESSROOM_API_TOKEN: '',
        PATH: `${bin}:${process.env.PATH ?? ''}`,
      });
      try {
        const { url } = JSON.parse(firstLine) as { url: string };
        const token = new URL(url).hash.slice('#token='.length);
        for (let tries = 0; !existsSync(seen) && tries < 100; tries++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        const opened = readFileSync(seen, 'utf8').trim();
        expect(opened).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]+$/);
        expect(opened).not.toContain(token);
        const origin = new URL(url).origin;
        const trade = () =>
          fetch(`${origin}/api/session`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ code: new URL(opened).hash.slice('#code='.length) }),
          });
        expect(await (await trade()).json()).toEqual({ ok: true, value: { token } });
        expect((await trade()).status).toBe(401);
      } finally {
        child.kill('SIGTERM');
      }
      await once(child, 'exit');
    },
  );
});
