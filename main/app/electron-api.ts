// The part of Electron the desktop shell uses (Electron main process), as plain interfaces. The
// shell takes one of these instead of importing `electron`, so tests drive it with a recording
// fake; main.ts hands it the real module, and the compiler checks that Electron fits.

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Security settings of the one window; shell.ts sets them and tests read them back. */
export interface SecureWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  navigateOnDragDrop: false;
  spellcheck: boolean;
}

export interface WindowOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  icon?: string;
  backgroundColor: string;
  webPreferences: SecureWebPreferences;
}

export interface WebFrame {
  url: string;
  /** Null for a page's main frame; the frame that embeds it otherwise. */
  parent: WebFrame | null;
}

export interface IpcEvent {
  sender: { id: number };
  senderFrame: WebFrame | null;
}

export interface WillNavigateEvent {
  preventDefault(): void;
}

export interface WebContents {
  id: number;
  send(channel: string, ...args: unknown[]): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate', listener: (event: WillNavigateEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: WillNavigateEvent) => void): unknown;
}

export interface ShellWindow {
  webContents: WebContents;
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  isMaximized(): boolean;
  maximize(): void;
  getNormalBounds(): Rectangle;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'close' | 'closed', listener: () => void): unknown;
}

export interface MenuItemOptions {
  label?: string;
  role?:
    | 'appMenu'
    | 'fileMenu'
    | 'editMenu'
    | 'viewMenu'
    | 'windowMenu'
    | 'quit'
    | 'close'
    | 'reload'
    | 'toggleDevTools'
    | 'togglefullscreen'
    | 'about';
  accelerator?: string;
  type?: 'normal' | 'separator' | 'submenu';
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemOptions[];
}

export type Menu = object;

export interface Tray {
  setToolTip(text: string): void;
  setContextMenu(menu: Menu | null): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface NotificationOptions {
  title: string;
  body: string;
}

export interface Notification {
  show(): void;
  on(event: 'click', listener: () => void): unknown;
}

export interface OpenDialogOptions {
  title: string;
  properties: ('openFile' | 'openDirectory' | 'createDirectory' | 'multiSelections')[];
  filters?: { name: string; extensions: string[] }[];
}

export interface SaveDialogOptions {
  title: string;
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
}

export interface MessageBoxOptions {
  type: 'none' | 'info' | 'error' | 'question' | 'warning';
  message: string;
  detail?: string;
  buttons: string[];
  defaultId?: number;
  cancelId?: number;
}

export interface CustomScheme {
  scheme: string;
  privileges: {
    standard: boolean;
    secure: boolean;
    supportFetchAPI: boolean;
    corsEnabled: boolean;
    stream: boolean;
  };
}

/** What our own `app://` protocol answers for each request of the window. */
export type ProtocolHandler = (request: Request) => Response | Promise<Response>;

export interface PermissionHandlerTarget {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  /** Synchronous checks (navigator.permissions.query, some APIs before they ask). */
  setPermissionCheckHandler(
    handler: (contents: unknown, permission: string, origin: string) => boolean,
  ): void;
  /** WebUSB, WebHID, Web Serial and the like: which devices a page may open. */
  setDevicePermissionHandler(
    handler: (details: { deviceType: string; origin: string }) => boolean,
  ): void;
}

export interface ElectronApi {
  app: {
    readonly isPackaged: boolean;
    getPath(name: 'documents'): string;
    setPath(name: 'userData', path: string): void;
    setName(name: string): void;
    getVersion(): string;
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<void>;
    quit(): void;
    exit(code?: number): void;
    setAppUserModelId(id: string): void;
    on(event: 'second-instance' | 'activate' | 'window-all-closed', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  };
  BrowserWindow: new (options: WindowOptions) => ShellWindow;
  ipcMain: {
    handle(
      channel: string,
      listener: (event: IpcEvent, ...args: unknown[]) => Promise<unknown>,
    ): void;
  };
  safeStorage: {
    isEncryptionAvailable(): boolean;
    encryptString(plainText: string): Buffer;
    decryptString(encrypted: Buffer): string;
    /** Linux only: "basic_text" means no keyring, so the "encryption" is a hard-coded key. */
    getSelectedStorageBackend?(): string;
  };
  Menu: {
    buildFromTemplate(template: MenuItemOptions[]): Menu;
    setApplicationMenu(menu: Menu | null): void;
  };
  Tray: new (icon: string) => Tray;
  Notification: {
    new (options: NotificationOptions): Notification;
    isSupported(): boolean;
  };
  dialog: {
    // The window-less forms: Electron's window parameter is its whole BaseWindow class.
    showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
    showSaveDialog(options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
    showMessageBox(options: MessageBoxOptions): Promise<{ response: number }>;
    showErrorBox(title: string, content: string): void;
  };
  shell: { openExternal(url: string): Promise<void> };
  protocol: {
    registerSchemesAsPrivileged(schemes: CustomScheme[]): void;
    handle(scheme: string, handler: ProtocolHandler): void;
  };
  session: { defaultSession: PermissionHandlerTarget };
  screen: { getAllDisplays(): { workArea: Rectangle }[] };
}
