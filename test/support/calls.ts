// What `call` (main/core/operations.ts) threw, as the core's own error: an OperationFailed carries
// the CallError a page would get, and the error the core threw as its `cause`.
import { OperationFailed } from '../../main/core/errors';
import { rejectionOf } from './platform';

const coreError = (error: unknown) => (error instanceof OperationFailed ? error.cause : error);

/** The core's error a call threw synchronously, or a failure when it did not throw. */
export function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return coreError(error);
  }
  throw new Error('expected the call to throw');
}

/** The core's error a call's promise rejected with, or a failure when it resolved. */
export async function rejectedBy(work: Promise<unknown>): Promise<unknown> {
  return coreError(await rejectionOf(work));
}
