// The core as a service (Node, main process): one `invoke(operation, input)` that Electron's IPC
// and the web host both call with whatever a renderer sent. The operation must be in the contract,
// the input is validated by the core, and the answer is always a CallResult, never a throw.
import type { CallErrorKind, CallResult, Issue, Operations } from '../../shared/contract';
import { operations } from '../../shared/contract';
import { describeIssues, summarizeIssues } from '../../shared/validation';
import { UnusableFile } from '../csv/read';
import { PlatformError } from '../platform/errors';
import { InvalidInput, NotAllowed, NotConnected } from './errors';
import type { Pressroom } from './pressroom';

type Handlers = { [K in keyof Operations]: (pressroom: Pressroom, input: never) => unknown };

const handlers: Handlers = {
  addPost: (p, input) => p.addPost(input),
  updatePost: (p, input) => p.updatePost(input),
  queuePost: (p, input) => p.queuePost(input),
  listPosts: (p, input) => p.listPosts(input),
  sendMessage: (p, input) => p.sendMessage(input),
  addTag: (p, input) => p.addTag(input),
  broadcast: (p, input) => p.broadcast(input),
  createBot: (p, input) => p.createBot(input),
  renameBot: (p, input) => p.renameBot(input),
  deleteBot: (p, input) => p.deleteBot(input),
  queueProducts: (p, input) => p.queueProducts(input),
  importFile: (p, input) => p.importFile(input),
  undoImport: (p, input) => p.undoImport(input),
  exportFile: (p, input) => p.exportFile(input),
  retryItem: (p, input) => p.retryItem(input),
  cancelItem: (p, input) => p.cancelItem(input),
  status: (p) => p.status(),
  sync: (p) => p.sync(),
  publishDue: (p) => p.publishDue(),
  pauseQueue: (p) => p.pauseQueue(),
  resumeQueue: (p) => p.resumeQueue(),
};

export const OPERATION_NAMES = Object.keys(operations) as (keyof Operations)[];

function isOperation(name: string): name is keyof Operations {
  return Object.hasOwn(handlers, name);
}

function failure(kind: CallErrorKind, message: string, issues?: Issue[]): CallResult<never> {
  return { ok: false, error: { kind, message, ...(issues ? { issues } : {}) } };
}

export async function invoke(
  pressroom: Pressroom,
  operation: string,
  input: unknown,
): Promise<CallResult> {
  if (!isOperation(operation))
    return failure('unknown_operation', `There is no operation "${operation}"`);
  // Checked here for every operation, so even those without fields refuse stray input.
  const checked = operations[operation].safeParse(input ?? {});
  if (!checked.success) {
    const issues = describeIssues(checked.error.issues);
    return failure('invalid_input', summarizeIssues(issues), issues);
  }
  try {
    const value = await handlers[operation](pressroom, (input ?? {}) as never);
    return { ok: true, value: value ?? null };
  } catch (error) {
    if (error instanceof InvalidInput) return failure('invalid_input', error.message, error.issues);
    if (error instanceof NotAllowed) return failure('not_allowed', error.message);
    if (error instanceof NotConnected) return failure('not_connected', error.message);
    if (error instanceof UnusableFile) return failure('unusable_file', error.message);
    if (error instanceof PlatformError)
      return failure('platform', error.message, error.fieldErrors);
    // Unexpected: the details go to the log, not to the renderer.
    console.error(`[core] ${operation} failed:`, error);
    return failure('internal', `${operation} failed unexpectedly; the log has the details`);
  }
}
