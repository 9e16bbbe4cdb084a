// The Electron main process's entry point (bundled by build.ts into out/main/index.js): hands
// the real Electron to the shell, routes console output into the redacting log, and turns a
// failed start into a dialog instead of a silent exit.
import * as electron from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShell } from './shell';
import { checkForUpdates } from './updater';

const here = dirname(fileURLToPath(import.meta.url));
const { app, dialog } = electron;

try {
  const shell = await startShell({
    electron,
    preload: join(here, 'preload.cjs'),
    rendererDir: join(here, '..', 'renderer'),
    windowIcon: join(here, '..', 'icons', 'icon.png'),
    // macOS draws template images in the menu bar's own colour.
    trayIcon: join(
      here,
      '..',
      'icons',
      process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png',
    ),
    ...(app.isPackaged ? {} : { echoLog: (line: string) => process.stdout.write(`${line}\n`) }),
  });
  if (shell) {
    // The core reports unexpected errors on the console; in the app they belong in the log.
    console.error = (message: string, ...details: unknown[]) =>
      shell.log.error(message, ...details);
    console.warn = (message: string, ...details: unknown[]) => shell.log.warn(message, ...details);
    checkForUpdates({
      resourcesPath: app.isPackaged ? process.resourcesPath : null,
      log: shell.log,
    });
  }
} catch (error) {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const abi = /NODE_MODULE_VERSION/.test(detail)
    ? '\n\nbetter-sqlite3 is built for Node, not Electron: run `npx electron-builder install-app-deps` (see docs/desktop.md).'
    : '';
  dialog.showErrorBox('Pressroom could not start', `${detail}${abi}`);
  app.exit(1);
}
