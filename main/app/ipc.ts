// The contract over IPC (Electron main process): one `ipcMain.handle` per contract operation.
// Each call must come from our own window's page and carry exactly one payload, which the core
// validates with the contract's schemas (core/operations.ts `invokeFromRenderer`, which also refuses
// main-only operations); anything else is refused, logged without its payload (it may hold a
// token), and answered as a CallResult, never a throw. One more channel takes the path of a file
// dropped on the page, which main checks and then asks the user about (files.ts).
import { isAbsolute } from 'node:path';
import type { OperationName } from '../../shared/contract';
import type { CallResult } from '../../shared/answers';
import { OPERATION_NAMES, invokeFromRenderer, receiveUpload } from '../core/operations';
import type { Session } from '../core/session';
import { CALL_PREFIX, DROPPED_FILE_CHANNEL, UPLOAD_CHANNEL, isAppUrl } from './channels';
import type { ElectronApi, IpcEvent, ShellWindow } from './electron-api';
import type { Log } from './log';
import type { InFlight } from './quit';

export interface IpcOptions {
  session: Session;
  /** The window whose page may call; null while it is closed (macOS keeps running). */
  window: () => ShellWindow | null;
  calls: InFlight;
  log: Log;
  /** False once quitting has begun: late calls are refused rather than racing the close. */
  accepting: () => boolean;
  /** A file the user dropped on the page: a local absolute path, not yet known to be CSV. */
  onFileDropped(path: string): void;
}

const MAX_PATH_LENGTH = 4096;

/**
 * A dropped file's path as the preload sends it: absolute, on this computer (not a \\server
 * share Windows would fetch over the network), of a sane length; null for anything else.
 */
function droppedPath(args: unknown[]): string | null {
  const [path] = args;
  if (args.length !== 1 || typeof path !== 'string') return null;
  const local =
    isAbsolute(path) &&
    !/^[\\/]{2}/.test(path) &&
    !path.includes('\0') &&
    path.length <= MAX_PATH_LENGTH;
  return local ? path : null;
}

function refusal(kind: 'not_allowed' | 'invalid_input', message: string): CallResult {
  return { ok: false, error: { kind, message } };
}

/** Our window's own page in its main frame, not a frame it might embed or another webContents. */
function fromOurWindow(event: IpcEvent, window: ShellWindow | null): boolean {
  return (
    window !== null &&
    !window.isDestroyed() &&
    event.sender.id === window.webContents.id &&
    event.senderFrame !== null &&
    event.senderFrame.parent === null &&
    isAppUrl(event.senderFrame.url)
  );
}

export function registerIpc(ipcMain: ElectronApi['ipcMain'], options: IpcOptions): void {
  const { session, calls, log } = options;
  const handle = async (
    operation: OperationName,
    event: IpcEvent,
    args: unknown[],
  ): Promise<CallResult> => {
    if (!fromOurWindow(event, options.window())) {
      log.warn(
        `IPC: refused ${operation} from a foreign sender (webContents ${event.sender.id}, ${event.senderFrame?.url ?? 'no frame'})`,
      );
      return refusal('not_allowed', 'Calls are only taken from the Pressroom window');
    }
    if (!options.accepting()) return refusal('not_allowed', 'Pressroom is quitting');
    if (args.length !== 1) {
      log.warn(`IPC: refused ${operation}: ${args.length} payloads instead of one`);
      return refusal('invalid_input', 'A call carries exactly one payload');
    }
    const result = await calls.track(invokeFromRenderer(session, operation, args[0]));
    if (
      !result.ok &&
      (result.error.kind === 'invalid_input' || result.error.kind === 'not_allowed')
    )
      log.warn(`IPC: refused ${operation}: ${result.error.message}`);
    return result;
  };
  for (const operation of OPERATION_NAMES)
    ipcMain.handle(CALL_PREFIX + operation, (event, ...args) => handle(operation, event, args));
  ipcMain.handle(DROPPED_FILE_CHANNEL, async (event, ...args) => {
    if (!fromOurWindow(event, options.window()))
      return log.warn(
        `IPC: refused a dropped file from a foreign sender (webContents ${event.sender.id})`,
      );
    const path = droppedPath(args);
    if (path === null) return log.warn('IPC: refused a dropped file that is not a local path');
    if (options.accepting()) options.onFileDropped(path);
  });
  // A file for an import: its bytes, written to a private file by the core (which refuses one
  // over MAX_UPLOAD_BYTES), so the page's calls never carry a file.
  ipcMain.handle(UPLOAD_CHANNEL, async (event, ...args) => {
    if (!fromOurWindow(event, options.window()))
      return refusal('not_allowed', 'Calls are only taken from the Pressroom window');
    if (!options.accepting()) return refusal('not_allowed', 'Pressroom is quitting');
    const [fileName, bytes] = args;
    if (args.length !== 2 || !(bytes instanceof ArrayBuffer || bytes instanceof Uint8Array))
      return refusal('invalid_input', 'An upload carries a file name and its bytes');
    const content = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
    return calls.track(receiveUpload(session, fileName, [content]));
  });
}
