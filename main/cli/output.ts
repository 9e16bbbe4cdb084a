// How every CLI command talks (Node, CLI): results on stdout (JSON with --json), progress and
// errors on stderr, and an exit code that says what went wrong.
import { InvalidInput, NotConnected, OperationFailed } from '../core/errors';

/** An error the user can act on: printed as one line, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface Output {
  json: boolean;
  /** The command's result: JSON on one line with --json, else the human text. */
  result(value: unknown, human: string): void;
  progress(message: string): void;
}

export function createOutput(
  json: boolean,
  stdout = process.stdout,
  stderr = process.stderr,
): Output {
  return {
    json,
    result(value, human) {
      stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
    },
    progress(message) {
      stderr.write(`${message}\n`);
    },
  };
}

/** One line naming the cause; never a stack trace for an expected failure. */
export function describeFailure(error: unknown): { message: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof InvalidInput || error instanceof NotConnected)
    return { message: error.message, exitCode: 2 };
  if (error instanceof OperationFailed) {
    const { kind, message } = error.error;
    // Unexpected: the thrown error says what, in one line, as for any other.
    if (kind === 'internal') return describeFailure(error.cause);
    // A refusal the user may overrule, not a mistake in the input.
    if (kind === 'duplicate')
      return { message: `${message}; add --allow-duplicate to go ahead`, exitCode: 1 };
    const usage = kind === 'invalid_input' || kind === 'not_connected' || kind === 'unusable_file';
    return { message, exitCode: usage ? 2 : 1 };
  }
  if (error instanceof Error)
    return { message: error.message.split('\n')[0] ?? 'failed', exitCode: 1 };
  return { message: String(error), exitCode: 1 };
}
