// Opens a link in the system browser (Node), for `serve --open` and `npm start`. The link is on
// the browser's command line, which every user of the computer can read (ps): hand it a web host's
// oneTimeUrl, never its token.
import { spawn } from 'node:child_process';

/** Opens the URL in the system browser; a machine without one simply is not opened. */
export function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'win32'
      ? ['cmd', ['/c', 'start', '', url]]
      : [process.platform === 'darwin' ? 'open' : 'xdg-open', [url]];
  spawn(command, args, { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}
