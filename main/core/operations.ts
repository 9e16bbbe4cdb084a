// The core as a service (Node, main process): the operation table, from every contract operation
// to the core service method that serves it, and the one door every caller goes through:
// `invoke(session, operation, input)` for Electron's IPC and the web host, answering a CallResult
// and never throwing, and `call(workspace, operation, input)` for the CLI and tests, throwing an
// OperationFailed that carries the same CallError. Either way the operation must be in the
// contract and its input is checked against it here, once; services take checked input.
import type { CheckedInput, OperationInput, OperationName } from '../../shared/contract';
import type { CallError, CallResult, OperationResults } from '../../shared/answers';
import { OPERATION_SIDES, operations } from '../../shared/contract';
import { UnusableFile } from '../csv/read';
import { PlatformError } from '../platform/errors';
import {
  DuplicateContent,
  InvalidInput,
  NotAllowed,
  NotConnected,
  OperationFailed,
} from './errors';
import { validate } from './input';
import type { Workspace } from './workspace';
import type { Session } from './session';

/** Serves operation K on `target` (the session, or one workspace) with checked input. */
type Handler<K extends OperationName, Target> = (
  target: Target,
  input: CheckedInput<K>,
) => OperationResults[K] | Promise<OperationResults[K]>;

/** The operations about the session (which workspace is open, its account), not one workspace. */
const SESSION_OPERATIONS = [
  'chooseMediaFolder',
  'getSettings',
  'connectAccount',
  'useDemo',
  'checkConnection',
  'joinTeam',
  'createTeam',
] as const satisfies readonly OperationName[];
type SessionOperation = (typeof SESSION_OPERATIONS)[number];
/** Every other operation: served by one workspace's services, so `call` can run it. */
export type WorkspaceOperation = Exclude<OperationName, SessionOperation>;

const sessionHandlers: { [K in SessionOperation]: Handler<K, Session> } = {
  chooseMediaFolder: (s, input) => s.chooseMediaFolder(input.publicBaseUrl),
  getSettings: (s) => ({ ...s.current.settings.getSettings(), account: s.accountSettings() }),
  connectAccount: (s, input) => s.connect(input),
  useDemo: (s) => s.useDemo(),
  checkConnection: (s) => s.checkConnection(),
  joinTeam: (s, input) => s.joinTeam(input),
  createTeam: (s, input) => s.createTeam(input),
};

/**
 * Every workspace operation to the service method serving it, one line each. `satisfies` makes
 * a missing operation, an unknown one, or a wrong input or result fail to compile, and keeps each
 * handler's own result type, so `call` answers a sync operation synchronously.
 */
const workspaceHandlers = {
  addPost: (w, input) => w.posts.addPost(input),
  updatePost: (w, input) => w.posts.updatePost(input),
  queuePost: (w, input) => w.posts.queuePost(input),
  getPost: (w, input) => w.posts.getPost(input),
  getPostTeamHistory: (w, input) => w.teamHistory.getPostTeamHistory(input),
  listPosts: (w, input) => w.posts.listPosts(input),
  deletePost: (w, input) => w.posts.deletePost(input),
  moveToDrafts: (w, input) => w.posts.moveToDrafts(input),
  getSchedule: (w, input) => w.planning.getSchedule(input),
  setSchedule: (w, input) => w.planning.setSchedule(input),
  listSchedules: (w) => w.planning.listSchedules(),
  listFreeSlots: (w, input) => w.planning.listFreeSlots(input),
  addToQueue: (w, input) => w.planning.addToQueue(input),
  shareNext: (w, input) => w.planning.shareNext(input),
  getCalendar: (w, input) => {
    const range = w.planning.getCalendar(input);
    const ids = [...range.posts, ...range.drafts].map((post) => post.id);
    return { ...range, approvals: w.review.approvalStates(ids) };
  },
  addMedia: (w, input) => w.media.addMedia(input),
  describeMedia: (w, input) => w.media.describeMedia(input),
  readMedia: (w, input) => w.media.readMedia(input),
  getMediaHost: (w) => w.media.host(),
  setMediaHost: (w, input) => (w.media.setMediaHost(input), null),
  listProducts: (w, input) => w.catalog.listProducts(input),
  saveProduct: (w, input) => w.catalog.saveProduct(input),
  duplicateProduct: (w, input) => w.catalog.duplicateProduct(input),
  deleteProducts: (w, input) => w.catalog.deleteProducts(input),
  queueProducts: (w, input) => w.catalog.queueProducts(input),
  listQueue: (w, input) => w.queue.listQueue(input),
  retryItem: (w, input) => w.queue.retryItem(input),
  resendItem: (w, input) => w.queue.resendItem(input),
  markItemPublished: (w, input) => w.queue.markItemPublished(input),
  cancelItem: (w, input) => w.queue.cancelItem(input),
  status: (w) => w.queue.status(),
  getTeam: (w) => w.sharing.getTeam(),
  inviteTeamMember: (w, input) => w.sharing.inviteTeamMember(input),
  revokeTeamMember: (w, input) => w.sharing.revokeTeamMember(input),
  setEditingPost: (w, input) => w.sharing.setEditingPost(input),
  sync: (w) => w.queue.sync(),
  publishDue: (w) => w.queue.publishDue(),
  pauseQueue: (w) => (w.queue.pauseQueue(), null),
  resumeQueue: (w) => (w.queue.resumeQueue(), null),
  listBots: (w) => w.bots.listBots(),
  createBot: (w, input) => w.bots.createBot(input),
  renameBot: (w, input) => w.bots.renameBot(input),
  botPosts: (w, input) => w.bots.botPosts(input),
  deleteBot: (w, input) => w.bots.deleteBot(input),
  listSubscribers: (w, input) => w.people.listSubscribers(input),
  getSubscriber: (w, input) => w.people.getSubscriber(input),
  listOrders: (w, input) => w.people.listOrders(input),
  sendMessage: (w, input) => w.people.sendMessage(input),
  addTag: (w, input) => w.people.addTag(input),
  listTagAudiences: (w) => w.people.listTagAudiences(),
  broadcast: (w, input) => w.people.broadcast(input),
  broadcastProgress: (w, input) => w.people.broadcastProgress(input),
  importFile: (w, input) => w.imports.importFile(input),
  exportFile: (w, input) => w.imports.exportFile(input),
  importUpload: (w, input) => w.imports.importUpload(input),
  previewUpload: (w, input) => w.imports.previewUpload(input),
  getBadRows: (w, input) => w.imports.getBadRows(input),
  undoImport: (w, input) => w.imports.undoImport(input),
  listImports: (w, input) => w.imports.listImports(input),
  exportText: (w, input) => w.imports.exportText(input),
  aiAssist: (w, input) => w.ai.aiAssist(input),
  aiUsage: (w, input) => w.ai.aiUsage(input),
  draftCampaign: (w, input) => w.ai.draftCampaign(input),
  saveCampaignDrafts: (w, input) => w.ai.saveCampaignDrafts(input),
  listWebhooks: (w) => w.webhooks.listWebhooks(),
  createWebhook: (w, input) => w.webhooks.createWebhook(input),
  listReceivedEvents: (w, input) => w.webhooks.listReceivedEvents(input),
  saveSettings: (w, input) => w.settings.saveSettings(input),
  submitPost: (w, input) => w.review.submitPost(input),
  approvePost: (w, input) => w.review.approvePost(input),
  requestChanges: (w, input) => w.review.requestChanges(input),
  commentOnPost: (w, input) => w.review.commentOnPost(input),
  listReview: (w, input) => w.review.listReview(input),
  getPostApproval: (w, input) => w.review.getPostApproval(input),
  dismissReviewStep: (w, input) => w.review.dismissReviewStep(input),
  teamLog: (w, input) => w.review.teamLog(input),
} satisfies { [K in WorkspaceOperation]: Handler<K, Workspace> };

/** What `call` answers for a workspace operation: its handler's own result, sync or not. */
export type WorkspaceResult<K extends WorkspaceOperation> = ReturnType<
  (typeof workspaceHandlers)[K]
>;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

function isOperation(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

function isSessionOperation(name: OperationName): name is SessionOperation {
  return (SESSION_OPERATIONS as readonly string[]).includes(name);
}

/**
 * The door: checks `input` against the operation's contract (every operation, so even those
 * without fields refuse stray input) and runs its handler on the session or the workspace.
 */
function serve(
  session: Session | null,
  workspace: () => Workspace,
  operation: OperationName,
  input: unknown,
): unknown {
  const checked = validate(operation, input ?? {}) as never;
  if (!isSessionOperation(operation)) return workspaceHandlers[operation](workspace(), checked);
  if (!session) throw new Error(`${operation} is about the session, not one workspace`);
  return sessionHandlers[operation](session, checked);
}

function failure(
  kind: CallError['kind'],
  message: string,
  details: Pick<CallError, 'issues' | 'duplicate'> = {},
): CallError {
  return { kind, message, ...details };
}

export async function invoke(
  session: Session,
  operation: string,
  input: unknown,
): Promise<CallResult> {
  if (!isOperation(operation))
    return {
      ok: false,
      error: failure('unknown_operation', `There is no operation "${operation}"`),
    };
  try {
    const value = await serve(session, () => session.current, operation, input);
    return { ok: true, value: value ?? null };
  } catch (error) {
    return { ok: false, error: reported(operation, error) };
  }
}

/**
 * A workspace operation through the same door as `invoke`, for the CLI and tests: the checked
 * input goes to the same handler, and a failure throws an OperationFailed carrying the CallError
 * invoke would answer (the error thrown is its `cause`). A synchronous operation answers at once.
 */
export function call<K extends WorkspaceOperation>(
  workspace: Workspace,
  operation: K,
  input?: OperationInput<K>,
): WorkspaceResult<K> {
  const failed = (error: unknown) =>
    new OperationFailed(callErrorOf(operation, error), { cause: error });
  let result: unknown;
  try {
    result = serve(null, () => workspace, operation, input);
  } catch (error) {
    throw failed(error);
  }
  if (result instanceof Promise)
    return result.catch((error: unknown) => {
      throw failed(error);
    }) as WorkspaceResult<K>;
  return result as WorkspaceResult<K>;
}

/** The error answer for what `operation` threw: the core's own errors as they are, others hidden. */
function callErrorOf(operation: string, error: unknown): CallError {
  if (error instanceof InvalidInput)
    return failure('invalid_input', error.message, { issues: error.issues });
  if (error instanceof DuplicateContent)
    return failure('duplicate', error.message, { duplicate: error.conflict });
  if (error instanceof NotAllowed) return failure('not_allowed', error.message);
  if (error instanceof NotConnected) return failure('not_connected', error.message);
  if (error instanceof UnusableFile) return failure('unusable_file', error.message);
  if (error instanceof PlatformError)
    return failure('platform', error.message, { issues: error.fieldErrors });
  return failure('internal', `${operation} failed unexpectedly; the log has the details`);
}

/** callErrorOf for a page: an unexpected error's details go to the log, not to the renderer. */
function reported(operation: string, error: unknown): CallError {
  const answer = callErrorOf(operation, error);
  if (answer.kind === 'internal') console.error(`[core] ${operation} failed:`, error);
  return answer;
}

/**
 * A file a page uploads for an import (the web host's request body, the desktop app's bytes),
 * kept by the current workspace: answers the `upload` id importUpload and previewUpload take.
 */
export async function receiveUpload(
  session: Session,
  fileName: unknown,
  content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<CallResult<{ upload: string }>> {
  try {
    return { ok: true, value: await session.current.imports.receiveUpload(fileName, content) };
  } catch (error) {
    return { ok: false, error: reported('upload', error) };
  }
}

/**
 * invoke for a call from a page (the window over IPC, or the web host): main-only operations
 * (shared/contract.ts OPERATION_SIDES) are refused before their input is even read.
 */
export async function invokeFromRenderer(
  session: Session,
  operation: string,
  input: unknown,
): Promise<CallResult> {
  if (isOperation(operation) && OPERATION_SIDES[operation] === 'main')
    return {
      ok: false,
      error: failure(
        'not_allowed',
        `${operation} is only for Pressroom's menus and command line, not for the page: it reaches files by their path`,
      ),
    };
  return invoke(session, operation, input);
}
