// The demo workspace's platform (Node): the embedded reference server with a demo bakery's seed,
// kept in the user-data folder, with some live activity (orders, messages) now and then, and the
// web space the demo workspace's uploaded pictures are published from.
import { join } from 'node:path';
import type { DemoPlatform } from '../core/session';
import { DEMO_MEDIA_PATH } from '../emulator/demo-media';
import { startPlatformServer } from '../emulator/server';

export async function startDemoPlatform(folder: string): Promise<DemoPlatform> {
  const mediaFolder = join(folder, 'demo-media');
  const platform = await startPlatformServer({
    dbFile: join(folder, 'demo-platform.sqlite'),
    seed: 'demo',
    demoActivityMs: 20_000,
    mediaFolder,
  });
  // The demo token lives in memory only; a new one is minted at every start.
  return {
    apiBase: platform.baseUrl,
    token: platform.token,
    mediaHost: { folder: mediaFolder, publicBaseUrl: `${platform.origin}${DEMO_MEDIA_PATH}` },
    close: () => platform.close(),
  };
}
