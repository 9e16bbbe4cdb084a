// Finds the Chromium the end-to-end tests, bench:ui and the screenshots drive (Node). Never a
// download: a browser named by PRESSROOM_CHROMIUM, else one installed where Chromium, Chrome or
// Edge install themselves, else the headless Chromium that ships inside the @sparticuz/chromium
// dev dependency's tarball (Linux x64), unpacked on first use. With none, the error says how to
// get one: a run without its browser fails, it never passes with the browser tests skipped.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../../main/app/builds.mjs';

export interface FoundBrowser {
  executablePath: string;
  /** Where it came from, for the one line a run prints. */
  source: 'PRESSROOM_CHROMIUM' | 'installed' | '@sparticuz/chromium';
}

/** What the lookup reads of the machine; tests pass their own. */
export interface BrowserLookupHost {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  arch: string;
  exists(path: string): boolean;
  /** Unpacks the packaged Chromium and returns its path; throws when the package is missing. */
  packagedChromium(): Promise<string>;
}

/** The usual install places, most specific first, per platform. */
export function installedBrowserPaths(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): string[] {
  switch (platform) {
    case 'linux':
      return [
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        '/snap/bin/chromium',
        '/usr/bin/google-chrome-stable',
        '/usr/bin/google-chrome',
        '/opt/google/chrome/chrome',
        '/usr/bin/microsoft-edge-stable',
        '/usr/bin/microsoft-edge',
      ];
    case 'darwin':
      return [
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      ];
    case 'win32': {
      const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(
        (root): root is string => Boolean(root),
      );
      return roots.flatMap((root) => [
        join(root, 'Chromium', 'Application', 'chrome.exe'),
        join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
        join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
      ]);
    }
    default:
      return [];
  }
}

export async function findBrowser(host: BrowserLookupHost = machine()): Promise<FoundBrowser> {
  const named = host.env.PRESSROOM_CHROMIUM;
  if (named) {
    // A named browser that is not there is a mistake to report, not a reason to look elsewhere.
    if (!host.exists(named))
      throw new Error(`PRESSROOM_CHROMIUM names ${named}, which does not exist.`);
    return { executablePath: named, source: 'PRESSROOM_CHROMIUM' };
  }
  const installed = installedBrowserPaths(host.platform, host.env).find((path) =>
    host.exists(path),
  );
  if (installed) return { executablePath: installed, source: 'installed' };
  // The package carries a Linux x64 build only.
  if (host.platform === 'linux' && host.arch === 'x64') {
    try {
      return { executablePath: await host.packagedChromium(), source: '@sparticuz/chromium' };
    } catch (error) {
      throw new Error(
        `No Chromium for the browser tests: the packaged one could not be unpacked (${(error as Error).message}); run \`npm install\`, install Chromium or Chrome, or set PRESSROOM_CHROMIUM to a Chromium-based browser.`,
      );
    }
  }
  throw new Error(
    `No Chromium for the browser tests on ${host.platform}-${host.arch}: install Chromium, Chrome or Edge, or set PRESSROOM_CHROMIUM to a Chromium-based browser's executable.`,
  );
}

function machine(): BrowserLookupHost {
  return {
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    exists: existsSync,
    async packagedChromium() {
      // Loaded only when needed: it unpacks ~190 MB into the temporary folder on first use, and
      // takes an unpacked copy as it finds it, so runs side by side must not unpack at once.
      const { default: chromium } = await import('@sparticuz/chromium');
      return withFileLock(join(tmpdir(), 'pressroom-chromium.lock'), () =>
        chromium.executablePath(),
      );
    },
  };
}
