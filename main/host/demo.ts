// The demo workspace's platform (Node): the embedded reference server with a demo bakery's seed,
// kept in the user-data folder, with some live activity (orders, messages) now and then, and the
// web space the demo workspace's uploaded pictures are published from. It listens on the port it
// had last time when that is free, so the addresses of pictures it published survive a restart.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { DemoPlatform } from '../core/session';
import { DEMO_MEDIA_PATH } from '../reference-server/demo-media';
import { startPlatformServer } from '../reference-server/server';

/** Where the demo server's last port is kept, beside its database. */
const PORT_FILE = 'demo-platform.port';

/** Whether nothing listens on this loopback port now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The port the demo server had last time, if it is free; else 0, any free port. */
async function lastPort(folder: string): Promise<number> {
  let port = 0;
  try {
    port = Number(readFileSync(join(folder, PORT_FILE), 'utf8').trim());
  } catch {
    return 0;
  }
  return Number.isInteger(port) && port > 1023 && port < 65536 && (await isFree(port)) ? port : 0;
}

export async function startDemoPlatform(folder: string): Promise<DemoPlatform> {
  const mediaFolder = join(folder, 'demo-media');
  const platform = await startPlatformServer({
    port: await lastPort(folder),
    dbFile: join(folder, 'demo-platform.sqlite'),
    seed: 'demo',
    demoActivityMs: 20_000,
    mediaFolder,
  });
  writeFileSync(join(folder, PORT_FILE), new URL(platform.origin).port);
  // The demo token lives in memory only; a new one is minted at every start.
  return {
    apiBase: platform.baseUrl,
    token: platform.token,
    mediaHost: { folder: mediaFolder, publicBaseUrl: `${platform.origin}${DEMO_MEDIA_PATH}` },
    close: () => platform.close(),
  };
}
