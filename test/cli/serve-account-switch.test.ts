// `serve` when the page asks to replace the connected account: the person at the terminal says
// yes or no, without a terminal the account stays, and --allow-account-switch lets it through.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, startCli } from '../support/cli';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';

const SERVE = ['serve', '--json', '--port', '0', '--local-platform'];

/** What a test started; `group`: a process group of its own (the terminal's `script` and serve). */
const started: { child: ChildProcessWithoutNullStreams; group: boolean }[] = [];
afterEach(async () => {
  for (const { child, group } of started.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    if (group) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

/** serve's environment: a home of its own, connected to `platform`'s account. */
function connectedTo(platform: TestPlatform): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'pressroom-switch-'));
  return {
    PRESSROOM_HOME: home,
    PRESSROOM_DB: '',
    PRESSROOM_API_BASE: platform.server.baseUrl,
    PRESSROOM_API_TOKEN: platform.server.token,
  };
}

/** The page's call to connect `platform`'s account, as the web host's page makes it. */
async function connectFromPage(url: string, platform: TestPlatform) {
  const target = new URL(url);
  const response = await fetch(`${target.origin}/api/call/connectAccount`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${target.hash.slice('#token='.length)}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ apiBase: platform.server.baseUrl, token: platform.server.token }),
  });
  return (await response.json()) as
    { ok: true; value: { apiBase: string | null } } | { ok: false; error: { message: string } };
}

/** serve on a terminal of its own (util-linux `script`), with what it prints as it comes. */
async function serveOnTerminal(env: NodeJS.ProcessEnv) {
  const command = [process.execPath, ...CLI_ENTRY, ...SERVE].map((arg) => `'${arg}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, ...env },
    detached: true,
  });
  started.push({ child, group: true });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const until = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (let tries = 0; tries < 600; tries++) {
      const found = pattern.exec(printed);
      if (found) return found;
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`serve never printed ${pattern}; it printed: ${printed}`);
  };
  const url = (await until(/\{"url":"([^"]+)"\}/))[1]!;
  return {
    url,
    /** Waits for the question, answers it on the terminal, and clears what was printed. */
    async answer(words: string): Promise<string> {
      const question = (await until(/replace the connected account [^\n]*\[y\/N\] /))[0];
      printed = '';
      child.stdin.write(`${words}\n`);
      return question;
    },
  };
}

describe('cli serve, the page replacing the connected account', () => {
  // `script` gives serve a terminal; it is util-linux's, on Linux.
  it.runIf(process.platform === 'linux' && existsSync('/usr/bin/script'))(
    'asks on the terminal, and switches only on yes',
    async () => {
      const [first, second, third] = await Promise.all([
        startTestPlatform(),
        startTestPlatform(),
        startTestPlatform(),
      ]);
      const terminal = await serveOnTerminal(connectedTo(first!));
      const refused = connectFromPage(terminal.url, second!);
      expect(await terminal.answer('n')).toContain(
        `replace the connected account ${first!.server.baseUrl} with ${second!.server.baseUrl}`,
      );
      expect(await refused).toEqual({
        ok: false,
        error: expect.objectContaining({ message: expect.stringMatching(/not confirmed/) }),
      });
      const accepted = connectFromPage(terminal.url, third!);
      await terminal.answer('y');
      expect(await accepted).toEqual({
        ok: true,
        value: expect.objectContaining({ apiBase: third!.server.baseUrl }),
      });
    },
  );

  it('keeps the account without a terminal to ask on, and lets --allow-account-switch switch', async () => {
    const [first, second] = await Promise.all([startTestPlatform(), startTestPlatform()]);
    /** serve with its standard input a pipe, connected to `first`; the page's try at `second`. */
    const switchOnPipe = async (flags: string[]) => {
      const { child, firstLine } = await startCli([...SERVE, ...flags], connectedTo(first!));
      started.push({ child, group: false });
      return connectFromPage((JSON.parse(firstLine) as { url: string }).url, second!);
    };
    expect(await switchOnPipe([])).toEqual({
      ok: false,
      error: expect.objectContaining({ message: expect.stringMatching(/--allow-account-switch/) }),
    });
    const switched = await switchOnPipe(['--allow-account-switch']);
    expect(switched).toEqual({
      ok: true,
      value: expect.objectContaining({ apiBase: second!.server.baseUrl }),
    });
  });
});
