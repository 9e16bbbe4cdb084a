// Errors the core answers with (Node, main process): what was wrong, field by field, in words a
// user can act on. They cross IPC, HTTP and the CLI unchanged.
import type { CallError } from '../../shared/answers';
import type { DuplicateConflict } from '../../shared/domain';
import { summarizeIssues, type FieldIssue } from '../../shared/issues';

export class InvalidInput extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(summarizeIssues(issues));
  }
}

export class NotAllowed extends Error {}

export class NotConnected extends Error {
  constructor() {
    super(
      'No platform account is set: give --api-base and --token (or PRESSROOM_API_BASE and PRESSROOM_API_TOKEN)',
    );
  }
}

/** A text that repeats another post of the same bot within the window; the caller may insist. */
export class DuplicateContent extends Error {
  constructor(
    message: string,
    readonly conflict: DuplicateConflict,
  ) {
    super(message);
  }
}

/**
 * An operation that failed through `call` (main/core/operations.ts), for the CLI and tests: it
 * carries the CallError `invoke` would answer a page, and the error thrown as its `cause`.
 */
export class OperationFailed extends Error {
  constructor(
    readonly error: CallError,
    options?: ErrorOptions,
  ) {
    super(error.message, options);
  }
}
