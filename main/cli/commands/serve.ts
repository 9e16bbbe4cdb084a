// `serve`: the web host (Node, CLI) — the renderer and the core's contract on 127.0.0.1, with the
// queue running, until stopped.
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { waitForStopSignal } from '../../core/lifecycle';
import { startWebHost } from '../../host/web';
import { createOutput } from '../output';
import { globalOptions, intOption } from '../options';
import { withWorkspace } from '../workspace';

/** Opens the URL in the system browser; a machine without one simply is not opened. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'win32'
      ? ['cmd', ['/c', 'start', '', url]]
      : [process.platform === 'darwin' ? 'open' : 'xdg-open', [url]];
  spawn(command, args, { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve Pressroom in the browser on 127.0.0.1 (the same core as the desktop app)')
    .option('--port <n>', 'port to listen on (0: any free port)', intOption('--port', 0, 65535), 0)
    .option('--open', 'open it in the system browser', false)
    .addHelpText(
      'after',
      '\nWith --json the first stdout line is {"url":"http://127.0.0.1:PORT/#token=…"}.',
    )
    .action(async (options: { port: number; open: boolean }, command: Command) => {
      const output = createOutput(globalOptions(command).json);
      await withWorkspace(command, async (pressroom) => {
        const host = await startWebHost({
          pressroom,
          port: options.port,
          staticDir: 'dist/renderer',
        });
        output.result({ url: host.url }, `Pressroom is at ${host.url}`);
        if (options.open) openInBrowser(host.url);
        const stop = waitForStopSignal();
        if (pressroom.connected) await pressroom.watch(stop);
        else {
          output.progress('No platform account is set: the queue waits until one is (see README).');
          await stop;
        }
        await host.close();
      });
    });
}
