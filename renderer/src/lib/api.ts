// The contract client (browser): one typed proxy over the core's operations, and its event
// stream. Components and state modules call `api.listPosts(...)`; only the transport knows
// whether the core sits behind Electron's preload or the web host.
import type {
  OperationInput,
  OperationName,
  RendererOperationName,
} from '../../../shared/contract';
import type { CallResult, OperationResults } from '../../../shared/answers';
import type { Transport } from '../../../shared/transport';

export type { Transport } from '../../../shared/transport';

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
