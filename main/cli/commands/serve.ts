// `serve`: the web host (Node, CLI) — the renderer and the core's contract on 127.0.0.1, with the
// queue running, until stopped.
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { waitForStopSignal } from '../../core/lifecycle';
import type { SessionOptions } from '../../core/session';
import { openInBrowser } from '../../host/open-browser';
import { startWebHost } from '../../host/web';
import { ensureInterface } from '../../app/builds.mjs';
import { createOutput } from '../output';
import { globalOptions, intOption } from '../options';

/**
 * How long the session's opening waits for the first call of a page opened from the printed URL:
 * a browser started beside `serve` has drawn the page and calls within a second on a busy machine.
 */
const PAGE_FIRST_MS = 1500;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve Pressroom in the browser on 127.0.0.1 (the same core as the desktop app)')
    .option('--port <n>', 'port to listen on (0: any free port)', intOption('--port', 0, 65535), 0)
    .option('--open', 'open it in the system browser', false)
    .option(
      '--local-platform',
      'let the page connect to a platform on this computer or its local network (development)',
      false,
    )
    .option(
      '--allow-account-switch',
      'let the page replace a connected account without asking on this terminal',
      false,
    )
    .addHelpText(
      'after',
      [
        '',
        'Workspace: the account from --api-base/--token (or the one connected in Settings);',
        'without one, the database named by --db as it is (offline), else the demo workspace.',
        'With --json the first stdout line is {"url":"http://127.0.0.1:PORT/#token=…"}.',
        'When the page asks to replace a connected account, this terminal asks first; without a',
        'terminal the account stays unless --allow-account-switch is given.',
      ].join('\n'),
    )
    .action(async (options: ServeOptions, command: Command) => {
      const global = await globalOptions(command);
      const output = createOutput(global.json);
      // npm runs the command in the project's folder, where the interface is built and served.
      await ensureInterface(process.cwd(), {
        onBuild: () =>
          output.progress("Building Pressroom's interface (after an install or an edit)…"),
      });
      // The session's code (the whole core) is loaded only once the URL is out.
      const openSession = async () =>
        (
          await (
            await import('../../host/user-session')
          ).openUserSession({
            allowLocalPlatform: options.localPlatform,
            ...confirmOnTerminal(options.allowAccountSwitch),
            ...(global.db ? { dbFile: global.db } : {}),
            ...(global.apiBase && global.token
              ? {
                  account: {
                    apiBase: global.apiBase,
                    token: global.token,
                    plan: global.plan ?? 'free',
                  },
                }
              : {}),
          })
        ).session;
      // The URL first: the page loads while the workspace opens (the demo's platform, first sync
      // and seed take a second or more), and its calls wait for the session. A browser opened from
      // the URL draws the page before the core's code loads (host/first-page.ts); with --open,
      // the browser opens once the session is.
      const host = await startWebHost({
        session: openSession,
        port: options.port,
        staticDir: 'dist/renderer',
        ...(options.open ? {} : { pageFirstMs: PAGE_FIRST_MS }),
      });
      output.result({ url: host.url }, `Pressroom is at ${host.url}`);
      const session = await host.session.catch(async (error: unknown) => {
        await host.close();
        throw error;
      });
      const mode = session.accountSettings().mode;
      if (mode !== 'account')
        output.progress(
          mode === 'demo'
            ? 'No account is set: this is the demo workspace (connect one in Settings).'
            : 'No account is set: drafts only; the queue waits until one is connected in Settings.',
        );
      if (options.open) openInBrowser(host.oneTimeUrl());
      await waitForStopSignal();
      await host.close();
      await session.close();
    });
}

interface ServeOptions {
  port: number;
  open: boolean;
  localPlatform: boolean;
  allowAccountSwitch: boolean;
}

/**
 * Who confirms that the page may replace the connected account: the flag, else the person at
 * this terminal (the page cannot answer for them); with neither, the account stays.
 */
function confirmOnTerminal(
  allowed: boolean,
): Pick<SessionOptions, 'confirmAccountSwitch'> | Record<string, never> {
  if (allowed) return { confirmAccountSwitch: async () => true };
  if (!process.stdin.isTTY) return {};
  return {
    confirmAccountSwitch: async (from, to) => {
      const terminal = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await terminal.question(
          `The page asks to replace the connected account ${from} with ${to}. Switch? [y/N] `,
        );
        return /^y(es)?$/i.test(answer.trim());
      } finally {
        terminal.close();
      }
    },
  };
}
