// `npm start` (Node): the Electron app where Electron's binary is installed; otherwise one line
// saying so, and the same app in the browser through the web host. A first run has no account,
// so it opens the demo workspace: the embedded reference server with its demo seed, and a
// workspace that publishes to it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { waitForStopSignal } from '../core/lifecycle';
import { openInBrowser } from '../host/open-browser';
import { openUserSession } from '../host/user-session';
import { startWebHost } from '../host/web';

const EXECUTABLES: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

/**
 * The Electron binary's path, or null when the package or its binary is missing. Looked up the
 * way the `electron` package does, without requiring it: requiring it downloads the binary.
 */
function electronBinary(): string | null {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist');
  const binary = join(dist, EXECUTABLES[process.platform] ?? 'electron');
  return existsSync(binary) ? binary : null;
}

async function runElectron(binary: string): Promise<number> {
  console.log(`Starting Pressroom in Electron (${binary}).`);
  // Loaded here: the browser path needs no bundler.
  const { buildShell } = await import('./build');
  const { main } = await buildShell();
  const child = spawn(binary, [main], { stdio: 'inherit' });
  // Electron quits cleanly (draining its queue) on these; we wait for it rather than die first.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  const [code] = (await once(child, 'exit')) as [number | null];
  process.off('SIGINT', forward).off('SIGTERM', forward);
  return code ?? 1;
}

async function runInBrowser(): Promise<void> {
  console.log(
    'Electron is not installed here (its binary cannot be downloaded), so Pressroom opens in the browser instead.',
  );
  const { session, folder } = await openUserSession();
  const host = await startWebHost({ session, staticDir: 'dist/renderer' });
  const account = session.accountSettings();
  console.log(
    [
      `Pressroom (${account.mode === 'demo' ? 'demo workspace' : account.mode === 'account' ? account.apiBase : 'offline'}) is at ${host.url}`,
      `  data: ${folder}`,
      'Stop with Ctrl+C.',
    ].join('\n'),
  );
  // A person at a terminal gets the page opened; a script or a test reads the link instead.
  if (process.stdout.isTTY) openInBrowser(host.oneTimeUrl());
  await waitForStopSignal();
  await host.close();
  await session.close();
}

const binary = electronBinary();
if (binary) process.exitCode = await runElectron(binary);
else await runInBrowser();
