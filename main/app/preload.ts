// The preload (Electron's sandboxed renderer, before the page): exposes `window.pressroom`, the
// renderer's Transport (renderer/src/lib/transport.ts picks it up), and nothing else — no
// ipcRenderer, no Node. Bundled on its own by build.ts, so it imports only what a sandboxed
// preload may: `electron` and pure modules.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { OperationName } from '../../shared/contract';
import type { CallResult, CoreEvent } from '../../shared/answers';
import type { Transport } from '../../shared/transport';
import { CALL_PREFIX, DROPPED_FILE_CHANNEL, EVENT_CHANNEL, UPLOAD_CHANNEL } from './channels';

const transport: Transport = {
  async call(operation: OperationName, input: unknown): Promise<CallResult> {
    try {
      return (await ipcRenderer.invoke(CALL_PREFIX + String(operation), input)) as CallResult;
    } catch {
      // The main process has no handler for that name: it is not in the contract.
      return {
        ok: false,
        error: {
          kind: 'unknown_operation',
          message: `There is no operation "${String(operation)}"`,
        },
      };
    }
  },
  async dropFile(file: File): Promise<void> {
    // Electron knows the path of a File the user dropped or picked, and of no other: a page's
    // script can hand over a File it made, never name a path of its own.
    const path = webUtils.getPathForFile(file);
    if (path) await ipcRenderer.invoke(DROPPED_FILE_CHANNEL, path);
  },
  async upload(fileName: string, bytes: ArrayBuffer) {
    return (await ipcRenderer.invoke(UPLOAD_CHANNEL, fileName, bytes)) as CallResult<{
      upload: string;
    }>;
  },
  events(listener: (event: CoreEvent) => void): () => void {
    // Only the event's data reaches the page, never Electron's event object (it holds `sender`).
    const forward = (_event: IpcRendererEvent, coreEvent: CoreEvent) => listener(coreEvent);
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('pressroom', transport);
