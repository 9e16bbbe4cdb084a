// `npm start` (Node): the Electron app where Electron's binary is installed; otherwise one line
// saying so, and the same app in the browser through the web host. A first run has no account,
// so it opens the demo workspace: the embedded reference server with its demo seed, and a
// workspace that publishes to it.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { waitForStopSignal } from '../core/lifecycle';
import { userDataDir } from '../core/paths';
import { Pressroom } from '../core/pressroom';
import { startPlatformServer } from '../emulator/server';
import { startWebHost } from '../host/web';

/** The Electron binary's path, or null when the package or its downloaded binary is missing. */
function electronBinary(): string | null {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
console.log(
  binary
    ? `Electron is installed (${binary}), but this version has no desktop window yet: opening Pressroom in the browser instead.`
    : 'Electron is not installed here (its binary cannot be downloaded), so Pressroom opens in the browser instead.',
);

const folder = userDataDir();
mkdirSync(folder, { recursive: true });
const platform = await startPlatformServer({
  dbFile: join(folder, 'demo-platform.sqlite'),
  seed: 'demo',
  demoActivityMs: 20_000,
});
// The demo token lives in memory only; a new one is minted at every start.
const pressroom = new Pressroom({
  dbFile: join(folder, 'demo-workspace.sqlite'),
  apiBase: platform.baseUrl,
  token: platform.token,
});
const host = await startWebHost({ pressroom, staticDir: 'dist/renderer' });
console.log(
  [
    `Pressroom (demo workspace) is at ${host.url}`,
    `  demo platform: ${platform.baseUrl} (a demo bakery's bots, subscribers, posts and catalog)`,
    `  data:          ${folder}`,
    'Stop with Ctrl+C.',
  ].join('\n'),
);
await pressroom.watch(waitForStopSignal());
await host.close();
pressroom.close();
await platform.close();
