// Auto-update (Electron main process) through electron-updater, inert until releases have a
// publish target: electron-builder writes app-update.yml into the app's resources only when
// electron-builder.yml names one (see docs/desktop.md), so without it nothing is checked.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { autoUpdater as ElectronAutoUpdater } from 'electron-updater';
import type { Log } from './log';

/** The part of electron-updater's autoUpdater used here. */
export interface Updater {
  logger: Pick<Log, 'info' | 'warn' | 'error'> | null;
  checkForUpdatesAndNotify(): Promise<unknown>;
}

export interface UpdateOptions {
  /** process.resourcesPath of the packaged app; null when running from source. */
  resourcesPath: string | null;
  log: Log;
  /** Loads electron-updater only when it will be used (it reads Electron's app at load). */
  load?: () => Updater;
}

function loadElectronUpdater(): Updater {
  const loaded = createRequire(import.meta.url)('electron-updater') as {
    autoUpdater: typeof ElectronAutoUpdater;
  };
  return loaded.autoUpdater;
}

/** Returns whether a check was started. */
export function checkForUpdates(options: UpdateOptions): boolean {
  const { resourcesPath, log, load = loadElectronUpdater } = options;
  if (!resourcesPath || !existsSync(join(resourcesPath, 'app-update.yml'))) {
    log.info('Updates: no publish target configured, so no update check');
    return false;
  }
  const updater = load();
  updater.logger = log;
  updater
    .checkForUpdatesAndNotify()
    .catch((error: unknown) => log.warn('Updates: check failed', error));
  return true;
}
