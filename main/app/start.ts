// `npm start` (Node): the Electron app where Electron's binary is installed; otherwise one line
// saying so, and the demo workspace in plain Node. Until the renderer and its web host land, the
// demo workspace is the reference server of Platform API v1 with the demo seed.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { waitForStopSignal } from '../core/lifecycle';
import { userDataDir } from '../core/paths';
import { startPlatformServer } from '../emulator/server';

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
    ? `Electron is installed (${binary}), but this version has no desktop window yet: starting the demo workspace in Node instead.`
    : 'Electron is not installed here (its binary cannot be downloaded), so Pressroom starts without its desktop window.',
);

const folder = userDataDir();
mkdirSync(folder, { recursive: true });
const server = await startPlatformServer({
  dbFile: join(folder, 'demo-platform.sqlite'),
  seed: 'demo',
  demoActivityMs: 20_000,
});
console.log(
  [
    'Demo workspace: the reference server of Platform API v1, with a demo bakery’s bots, subscribers, posts and catalog.',
    `  base URL: ${server.baseUrl}`,
    `  token:    ${server.token}`,
    `  try:      curl -H "Authorization: Bearer ${server.token}" ${server.baseUrl}/posts?per_page=3`,
    `  data:     ${folder}`,
    'Stop with Ctrl+C.',
  ].join('\n'),
);
await waitForStopSignal();
await server.close();
