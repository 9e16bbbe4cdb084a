// Doyensec's Electronegativity, a scanner we did not write, over the shell's sources and the window
// options the shell really passes, written out inline: the shell builds them in a helper, where the
// scanner cannot see them. A second, weakened copy of the options shows its checks do see them.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLog } from '../../main/app/log';
import { createMainWindow } from '../../main/app/window';
import { fakeElectron } from './fake-electron';

interface Finding {
  id: string;
  file: string;
  manualReview: boolean;
}
type Scan = (options: {
  input: string;
  electronVersionOverride: string;
  excludeFromScan: string[];
}) => Promise<{ issues: Finding[]; errors: { file: string; message: string }[] }>;

// CommonJS, exported as `default` or (through Vitest's loader) as the module itself.
const loaded = createRequire(import.meta.url)('@doyensec/electronegativity') as
  Scan | { default: Scan };
const scan = typeof loaded === 'function' ? loaded : loaded.default;

/** Rules turned off, and why. */
const DISABLED = [
  // Looks for a policy in <meta> tags or webRequest.onHeadersReceived. Ours is a header of every
  // response of the app:// protocol and the web host (protocol.ts, web.ts), which shell.test.ts
  // and web.test.ts read back.
  'CSPGlobalCheck',
  // Wants Blink's Auxclick off so a middle click cannot open a window. The shell denies every new
  // window and hands only http(s) links to the system browser (window.ts; shell.test.ts, "never
  // leaves our pages"), so a middle click on a web link opening the browser is meant.
  'AuxclickJSCheck',
  // Downloads Electron's release list from GitHub on every run. Electron is kept on the newest
  // patch of its major version instead (docs/release.md).
  'AvailableSecurityFixesGlobalCheck',
];

/** Findings that ask for a person's review, reviewed. */
const REVIEWED = [
  // The preload exposes only the Transport's `call` and `events` (preload.ts; preload.test.ts).
  'PRELOAD_JS_CHECK window-options.generated.js',
  // openExternal gets only http(s) URLs (window.ts, isWebLink).
  'OPEN_EXTERNAL_JS_CHECK window.ts',
];

/** A value as a JavaScript literal with bare keys, as a person would write the options. */
function literal(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value).map(([key, entry]) => `${key}: ${literal(entry)}`);
  return `{ ${entries.join(', ')} }`;
}

function windowFile(options: object): string {
  return `const { BrowserWindow } = require('electron');\nnew BrowserWindow(${literal(options)});\n`;
}

describe('Electronegativity', () => {
  it('finds nothing in the shell and its window options beyond what was reviewed', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-scan-'));
    const electron = fakeElectron();
    createMainWindow(
      electron,
      { preload: '/app/out/main/preload.cjs', folder },
      createLog({ file: join(folder, 'main.log') }),
    );
    const options = electron.windows[0]!.options;
    const target = join(folder, 'app');
    cpSync('main/app', target, { recursive: true });
    writeFileSync(join(target, 'window-options.generated.js'), windowFile(options));
    const weakened = {
      ...options,
      webPreferences: {
        ...options.webPreferences,
        contextIsolation: false,
        sandbox: false,
        webSecurity: false,
        allowRunningInsecureContent: true,
      },
    };
    writeFileSync(join(target, 'weakened.generated.js'), windowFile(weakened));

    const { issues, errors } = await scan({
      input: target,
      electronVersionOverride: '45.5.0',
      excludeFromScan: DISABLED,
    });
    expect(errors).toEqual([]);
    const found = (file: string) =>
      issues
        .filter((issue) => basename(issue.file) === file)
        .map((issue) => issue.id)
        .sort();
    // Its checks read the inline options: each weakened setting is reported.
    expect(found('weakened.generated.js')).toEqual(
      expect.arrayContaining([
        'CONTEXT_ISOLATION_JS_CHECK',
        'INSECURE_CONTENT_JS_CHECK',
        'SANDBOX_JS_CHECK',
        'WEB_SECURITY_JS_CHECK',
      ]),
    );
    const ours = issues
      .filter((issue) => basename(issue.file) !== 'weakened.generated.js')
      .map((issue) => `${issue.id} ${basename(issue.file)}`);
    expect(ours.sort()).toEqual([...REVIEWED].sort());
  }, 60_000);
});
