// The demo workspace's platform (Node): the embedded reference server with a demo bakery's seed,
// kept in the user-data folder, with some live activity (orders, messages) now and then.
import { join } from 'node:path';
import type { DemoPlatform } from '../core/session';
import { startPlatformServer } from '../emulator/server';

export async function startDemoPlatform(folder: string): Promise<DemoPlatform> {
  const platform = await startPlatformServer({
    dbFile: join(folder, 'demo-platform.sqlite'),
    seed: 'demo',
    demoActivityMs: 20_000,
  });
  // The demo token lives in memory only; a new one is minted at every start.
  return { apiBase: platform.baseUrl, token: platform.token, close: () => platform.close() };
}
