// The desktop shell on a recording fake of Electron, over a real core and the reference server:
// the IPC surface, who may call it, the window's security, the sealed token, the quit path, and
// the native parts (menu, tray, notifications, dialogs, drop, backups, remembered bounds).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallResult, CoreEvent } from '../../shared/answers';
import type { LocalPost } from '../../shared/domain';
import {
  APP_URL,
  CALL_PREFIX,
  DROPPED_FILE_CHANNEL,
  EVENT_CHANNEL,
  UPLOAD_CHANNEL,
} from '../../main/app/channels';
import type { IpcEvent } from '../../main/app/electron-api';
import { startShell } from '../../main/app/shell';
import { isPrivateOrSecureUrl } from '../../shared/url';
import type { DesktopShell } from '../../main/app/shell';
import { call, OPERATION_NAMES } from '../../main/core/operations';
import { CONTENT_SECURITY_POLICY } from '../../main/host/web';
import { backupDatabase } from '../../main/store/backup';
import { openWorkspaceDb } from '../../main/store/db';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { fakeElectron, menuItem } from './fake-electron';
import type { FakeElectron, FakeOptions, FakeWindow } from './fake-electron';

interface AppOptions {
  folder?: string;
  platform?: NodeJS.Platform;
  fake?: FakeOptions;
  fetch?: typeof fetch;
  quitTimeoutMs?: number;
  testPlatform?: TestPlatform;
}

interface App {
  electron: FakeElectron;
  shell: DesktopShell;
  platform: TestPlatform;
  folder: string;
  window: FakeWindow;
  call(operation: string, ...payload: unknown[]): Promise<CallResult>;
  quit(): Promise<void>;
  logText(): string;
}

const running: App[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.quit()));
});

function rendererDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pressroom-renderer-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Pressroom</title>');
  return dir;
}

async function startApp(options: AppOptions = {}): Promise<App> {
  const platform = options.testPlatform ?? (await startTestPlatform({ seed: 'demo' }));
  const folder = options.folder ?? mkdtempSync(join(tmpdir(), 'pressroom-app-'));
  const electron = fakeElectron({ documents: folder, ...options.fake });
  const shell = await startShell({
    electron,
    platform: options.platform ?? 'linux',
    folder,
    preload: '/app/out/main/preload.cjs',
    rendererDir: rendererDir(),
    trayIcon: '/app/out/icons/tray.png',
    quitTimeoutMs: options.quitTimeoutMs ?? 5_000,
    session: {
      watch: false,
      allowLocalPlatform: true,
      demo: async () => ({
        apiBase: platform.server.baseUrl,
        token: platform.server.token,
        close: async () => undefined,
      }),
      ...(options.fetch ? { pressroom: { fetch: options.fetch } } : {}),
    },
  });
  if (!shell) throw new Error('the shell did not start');
  const window = electron.windows[0]!;
  let quitting: Promise<void> | null = null;
  const app: App = {
    electron,
    shell,
    platform,
    folder,
    window,
    call: (operation, ...payload) =>
      electron.handlers.get(CALL_PREFIX + operation)!(
        fromPage(window),
        ...payload,
      ) as Promise<CallResult>,
    quit: () => {
      quitting ??= (electron.requestQuit(), shell.closed);
      return quitting;
    },
    logText: () => readFileSync(join(folder, 'logs', 'main.log'), 'utf8'),
  };
  running.push(app);
  return app;
}

/** A bot of the demo platform: a post needs one to be published. */
async function aBot(platform: TestPlatform): Promise<string> {
  return (await platform.client.listBots({ per_page: 1 })).items[0]!.id;
}

/** An IPC event as Electron gives it for a call from our window's page. */
function fromPage(window: FakeWindow, url = `${APP_URL}#/calendar`): IpcEvent {
  return { sender: { id: window.webContents.id }, senderFrame: { url, parent: null } };
}

/** Every file under `folder`, as text, to look for a secret in. */
function everything(folder: string): string {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path).toString('latin1'))
    .join('\n');
}

describe('IPC', () => {
  it('has exactly one handler for each contract operation, the dropped file and uploads, and no other', async () => {
    const { electron } = await startApp();
    // The fake, like Electron, throws on a second handler for a channel.
    expect([...electron.handlers.keys()].sort()).toEqual(
      [
        ...OPERATION_NAMES.map((operation) => CALL_PREFIX + operation),
        DROPPED_FILE_CHANNEL,
        UPLOAD_CHANNEL,
      ].sort(),
    );
  });

  it('takes a file for an import from our window only, kept for previewUpload by its id', async () => {
    const app = await startApp();
    const upload = app.electron.handlers.get(UPLOAD_CHANNEL)!;
    const bytes = new TextEncoder().encode('text\nMonday\n').buffer;
    const sent = (await upload(fromPage(app.window), 'week.csv', bytes)) as CallResult<{
      upload: string;
    }>;
    expect(sent).toMatchObject({ ok: true, value: { upload: expect.any(String) } });
    const preview = await app.call('previewUpload', {
      kind: 'posts',
      upload: sent.ok ? sent.value.upload : '',
    });
    expect(preview).toMatchObject({ ok: true, value: { sample: [{ row: 2, cells: ['Monday'] }] } });
    expect(
      await upload(fromPage(app.window, 'https://evil.example/'), 'week.csv', bytes),
    ).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    expect(await upload(fromPage(app.window), 'week.csv', 'text')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: 'An upload carries a file name and its bytes' },
    });
    expect(await upload(fromPage(app.window), '', bytes)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
  });

  it('answers calls from our window through the core', async () => {
    const app = await startApp();
    const added = await app.call('addPost', { text: 'From the desktop', mode: 'draft' });
    expect(added).toMatchObject({ ok: true, value: { text: 'From the desktop', status: 'draft' } });
    // Core events reach the window.
    expect(await app.call('saveSettings', { graceMinutes: 10 })).toMatchObject({ ok: true });
    expect(app.window.webContents.sent).toContainEqual({
      channel: EVENT_CHANNEL,
      args: [{ type: 'changed', what: 'settings' } satisfies CoreEvent],
    });
  });

  it('refuses calls from another webContents or another page, and logs them', async () => {
    const app = await startApp();
    const handler = app.electron.handlers.get(`${CALL_PREFIX}listPosts`)!;
    const foreign: IpcEvent[] = [
      {
        sender: { id: app.window.webContents.id + 100 },
        senderFrame: { url: APP_URL, parent: null },
      },
      // A frame inside our page, even one showing our own page.
      {
        sender: { id: app.window.webContents.id },
        senderFrame: { url: APP_URL, parent: { url: APP_URL, parent: null } },
      },
      fromPage(app.window, 'https://evil.example/'),
      fromPage(app.window, 'file:///etc/passwd'),
      { sender: { id: app.window.webContents.id }, senderFrame: null },
    ];
    for (const event of foreign)
      expect(await handler(event, {})).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    expect(app.logText().match(/refused listPosts from a foreign sender/g)).toHaveLength(5);
    expect(app.logText()).toContain('https://evil.example/');
  });

  it('refuses the operations that reach files by path; the menu still uses them', async () => {
    const app = await startApp();
    const script = join(app.folder, 'startup.sh');
    const refusedExport = await app.call('exportFile', { kind: 'posts', path: script });
    expect(refusedExport).toMatchObject({
      ok: false,
      error: { kind: 'not_allowed', message: expect.stringMatching(/^exportFile is only for/) },
    });
    expect(existsSync(script)).toBe(false);
    const refusedImport = await app.call('importFile', {
      kind: 'posts',
      path: '/etc/passwd',
      dryRun: true,
    });
    expect(refusedImport).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    expect(JSON.stringify(refusedImport)).not.toContain('root');
    expect(app.logText()).toMatch(/refused importFile: importFile is only for/);
  });

  it('refuses bad payloads, logging what was wrong but not what was sent', async () => {
    const app = await startApp();
    expect(await app.call('addPost', { text: 42, secret: 'sk_live_should_not_log' })).toMatchObject(
      { ok: false, error: { kind: 'invalid_input' } },
    );
    expect(await app.call('listPosts', {}, { extra: true })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: 'A call carries exactly one payload' },
    });
    expect(await app.call('pauseQueue', 'not an object')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    const log = app.logText();
    expect(log).toMatch(/refused addPost: .*text/);
    expect(log).toMatch(/refused listPosts: 2 payloads/);
    expect(log).not.toContain('sk_live_should_not_log');
    expect(call(app.shell.session.current, 'listPosts')).toEqual([]);
  });
});

describe('window', () => {
  it('is sandboxed and isolated, with no Node in the page, and loads our own page', async () => {
    const { window } = await startApp();
    expect(window.options.webPreferences).toEqual({
      preload: '/app/out/main/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      // A file dropped outside the page's drop zones does nothing: drops come from the page.
      navigateOnDragDrop: false,
      spellcheck: true,
    });
    expect(window.loaded).toEqual([APP_URL]);
  });

  it('never leaves our pages: web links open in the browser, others are dropped', async () => {
    const { window, electron } = await startApp();
    expect(window.webContents.navigate(`${APP_URL}#/queue`)).toBe(false);
    expect(window.webContents.navigate('https://example.com/help')).toBe(true);
    expect(window.webContents.navigate('javascript:alert(1)')).toBe(true);
    expect(window.webContents.openHandler!({ url: 'http://example.com/a' })).toEqual({
      action: 'deny',
    });
    expect(window.webContents.openHandler!({ url: 'smb://share/x' })).toEqual({ action: 'deny' });
    expect(electron.opened).toEqual(['https://example.com/help', 'http://example.com/a']);
    const webview = { prevented: false, preventDefault: () => (webview.prevented = true) };
    window.webContents.emit('will-attach-webview', webview);
    expect(webview.prevented).toBe(true);
  });

  it('refuses every permission the page asks for', async () => {
    const { electron } = await startApp();
    const answers: boolean[] = [];
    electron.permissionHandler!(null, 'geolocation', (granted) => answers.push(granted));
    electron.permissionHandler!(null, 'media', (granted) => answers.push(granted));
    expect(answers).toEqual([false, false]);
    // Synchronous checks and devices (WebUSB, WebHID, serial) are refused too.
    for (const permission of ['geolocation', 'media', 'notifications', 'clipboard-read'])
      expect(electron.permissionCheck!(null, permission, 'app://pressroom')).toBe(false);
    expect(electron.devicePermission!({ deviceType: 'usb', origin: 'app://pressroom' })).toBe(
      false,
    );
    expect(electron.devicePermission!({ deviceType: 'hid', origin: 'app://pressroom' })).toBe(
      false,
    );
  });

  it('serves the renderer under the web host’s CSP from app://, and nothing outside it', async () => {
    const { electron } = await startApp();
    expect(electron.schemes).toMatchObject([
      { scheme: 'app', privileges: { standard: true, secure: true } },
    ]);
    const serve = electron.protocols.get('app')!;
    const page = await serve(new Request(APP_URL));
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>Pressroom</title>');
    for (const url of [
      'app://pressroom/%E0%A4%A',
      'app://pressroom/%2e%2e/%2e%2e/etc/passwd',
      'app://pressroom/missing.js',
      'app://elsewhere/index.html',
    ])
      expect((await serve(new Request(url))).status).toBe(404);
  });

  it('remembers its size and position', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-app-'));
    const first = await startApp({ folder });
    first.window.bounds = { x: 120, y: 80, width: 1000, height: 700 };
    first.window.close();
    await first.quit();
    const second = await startApp({ folder, testPlatform: first.platform });
    expect(second.window.options).toMatchObject({ x: 120, y: 80, width: 1000, height: 700 });
    await second.quit();
    // Last seen on a monitor that is gone: back to the default size, placed by the system.
    writeFileSync(join(folder, 'window.json'), '{"x":5000,"y":80,"width":1000,"height":700}');
    const third = await startApp({ folder, testPlatform: first.platform });
    expect(third.window.options).toMatchObject({ width: 1280, height: 820 });
    expect(third.window.options.x).toBeUndefined();
  });
});

describe('the token', () => {
  it('is sealed by safeStorage: never in plain text in the folder, the database or the log', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-app-'));
    const app = await startApp({ folder });
    const { token, baseUrl } = app.platform.server;
    const connected = await app.call('connectAccount', { apiBase: baseUrl, token, plan: 'pro' });
    expect(connected).toMatchObject({ ok: true, value: { mode: 'account' } });
    expect(app.electron.encrypted).toEqual([token]);
    // Whoever logs it, the log hides it.
    app.shell.log.warn(`request failed: Authorization: Bearer ${token}`);
    app.shell.log.info('token is', token);
    await app.call('addPost', { text: 'A draft in the account', mode: 'draft' });
    await app.quit();
    const files = everything(folder);
    expect(files).toContain('A draft in the account'); // the scan does read the database
    expect(files).not.toContain(token);
    expect(app.logText()).toMatch(/Bearer \[redacted\]/);

    // The next start reads it back through safeStorage and opens the account's workspace.
    const again = await startApp({ folder, testPlatform: app.platform });
    expect(await again.call('getSettings', {})).toMatchObject({
      ok: true,
      value: { account: { mode: 'account', tokenHint: `••••••••${token.slice(-4)}` } },
    });
  });

  it('is never sent over plain http to another computer', async () => {
    const app = await startApp();
    for (const apiBase of ['http://platform.example/api/v1', 'http://10.0.0.5:8080/api/v1']) {
      const result = await app.call('connectAccount', { apiBase, token: 'tok_1234567890' });
      expect(result).toMatchObject({
        ok: false,
        error: {
          kind: 'invalid_input',
          issues: [
            { field: 'apiBase', message: expect.stringMatching(/^must start with https:\/\//) },
          ],
        },
      });
    }
    expect(app.electron.encrypted).toEqual([]);
    // This computer's own addresses may use http (a reference server, a tunnel's local end).
    const { token, baseUrl } = app.platform.server;
    for (const host of ['localhost', '[::1]'])
      expect(isPrivateOrSecureUrl(baseUrl.replace('127.0.0.1', host))).toBe(true);
    expect(await app.call('connectAccount', { apiBase: baseUrl, token })).toMatchObject({
      ok: true,
    });
  });

  it('is replaced by another account only when the user says so in a native dialog', async () => {
    const app = await startApp();
    const other = await startTestPlatform({ seed: 'demo' });
    const { token, baseUrl } = app.platform.server;
    expect(await app.call('connectAccount', { apiBase: baseUrl, token })).toMatchObject({
      ok: true,
    });
    expect(app.electron.dialogs).toEqual([]);
    const switchTo = () =>
      app.call('connectAccount', { apiBase: other.server.baseUrl, token: other.server.token });
    app.electron.answers.push(1); // "Keep the connected one"
    expect(await switchTo()).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    expect(app.electron.dialogs.map((dialog) => dialog.options)).toMatchObject([
      {
        message: 'Switch Pressroom to another account?',
        detail: expect.stringContaining(other.server.baseUrl),
        buttons: ['Switch account', 'Keep the connected one'],
      },
    ]);
    expect(app.shell.session.accountSettings().apiBase).toBe(baseUrl);
    expect(app.electron.encrypted).toEqual([token]);
    app.electron.answers.push(0); // "Switch account"
    expect(await switchTo()).toMatchObject({ ok: true });
    expect(app.shell.session.accountSettings().apiBase).toBe(other.server.baseUrl);
  });

  it('is refused, not stored, when the system has no keychain', async () => {
    const app = await startApp({ fake: { encryption: false } });
    const { token, baseUrl } = app.platform.server;
    const result = await app.call('connectAccount', { apiBase: baseUrl, token });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(!result.ok && result.error.message).toMatch(/no keychain/);
    expect(existsSync(join(app.folder, 'token.safe'))).toBe(false);
    expect(existsSync(join(app.folder, 'account.json'))).toBe(false);
  });
});

describe('a workspace is its owner’s', () => {
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it.skipIf(process.platform === 'win32')(
    'keeps the data folder 0700 and the databases, backups and exports 0600',
    async () => {
      const parent = mkdtempSync(join(tmpdir(), 'pressroom-app-'));
      // Made by an older Pressroom, as the umask had it.
      const folder = join(parent, 'Pressroom');
      mkdirSync(folder, { mode: 0o755 });
      chmodSync(folder, 0o755);
      const app = await startApp({ folder });
      await app.call('addPost', { text: 'Private', mode: 'draft' });
      expect(modeOf(folder)).toBe(0o700);
      expect(modeOf(join(folder, 'logs'))).toBe(0o700);
      const database = join(folder, 'demo-workspace.sqlite');
      expect(modeOf(database)).toBe(0o600);
      expect(modeOf(`${database}-wal`)).toBe(0o600);
      const backup = backupDatabase(database, 'daily', { dir: join(folder, 'backups') });
      expect(modeOf(join(folder, 'backups'))).toBe(0o700);
      expect(modeOf(backup)).toBe(0o600);
      const exported = join(folder, 'posts.csv');
      app.electron.answers.push(exported);
      menuItem(app.electron.appMenu, 'Export Posts as CSV…').click!();
      for (let tries = 0; app.electron.dialogs.length < 2 && tries < 200; tries++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(modeOf(exported)).toBe(0o600);
    },
  );
});

describe('quitting', () => {
  /** A fetch that holds every write to the platform until released. */
  function heldFetch() {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const state = { held: 0, release };
    const held: typeof fetch = async (input, init) => {
      if (init?.method === 'POST') {
        state.held++;
        await gate;
      }
      return fetch(input, init);
    };
    return { fetch: held, state };
  }

  async function untilHeld(state: { held: number }): Promise<void> {
    for (let tries = 0; state.held === 0 && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.held).toBeGreaterThan(0);
  }

  it('waits for requests in flight to settle, then closes the database and quits', async () => {
    const { fetch: slow, state } = heldFetch();
    const app = await startApp({ fetch: slow });
    const added = await app.call('addPost', {
      text: 'Going out as we quit',
      mode: 'publish_now',
      botId: await aBot(app.platform),
    });
    const post = (added as { value: LocalPost }).value;
    const publishing = app.call('publishDue', {});
    await untilHeld(state);

    const asked = app.electron.requestQuit();
    expect(asked.prevented).toBe(true); // held until the queue has settled
    const db = app.shell.session.current.store.db;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(db.open).toBe(true);
    // A call arriving while quitting is refused rather than racing the close.
    expect(await app.call('listPosts', {})).toMatchObject({
      ok: false,
      error: { message: 'Pressroom is quitting' },
    });

    state.release();
    await app.quit();
    expect(await publishing).toMatchObject({ ok: true, value: { published: 1 } });
    expect(db.open).toBe(false);
    expect(app.electron.quitCalls).toBe(1); // quit again once closed, and this time not held
    expect(app.electron.trays[0]!.destroyed).toBe(true);
    const reopened = openWorkspaceDb(join(app.folder, 'demo-workspace.sqlite'));
    expect(reopened.prepare('SELECT status FROM posts WHERE id = ?').get(post.id)).toEqual({
      status: 'published',
    });
    reopened.close();
  });

  it('gives up waiting after its time limit, and still closes', async () => {
    const { fetch: stuck, state } = heldFetch();
    const app = await startApp({ fetch: stuck, quitTimeoutMs: 200 });
    await app.call('addPost', {
      text: 'Never answered',
      mode: 'publish_now',
      botId: await aBot(app.platform),
    });
    void app.call('publishDue', {});
    await untilHeld(state);
    await app.quit();
    expect(app.shell.session.current.store.db.open).toBe(false);
    expect(app.logText()).toMatch(/requests still in flight after 200 ms/);
  });
});

describe('desktop integration', () => {
  it('takes the single-instance lock; a second instance quits, the first shows its window', async () => {
    const second = fakeElectron({ secondInstance: true });
    const shell = await startShell({
      electron: second,
      preload: 'p',
      rendererDir: 'r',
      trayIcon: 't',
    });
    expect(shell).toBeNull();
    expect(second.quitCalls).toBe(1);
    expect(second.windows).toHaveLength(0);

    const app = await startApp();
    app.window.hide();
    app.electron.appEvents.emit('second-instance');
    expect(app.window.visible).toBe(true);
  });

  it('keeps running with no window on macOS, and quits elsewhere', async () => {
    const mac = await startApp({ platform: 'darwin' });
    mac.window.close();
    mac.electron.appEvents.emit('window-all-closed');
    expect(mac.electron.quitCalls).toBe(0);
    expect(mac.shell.window()).toBeNull();
    // The dock icon brings a new window back.
    mac.electron.appEvents.emit('activate');
    expect(mac.electron.windows).toHaveLength(2);
    expect(mac.shell.window()).toBe(mac.electron.windows[1]);

    const linux = await startApp({ platform: 'linux', testPlatform: mac.platform });
    linux.window.close();
    linux.electron.appEvents.emit('window-all-closed');
    await linux.shell.closed;
    // Once on the last window closing, once more when the queue has drained.
    expect(linux.electron.quitCalls).toBe(2);
  });

  it('has a menu with the usual shortcuts, opening the screens', async () => {
    const app = await startApp({ platform: 'darwin' });
    const menu = app.electron.appMenu;
    expect(menuItem(menu, 'New Post').accelerator).toBe('CmdOrCtrl+N');
    expect(menuItem(menu, 'Import CSV…').accelerator).toBe('CmdOrCtrl+O');
    expect(menuItem(menu, 'Calendar').accelerator).toBe('CmdOrCtrl+1');
    expect(menuItem(menu, 'Catalog').accelerator).toBe('CmdOrCtrl+2');
    expect(menuItem(menu, 'Queue').accelerator).toBe('CmdOrCtrl+3');
    expect(menuItem(menu, 'Settings…').accelerator).toBe('CmdOrCtrl+,');
    expect(menu?.map((item) => item.label ?? item.role)).toEqual([
      'Pressroom',
      'File',
      'editMenu',
      'View',
      'windowMenu',
    ]);
    menuItem(menu, 'Queue').click!();
    menuItem(menu, 'Settings…').click!();
    expect(app.window.loaded.slice(1)).toEqual([`${APP_URL}#/queue`, `${APP_URL}#/settings`]);
  });

  it('shows the queue in the tray, with Pause and Resume', async () => {
    const app = await startApp();
    const tray = app.electron.trays[0]!;
    expect(tray.tooltip).toBe('Pressroom: running, 0 waiting');
    menuItem(tray.menu, 'Pause Queue').click!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(call(app.shell.session.current, 'status').paused).toBe('Paused by you');
    expect(tray.tooltip).toBe('Pressroom: paused (Paused by you), 0 waiting');
    menuItem(tray.menu, 'Resume Queue').click!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(call(app.shell.session.current, 'status').paused).toBeNull();
  });

  it('notifies when a post is published', async () => {
    const app = await startApp();
    await app.call('addPost', {
      text: 'Fresh bread at 7',
      mode: 'publish_now',
      botId: await aBot(app.platform),
    });
    expect(await app.call('publishDue', {})).toMatchObject({ ok: true, value: { published: 1 } });
    expect(app.electron.notifications).toEqual([
      { title: 'Published', body: 'Post “Fresh bread at 7” is live.' },
    ]);
  });

  it('takes a script’s navigation to a file: URL for nothing: stopped, not imported', async () => {
    const app = await startApp();
    const file = join(app.folder, 'customers.csv');
    writeFileSync(file, 'text\nAnna, anna@example.com\n');
    app.electron.answers.push(0); // "Posts", were it asked
    expect(app.window.webContents.navigate(pathToFileURL(file).href)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(app.electron.dialogs).toEqual([]);
    expect(call(app.shell.session.current, 'listPosts')).toEqual([]);
  });

  it('notifies a failed post in plain words, and a click opens that post', async () => {
    const app = await startApp();
    const added = await app.call('addPost', {
      text: 'Pop-up stand opens',
      mode: 'publish_now',
      botId: 'bot_gone',
    });
    expect(added.ok).toBe(true);
    const postId = (added as { value: LocalPost }).value.id;
    expect(await app.call('publishDue', {})).toMatchObject({ ok: true, value: { failed: 1 } });
    expect(app.electron.notifications).toEqual([
      {
        title: 'Publishing failed',
        body: 'Post “Pop-up stand opens”: The bot this post was for no longer exists on the platform. Pick another bot and publish again.',
      },
    ]);
    app.electron.clickNotification(0);
    expect(app.window.loaded.at(-1)).toBe(`${APP_URL}#/calendar/post/${postId}`);
  });

  it('imports a CSV file dropped on the page, asking what it holds', async () => {
    const app = await startApp();
    const file = join(app.folder, 'week.csv');
    writeFileSync(file, 'text\nMonday special\nTuesday special\n');
    const drop = app.electron.handlers.get(DROPPED_FILE_CHANNEL)!;
    // From another webContents, not a path, a relative path, not a CSV file: nothing is asked.
    const foreign = { sender: { id: app.window.webContents.id + 1 }, senderFrame: null };
    await drop(foreign, file);
    await drop(fromPage(app.window), { path: file });
    await drop(fromPage(app.window), 'week.csv');
    await drop(fromPage(app.window), join(app.folder, 'photo.png'));
    await drop(fromPage(app.window), file, 'a second payload');
    expect(app.logText()).toMatch(/refused a dropped file from a foreign sender/);
    expect(app.electron.dialogs).toEqual([]);
    app.electron.answers.push(0); // "Posts"
    await drop(fromPage(app.window), file);
    for (let tries = 0; app.electron.dialogs.length < 2 && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(app.electron.dialogs.map((dialog) => dialog.options)).toMatchObject([
      { message: 'Import week.csv as…', buttons: ['Posts', 'Products', 'Cancel'] },
      { message: 'Imported posts: 2 new, 0 updated, 0 unchanged.' },
    ]);
    expect(call(app.shell.session.current, 'listPosts').map((post) => post.text)).toEqual([
      'Monday special',
      'Tuesday special',
    ]);
  });

  it('sets the media host from the page: the folder from the native dialog, never a path the page sends', async () => {
    const app = await startApp();
    const folder = join(app.folder, 'web-space');
    app.electron.answers.push([folder]);
    expect(
      await app.call('chooseMediaFolder', { publicBaseUrl: 'https://shop.example/media/' }),
    ).toEqual({ ok: true, value: { folder, publicBaseUrl: 'https://shop.example/media/' } });
    expect(app.electron.dialogs.map((dialog) => dialog.options)).toEqual([
      {
        title: 'The folder your web space serves pictures from',
        properties: ['openDirectory', 'createDirectory'],
      },
    ]);
    // The page has no way to name the folder itself.
    expect(
      await app.call('chooseMediaFolder', { publicBaseUrl: 'https://x.example/', folder: '/etc' }),
    ).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(
      await app.call('setMediaHost', {
        host: { folder: '/etc', publicBaseUrl: 'https://x.example/' },
      }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'not_allowed' },
    });
    expect(call(app.shell.session.current, 'getMediaHost')?.folder).toBe(folder);
  });

  it('exports through a save dialog', async () => {
    const app = await startApp();
    await app.call('addPost', { text: 'Exported', mode: 'draft' });
    const target = join(app.folder, 'out.csv');
    app.electron.answers.push(target);
    menuItem(app.electron.appMenu, 'Export Posts as CSV…').click!();
    for (let tries = 0; app.electron.dialogs.length < 2 && tries < 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(readFileSync(target, 'utf8')).toContain('Exported');
    expect(app.electron.dialogs[1]!.options).toMatchObject({
      message: `Exported 1 posts to ${target}.`,
    });
  });

  it('restores a damaged database from its newest backup at start-up, and says so', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-app-'));
    const first = await startApp({ folder });
    await first.call('addPost', { text: 'Saved before the damage', mode: 'draft' });
    const file = join(folder, 'demo-workspace.sqlite');
    backupDatabase(file, 'daily', { dir: join(folder, 'backups') });
    await first.quit();
    writeFileSync(file, Buffer.alloc(8192, 9));

    const second = await startApp({ folder, testPlatform: first.platform });
    expect(call(second.shell.session.current, 'listPosts').map((post) => post.text)).toEqual([
      'Saved before the damage',
    ]);
    expect(second.electron.dialogs[0]!.options).toMatchObject({
      type: 'error',
      message: 'Pressroom found a damaged database',
      detail: expect.stringMatching(/was damaged .* restored from the backup/),
    });
    expect(second.logText()).toMatch(/was damaged/);
  });
});
