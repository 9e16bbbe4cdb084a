// The demo workspace's platform: its pictures' addresses survive a restart.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDemoPlatform } from '../../main/host/demo';

describe('the demo platform', () => {
  it('listens on its last port again, so the pictures it published keep their addresses', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-demo-'));
    const first = await startDemoPlatform(folder);
    const address = first.mediaHost?.publicBaseUrl;
    await first.close();
    const again = await startDemoPlatform(folder);
    expect(again.mediaHost?.publicBaseUrl).toBe(address);
    expect(again.apiBase.startsWith(new URL(address!).origin)).toBe(true);
    // Taken by another program meanwhile: it starts on another port rather than not at all.
    const taken = createServer();
    await again.close();
    await new Promise<void>((resolve) =>
      taken.listen(Number(new URL(address!).port), '127.0.0.1', resolve),
    );
    const moved = await startDemoPlatform(folder);
    expect(moved.mediaHost?.publicBaseUrl).not.toBe(address);
    await moved.close();
    await new Promise((resolve) => taken.close(resolve));
    // A port file that says nothing usable is ignored.
    writeFileSync(join(folder, 'demo-platform.port'), 'eighty');
    const fresh = await startDemoPlatform(folder);
    expect(fresh.apiBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    await fresh.close();
  });
});
