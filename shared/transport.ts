// How the page's calls and events travel (any process): the interface Electron's preload bridge
// (main/app/preload.ts) and the web host's HTTP client (renderer/src/lib/transport.ts) both
// implement, so the preload names it without reaching into renderer/.
import type { OperationName } from './contract';
import type { CallResult, CoreEvent } from './answers';

/** How calls and events travel: Electron's preload bridge, or HTTP to the web host. */
export interface Transport {
  call(operation: OperationName, input: unknown): Promise<CallResult>;
  /**
   * Sends a file for an import to the core, which keeps it privately (never in a call: a big
   * file would be held several times over as JSON); answers the id importUpload takes.
   */
  upload(fileName: string, bytes: ArrayBuffer): Promise<CallResult<{ upload: string }>>;
  events(listener: (event: CoreEvent) => void): () => void;
  /**
   * A file dropped on the page outside its drop zones (Electron only): main asks what it holds
   * and imports it, as File → Import CSV… does.
   */
  dropFile?(file: File): Promise<void>;
}
