// The one application window (Electron main process): sandboxed, context-isolated, no Node in
// the page, no navigation away from our own pages, no new windows (web links open in the system
// browser), and its size and position remembered between runs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { APP_URL, isAppUrl } from './channels';
import type { ElectronApi, Rectangle, SecureWebPreferences, ShellWindow } from './electron-api';
import type { Log } from './log';

export interface WindowPlaces {
  preload: string;
  icon?: string;
  /** The user-data folder; window.json lives there. */
  folder: string;
}

function secureWebPreferences(preload: string): SecureWebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    // A file dropped on the window reaches main only through the page's own drop event
    // (preload.ts dropFile); a file: navigation, which a script can start too, is never one.
    navigateOnDragDrop: false,
    spellcheck: true,
  };
}

const boundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400),
  height: z.number().int().min(300),
  maximized: z.boolean().default(false),
});
type SavedBounds = z.infer<typeof boundsSchema>;

const DEFAULT_SIZE = { width: 1280, height: 820 };

/** The saved bounds when they still overlap a display (a monitor may have been unplugged). */
function readBounds(
  folder: string,
  displays: readonly { workArea: Rectangle }[],
): SavedBounds | null {
  const file = join(folder, 'window.json');
  if (!existsSync(file)) return null;
  try {
    const parsed = boundsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return null;
    const b = parsed.data;
    const visible = displays.some(
      ({ workArea: a }) =>
        b.x + 100 <= a.x + a.width &&
        b.x + b.width - 100 >= a.x &&
        b.y >= a.y &&
        b.y + 50 <= a.y + a.height,
    );
    return visible ? b : null;
  } catch {
    return null;
  }
}

function saveBounds(folder: string, window: ShellWindow): void {
  const saved: SavedBounds = { ...window.getNormalBounds(), maximized: window.isMaximized() };
  writeFileSync(join(folder, 'window.json'), JSON.stringify(saved));
}

function isWebLink(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

export function createMainWindow(
  electron: ElectronApi,
  places: WindowPlaces,
  log: Log,
): ShellWindow {
  const saved = readBounds(places.folder, electron.screen.getAllDisplays());
  const window = new electron.BrowserWindow({
    ...(saved
      ? { x: saved.x, y: saved.y, width: saved.width, height: saved.height }
      : DEFAULT_SIZE),
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Pressroom',
    ...(places.icon ? { icon: places.icon } : {}),
    backgroundColor: '#1b1d21',
    webPreferences: secureWebPreferences(places.preload),
  });
  if (saved?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => saveBounds(places.folder, window));

  const contents = window.webContents;
  const openOutside = (url: string) => {
    if (isWebLink(url)) void electron.shell.openExternal(url);
    else log.warn(`Blocked a link to ${url}`);
  };
  // Our page moves between screens by its fragment; anything else leaves the app.
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    openOutside(url);
  });
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  void window.loadURL(APP_URL);
  return window;
}
