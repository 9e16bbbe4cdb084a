// The desktop shell (Electron main process): one window over the core, and the native parts of
// the app around it — single instance, menu, tray, notifications, dialogs, backups, the log and
// a clean quit. It takes Electron as an argument (ElectronApi) so tests can run it on a fake.
import { join } from 'node:path';
import type { CoreEvent } from '../../shared/answers';
import { userDataDir } from '../core/paths';
import { invoke } from '../core/operations';
import type { Session } from '../core/session';
import type { SessionOptions } from '../core/session';
import { openUserSession } from '../host/user-session';
import { backupBeforeMigration, backupDaily, recoverIfDamaged } from '../store/backup';
import { APP_URL, EVENT_CHANNEL } from './channels';
import { applicationMenu, notificationFor, trayMenu } from './desktop';
import type { NotificationSubject } from './desktop';
import { csvFiles } from './files';
import type { MenuScreen } from './desktop';
import type { ElectronApi, ShellWindow, Tray } from './electron-api';
import { registerIpc } from './ipc';
import { createLog } from './log';
import type { Log } from './log';
import { APP_SCHEME, rendererProtocol } from './protocol';
import { InFlight, drainAndClose } from './quit';
import { SafeStorageSecretStore } from './secrets';
import { createMainWindow } from './window';

export interface ShellOptions {
  electron: ElectronApi;
  platform?: NodeJS.Platform;
  /** The user-data folder (default: core/paths.ts's, shared with the CLI and web host). */
  folder?: string;
  /** The built preload script and renderer, and the icons (see build.ts for the layout). */
  preload: string;
  rendererDir: string;
  windowIcon?: string;
  trayIcon: string;
  /** Extra session settings (tests: no background queue, a fake platform). */
  session?: Pick<SessionOptions, 'demo' | 'watch' | 'pressroom' | 'allowLocalPlatform'>;
  /** How long quitting waits for requests in flight (default 10 s). */
  quitTimeoutMs?: number;
  /** Also write log lines here (the terminal in development). */
  echoLog?: (line: string) => void;
}

export interface DesktopShell {
  session: Session;
  log: Log;
  window(): ShellWindow | null;
  /** Resolves once quitting has drained and closed the workspace. */
  closed: Promise<void>;
}

/** Workspace databases in the user-data folder (see core/session.ts). */
const WORKSPACE_FILES = ['workspace.sqlite', 'demo-workspace.sqlite'];
const HOUR_MS = 60 * 60_000;
const TRAY_REFRESH_MS = 5_000;

const backupsOf = (folder: string) => ({ dir: join(folder, 'backups'), keep: 7 });

/** Backs up before migrations and restores damaged databases; returns messages for the user. */
function guardDatabases(folder: string, log: Log): string[] {
  const backups = backupsOf(folder);
  const messages: string[] = [];
  for (const name of WORKSPACE_FILES) {
    const file = join(folder, name);
    const recovery = recoverIfDamaged(file, backups);
    if (recovery.state !== 'ok') {
      log.error(recovery.message);
      messages.push(recovery.message);
    }
    const saved = backupBeforeMigration(file, backups) ?? backupDaily(file, backups);
    if (saved) log.info(`Backup: ${saved}`);
  }
  return messages;
}

/**
 * Starts the app; null when another instance already runs (it is focused instead). Call before
 * Electron is ready: the app:// scheme must be registered first.
 */
export async function startShell(options: ShellOptions): Promise<DesktopShell | null> {
  const { electron } = options;
  const { app, dialog } = electron;
  const platform = options.platform ?? process.platform;
  const folder = await claimInstance(options, platform);
  if (folder === null) return null;

  const secrets = new SafeStorageSecretStore(electron.safeStorage, folder);
  let demoToken: string | null = null;
  const log = createLog({
    file: join(folder, 'logs', 'main.log'),
    secrets: () => [secrets.known, demoToken],
    ...(options.echoLog ? { echo: options.echoLog } : {}),
  });
  log.info(`Pressroom ${app.getVersion()} starting in ${folder}`);
  const damaged = guardDatabases(folder, log);
  const { session } = await openUserSession({
    ...options.session,
    allowLocalPlatform: options.session?.allowLocalPlatform ?? false,
    folder,
    secrets: () => secrets,
    onDemoToken: (token) => (demoToken = token),
    ...nativeDialogs(dialog),
  });
  electron.protocol.handle(APP_SCHEME.scheme, rendererProtocol(options.rendererDir));
  refusePermissions(electron, log);

  let phase: 'running' | 'quitting' | 'closed' = 'running';
  const accepting = () => phase === 'running';
  const calls = new InFlight();
  const documents = app.getPath('documents');
  const files = csvFiles({ dialog, session, calls, log, documents, accepting });
  const windows = new WindowKeeper(electron, options, folder, log);
  registerIpc(electron.ipcMain, {
    session,
    window: () => windows.current,
    calls,
    log,
    accepting,
    onFileDropped: (path) => void files.importCsv(path),
  });
  const tray = startTray(electron, options.trayIcon, session, windows);
  const backupTimer = setInterval(() => guardDailyBackups(folder, log), HOUR_MS);
  const unsubscribe = forwardEvents(electron, session, windows, tray.refresh);
  setApplicationMenu(electron, windows, files, platform);
  const showWindow = () => windows.show();
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  // macOS apps live on with no window: the queue keeps publishing from the dock and tray.
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });

  let closedNow!: () => void;
  const closed = new Promise<void>((resolve) => (closedNow = resolve));
  app.on('before-quit', (event) => {
    if (phase === 'closed') return;
    event.preventDefault();
    if (phase === 'quitting') return;
    phase = 'quitting';
    unsubscribe();
    tray.stop();
    clearInterval(backupTimer);
    const timeoutMs = options.quitTimeoutMs ?? 10_000;
    void drainAndClose({ session, calls, log, timeoutMs }).finally(() => {
      tray.destroy();
      phase = 'closed';
      closedNow();
      app.quit();
    });
  });

  for (const detail of damaged)
    void dialog.showMessageBox({
      type: 'error',
      message: 'Pressroom found a damaged database',
      detail,
      buttons: ['OK'],
    });
  windows.open();
  return { session, log, window: () => windows.current, closed };
}

/**
 * Makes this the one running instance, on the shared user-data folder; null when another runs.
 * The CLI and the web host use the same folder (PRESSROOM_HOME overrides it), and a run from
 * source (`electron out/main/index.js`) would otherwise be named "Electron".
 */
async function claimInstance(
  options: ShellOptions,
  platform: NodeJS.Platform,
): Promise<string | null> {
  const { app, protocol } = options.electron;
  protocol.registerSchemesAsPrivileged([APP_SCHEME]);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const folder = options.folder ?? userDataDir();
  app.setName('Pressroom');
  app.setPath('userData', folder);
  await app.whenReady();
  if (platform === 'win32') app.setAppUserModelId('app.pressroom.desktop'); // notifications
  return folder;
}

/** The menu bar: screens, a new post, CSV import and export. */
function setApplicationMenu(
  electron: ElectronApi,
  windows: WindowKeeper,
  files: ReturnType<typeof csvFiles>,
  platform: NodeJS.Platform,
): void {
  const actions = {
    showScreen: (screen: MenuScreen) => windows.showScreen(screen),
    newPost: () => windows.showScreen('calendar/new'),
    importCsv: () => void files.importCsv(),
    exportCsv: (kind: 'posts' | 'products') => void files.exportCsv(kind),
  };
  const template = applicationMenu(actions, platform, electron.app.isPackaged);
  electron.Menu.setApplicationMenu(electron.Menu.buildFromTemplate(template));
}

/** The session's questions, asked with the native dialogs, outside the page. */
function nativeDialogs(
  dialog: ElectronApi['dialog'],
): Pick<SessionOptions, 'confirmAccountSwitch' | 'pickFolder'> {
  return {
    confirmAccountSwitch: async (from, to) => {
      const { response } = await dialog.showMessageBox({
        type: 'question',
        message: 'Switch Pressroom to another account?',
        detail: `Connected now: ${from}\nAsked for: ${to}\nThe connected account's token is forgotten on this computer.`,
        buttons: ['Switch account', 'Keep the connected one'],
        defaultId: 1,
        cancelId: 1,
      });
      return response === 0;
    },
    pickFolder: async (title) => {
      const properties: ('openDirectory' | 'createDirectory')[] = [
        'openDirectory',
        'createDirectory',
      ];
      return (await dialog.showOpenDialog({ title, properties })).filePaths[0] ?? null;
    },
  };
}

/** The page needs no camera, location, devices or the like: every request and check is refused. */
function refusePermissions(electron: ElectronApi, log: Log): void {
  const { defaultSession } = electron.session;
  defaultSession.setPermissionRequestHandler((_contents, permission, grant) => {
    log.warn(`Refused the page's request for the "${permission}" permission`);
    grant(false);
  });
  defaultSession.setPermissionCheckHandler(() => false);
  defaultSession.setDevicePermissionHandler(({ deviceType, origin }) => {
    log.warn(`Refused ${origin} access to a ${deviceType} device`);
    return false;
  });
}

/** The one main window: made when first needed, and again after it was closed. */
class WindowKeeper {
  current: ShellWindow | null = null;

  constructor(
    private readonly electron: ElectronApi,
    private readonly options: ShellOptions,
    private readonly folder: string,
    private readonly log: Log,
  ) {}

  open(): ShellWindow {
    if (this.current && !this.current.isDestroyed()) return this.current;
    const { preload, windowIcon } = this.options;
    const settings = { preload, folder: this.folder, ...(windowIcon ? { icon: windowIcon } : {}) };
    const created = createMainWindow(this.electron, settings, this.log);
    created.on('closed', () => {
      if (this.current === created) this.current = null;
    });
    this.current = created;
    return created;
  }

  show(): void {
    const shown = this.open();
    if (shown.isMinimized()) shown.restore();
    shown.show();
    shown.focus();
  }

  showScreen(screen: MenuScreen): void {
    void this.open().loadURL(`${APP_URL}#/${screen}`);
    this.show();
  }
}

/** Tray: the queue's state at a glance, and Pause/Resume without opening the window. */
function startTray(electron: ElectronApi, icon: string, session: Session, windows: WindowKeeper) {
  const tray: Tray = new electron.Tray(icon);
  const refresh = () => {
    const state = { status: session.current.queue.status(), connected: session.current.connected };
    const menu = trayMenu(state, {
      showWindow: () => windows.show(),
      pause: () => void invoke(session, 'pauseQueue', {}),
      resume: () => void invoke(session, 'resumeQueue', {}),
      quit: () => electron.app.quit(),
    });
    tray.setToolTip(String(menu[0]?.label));
    tray.setContextMenu(electron.Menu.buildFromTemplate(menu));
  };
  tray.on('click', () => windows.show());
  refresh();
  const timer = setInterval(refresh, TRAY_REFRESH_MS);
  return { refresh, stop: () => clearInterval(timer), destroy: () => tray.destroy() };
}

/** Every core event to the window, a native notification for those worth one. */
function forwardEvents(
  electron: ElectronApi,
  session: Session,
  windows: WindowKeeper,
  refreshTray: () => void,
): () => void {
  const notify = electron.Notification.isSupported();
  const wordsOf = (item: NotificationSubject): string | null => {
    const { store } = session.current;
    if (item.postId !== null) return store.posts.get(item.postId)?.text ?? null;
    return item.productId !== null ? (store.products.get(item.productId)?.name ?? null) : null;
  };
  return session.subscribe((event: CoreEvent) => {
    const window = windows.current;
    if (window && !window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event);
    const note = notify ? notificationFor(event, wordsOf) : null;
    if (note) {
      const shown = new electron.Notification(note.options);
      shown.on('click', () => windows.showScreen(note.opens));
      shown.show();
    }
    if (event.type !== 'import' && event.type !== 'received') refreshTray();
  });
}

function guardDailyBackups(folder: string, log: Log): void {
  for (const name of WORKSPACE_FILES) {
    try {
      const saved = backupDaily(join(folder, name), backupsOf(folder));
      if (saved) log.info(`Backup: ${saved}`);
    } catch (error) {
      log.error(`Backup of ${name} failed:`, error);
    }
  }
}
