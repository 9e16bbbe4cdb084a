// The browser the end-to-end tests drive is found in a fixed order, and never silently missing:
// PRESSROOM_CHROMIUM, then an installed Chromium/Chrome/Edge, then the packaged Chromium.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findBrowser, installedBrowserPaths } from '../support/browser';
import type { BrowserLookupHost } from '../support/browser';

function host(overrides: Partial<BrowserLookupHost> & { present?: string[] }): BrowserLookupHost {
  const present = new Set(overrides.present ?? []);
  return {
    env: {},
    platform: 'linux',
    arch: 'x64',
    exists: (path) => present.has(path),
    packagedChromium: () => Promise.resolve('/tmp/chromium'),
    ...overrides,
  };
}

describe('findBrowser', () => {
  it('takes PRESSROOM_CHROMIUM first, even with a browser installed', async () => {
    const found = await findBrowser(
      host({
        env: { PRESSROOM_CHROMIUM: '/opt/mine/chrome' },
        present: ['/opt/mine/chrome', '/usr/bin/chromium'],
      }),
    );
    expect(found).toEqual({ executablePath: '/opt/mine/chrome', source: 'PRESSROOM_CHROMIUM' });
  });

  it('refuses a PRESSROOM_CHROMIUM that does not exist instead of looking elsewhere', async () => {
    await expect(
      findBrowser(host({ env: { PRESSROOM_CHROMIUM: '/nope' }, present: ['/usr/bin/chromium'] })),
    ).rejects.toThrow('PRESSROOM_CHROMIUM names /nope, which does not exist.');
  });

  it('takes an installed browser before the packaged one, Chromium before Chrome', async () => {
    let unpacked = false;
    const found = await findBrowser(
      host({
        present: ['/usr/bin/google-chrome', '/usr/bin/chromium'],
        packagedChromium: () => {
          unpacked = true;
          return Promise.resolve('/tmp/chromium');
        },
      }),
    );
    expect(found).toEqual({ executablePath: '/usr/bin/chromium', source: 'installed' });
    expect(unpacked).toBe(false);
  });

  it('finds Chrome and Edge where macOS and Windows install them', async () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(await findBrowser(host({ platform: 'darwin', present: [chrome] }))).toEqual({
      executablePath: chrome,
      source: 'installed',
    });
    const env = {
      PROGRAMFILES: 'C:\\Program Files',
      LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
    };
    const edge = installedBrowserPaths('win32', env).find((path) => path.endsWith('msedge.exe'))!;
    expect(edge).toContain('Edge');
    expect(await findBrowser(host({ platform: 'win32', env, present: [edge] }))).toEqual({
      executablePath: edge,
      source: 'installed',
    });
  });

  it('unpacks the packaged Chromium on Linux x64 when nothing is installed', async () => {
    expect(await findBrowser(host({}))).toEqual({
      executablePath: '/tmp/chromium',
      source: '@sparticuz/chromium',
    });
  });

  it('fails with one sentence naming the fix where no browser can be had', async () => {
    await expect(findBrowser(host({ platform: 'linux', arch: 'arm64' }))).rejects.toThrow(
      'No Chromium for the browser tests on linux-arm64: install Chromium, Chrome or Edge, or set PRESSROOM_CHROMIUM',
    );
    await expect(
      findBrowser(host({ packagedChromium: () => Promise.reject(new Error('gone')) })),
    ).rejects.toThrow(/could not be unpacked \(gone\); run `npm install`/);
  });

  it('finds a browser on this machine, without a download', async () => {
    const found = await findBrowser();
    expect(existsSync(found.executablePath)).toBe(true);
  }, 60_000);
});
