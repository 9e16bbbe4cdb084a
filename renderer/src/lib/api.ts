// The contract client (browser): one typed proxy over the core's operations, and its event
// stream. Components and state modules call `api.listPosts(...)`; only the transport knows
// whether the core sits behind Electron's preload or the web host.
import type {
  OperationInput,
  OperationName,
  RendererOperationName,
} from '../../../shared/contract';
import type { CallResult, CoreEvent, OperationResults } from '../../../shared/answers';

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

/** Only the operations a page may call: main-only ones (OPERATION_SIDES) do not type-check. */
export type Api = {
  [K in RendererOperationName]: (
    input?: OperationInput<K>,
  ) => Promise<CallResult<OperationResults[K]>>;
};

export function createApi(transport: Transport): Api {
  return new Proxy({} as Api, {
    get: (_target, operation) => (input?: unknown) =>
      transport.call(operation as OperationName, input ?? {}),
  });
}

/** The value of a call, or a thrown CallFailure carrying the core's error for the UI to show. */
export class CallFailure extends Error {
  constructor(readonly error: Extract<CallResult, { ok: false }>['error']) {
    super(error.message);
  }
}

export function unwrap<T>(result: CallResult<T>): T {
  if (!result.ok) throw new CallFailure(result.error);
  return result.value;
}
