// A recording stand-in for Electron (Node, tests only): implements the shell's ElectronApi and
// keeps what the shell did — windows and their options, IPC handlers, menus, tray, notifications,
// dialogs — so tests can look, and drive the app by emitting Electron's events.
import type {
  CustomScheme,
  ElectronApi,
  IpcEvent,
  MenuItemOptions,
  MessageBoxOptions,
  NotificationOptions,
  OpenDialogOptions,
  ProtocolHandler,
  Rectangle,
  SaveDialogOptions,
  WindowOptions,
} from '../../main/app/electron-api';

type Listener = (...args: never[]) => unknown;

/** Keeps listeners by event name and calls them, as Node's EventEmitter would. */
class Emitter {
  private readonly listeners = new Map<string, Listener[]>();

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }

  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? [])
      (listener as (...a: unknown[]) => unknown)(...args);
  }
}

export interface FakeEvent {
  prevented: boolean;
  preventDefault(): void;
}

export function fakeEvent(): FakeEvent {
  return {
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
  };
}

let nextContentsId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextContentsId++;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }

  /** What the shell does when the page (or a drop) navigates to `url`: true if it was stopped. */
  navigate(url: string): boolean {
    const event = fakeEvent();
    this.emit('will-navigate', event, url);
    return event.prevented;
  }
}

export class FakeWindow extends Emitter {
  static created: FakeWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  visible = false;
  destroyed = false;
  maximized = false;
  bounds: Rectangle;

  constructor(readonly options: WindowOptions) {
    super();
    this.bounds = {
      x: options.x ?? 0,
      y: options.y ?? 0,
      width: options.width,
      height: options.height,
    };
    FakeWindow.created.push(this);
  }

  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {}
  restore(): void {}
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  getNormalBounds(): Rectangle {
    return this.bounds;
  }

  /** The user closes the window. */
  close(): void {
    this.emit('close');
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeTray extends Emitter {
  tooltip = '';
  menu: MenuItemOptions[] = [];
  destroyed = false;

  constructor(readonly icon: string) {
    super();
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: object | null): void {
    this.menu = (menu as { template?: MenuItemOptions[] } | null)?.template ?? [];
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/** Reversible, but not the plain text: enough to show the token went through safeStorage. */
function scramble(bytes: Buffer): Buffer {
  return Buffer.from(bytes.map((byte) => byte ^ 0x5a));
}

export interface FakeElectron extends ElectronApi {
  appEvents: Emitter;
  handlers: Map<string, (event: IpcEvent, ...args: unknown[]) => Promise<unknown>>;
  windows: FakeWindow[];
  trays: FakeTray[];
  notifications: NotificationOptions[];
  /** Clicks the notification shown at `index`, as the user would. */
  clickNotification(index: number): void;
  appMenu: MenuItemOptions[] | null;
  opened: string[];
  schemes: CustomScheme[];
  protocols: Map<string, ProtocolHandler>;
  permissionHandler:
    ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null;
  permissionCheck: ((contents: unknown, permission: string, origin: string) => boolean) | null;
  devicePermission: ((details: { deviceType: string; origin: string }) => boolean) | null;
  dialogs: { kind: string; options: OpenDialogOptions | SaveDialogOptions | MessageBoxOptions }[];
  /** Answers for the next dialogs, in order: file paths for open/save, a button for a message. */
  answers: (string[] | string | number)[];
  encrypted: string[];
  quitCalls: number;
  exited: number | null;
  names: { name?: string; userData?: string };
  /** The user (or the OS) asks to quit: before-quit listeners may hold it. */
  requestQuit(): FakeEvent;
}

export interface FakeOptions {
  /** Another instance holds the lock. */
  secondInstance?: boolean;
  encryption?: boolean;
  documents?: string;
}

export function fakeElectron(options: FakeOptions = {}): FakeElectron {
  const appEvents = new Emitter();
  FakeWindow.created = [];
  const clicks: (() => void)[][] = [];
  const fake: FakeElectron = {
    appEvents,
    handlers: new Map(),
    windows: FakeWindow.created,
    trays: [],
    notifications: [],
    clickNotification: (index) => {
      const listeners = clicks[index];
      if (!listeners) throw new Error(`no notification ${index}`);
      for (const listener of listeners) listener();
    },
    appMenu: null,
    opened: [],
    schemes: [],
    protocols: new Map(),
    permissionHandler: null,
    permissionCheck: null,
    devicePermission: null,
    dialogs: [],
    answers: [],
    encrypted: [],
    quitCalls: 0,
    exited: null,
    names: {},
    requestQuit() {
      const event = fakeEvent();
      appEvents.emit('before-quit', event);
      return event;
    },
    app: {
      isPackaged: false,
      getPath: () => options.documents ?? '/tmp',
      setPath: (_name, path) => void (fake.names.userData = path),
      setName: (name) => void (fake.names.name = name),
      getVersion: () => '0.1.0-test',
      requestSingleInstanceLock: () => !options.secondInstance,
      whenReady: async () => undefined,
      quit: () => {
        fake.quitCalls++;
        fake.requestQuit();
      },
      exit: (code = 0) => void (fake.exited = code),
      setAppUserModelId: () => undefined,
      on: (event: string, listener: Listener) => appEvents.on(event, listener),
    },
    BrowserWindow: FakeWindow,
    ipcMain: {
      handle(channel, listener) {
        // Electron refuses a second handler for a channel; so does the fake.
        if (fake.handlers.has(channel))
          throw new Error(`Attempted to register a second handler for '${channel}'`);
        fake.handlers.set(channel, listener);
      },
    },
    safeStorage: {
      isEncryptionAvailable: () => options.encryption !== false,
      encryptString(plainText) {
        fake.encrypted.push(plainText);
        return scramble(Buffer.from(`sealed:${plainText}`));
      },
      decryptString: (encrypted) =>
        scramble(encrypted)
          .toString()
          .replace(/^sealed:/, ''),
    },
    Menu: {
      buildFromTemplate: (template) => ({ template }),
      setApplicationMenu: (menu) =>
        void (fake.appMenu = (menu as { template: MenuItemOptions[] } | null)?.template ?? null),
    },
    Tray: class extends FakeTray {
      constructor(icon: string) {
        super(icon);
        fake.trays.push(this);
      }
    },
    Notification: Object.assign(
      class {
        private readonly clicks: (() => void)[] = [];
        constructor(private readonly note: NotificationOptions) {}
        on(_event: 'click', listener: () => void): void {
          this.clicks.push(listener);
        }
        show(): void {
          fake.notifications.push(this.note);
          clicks.push(this.clicks);
        }
      },
      { isSupported: () => true },
    ),
    dialog: {
      async showOpenDialog(dialogOptions) {
        fake.dialogs.push({ kind: 'open', options: dialogOptions });
        const answer = fake.answers.shift();
        return { canceled: !Array.isArray(answer), filePaths: Array.isArray(answer) ? answer : [] };
      },
      async showSaveDialog(dialogOptions) {
        fake.dialogs.push({ kind: 'save', options: dialogOptions });
        const answer = fake.answers.shift();
        return typeof answer === 'string'
          ? { canceled: false, filePath: answer }
          : { canceled: true };
      },
      async showMessageBox(dialogOptions) {
        fake.dialogs.push({ kind: 'message', options: dialogOptions });
        const answer = fake.answers.shift();
        return { response: typeof answer === 'number' ? answer : 0 };
      },
      showErrorBox: (title, content) =>
        void fake.dialogs.push({
          kind: 'error',
          options: { type: 'error', message: title, detail: content, buttons: [] },
        }),
    },
    shell: { openExternal: async (url) => void fake.opened.push(url) },
    protocol: {
      registerSchemesAsPrivileged: (schemes) => void fake.schemes.push(...schemes),
      handle: (scheme, handler) => void fake.protocols.set(scheme, handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => void (fake.permissionHandler = handler),
        setPermissionCheckHandler: (handler) => void (fake.permissionCheck = handler),
        setDevicePermissionHandler: (handler) => void (fake.devicePermission = handler),
      },
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  };
  return fake;
}

function findMenuItem(menu: MenuItemOptions[], label: string): MenuItemOptions | null {
  for (const item of menu) {
    const found = item.label === label ? item : findMenuItem(item.submenu ?? [], label);
    if (found) return found;
  }
  return null;
}

/** Finds a menu item by its label, anywhere in a menu template. */
export function menuItem(menu: MenuItemOptions[] | null, label: string): MenuItemOptions {
  const found = findMenuItem(menu ?? [], label);
  if (!found) throw new Error(`No menu item "${label}"`);
  return found;
}
