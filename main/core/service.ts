// The core as a service (Node, main process): the operation table, from every contract operation
// to the core service method that serves it, and one `invoke(operation, input)` over it that
// Electron's IPC and the web host call with whatever a page sent. The operation must be in the
// contract, its input is validated against it, and the answer is always a CallResult, never a throw.
import type { z } from 'zod';
import type { CallerSide, OperationName, Operations } from '../../shared/contract';
import type { CallError, CallResult, OperationResults } from '../../shared/answers';
import { OPERATION_SIDES, operations } from '../../shared/contract';
import { UnusableFile } from '../csv/read';
import { PlatformError } from '../platform/errors';
import { DuplicateContent, InvalidInput, NotAllowed, NotConnected } from './errors';
import { validate } from './input';
import type { Session } from './session';

/** Serves operation K: called with the input the contract has already checked. */
type Handler<K extends OperationName> = (
  session: Session,
  input: z.output<Operations[K]>,
) => OperationResults[K] | Promise<OperationResults[K]>;

/**
 * A handler for every operation of one side in OPERATION_SIDES, and nothing else: an object
 * literal of this type refuses a missing operation, an unknown one, and one of the other side.
 */
type HandlersFor<Side extends CallerSide> = {
  [K in OperationName as (typeof OPERATION_SIDES)[K] extends Side ? K : never]: Handler<K>;
};

/** The operations a page may call (over IPC or the web host), each to the service serving it. */
const rendererHandlers: HandlersFor<'renderer'> = {
  addPost: (s, input) => s.current.posts.addPost(input),
  updatePost: (s, input) => s.current.posts.updatePost(input),
  queuePost: (s, input) => s.current.posts.queuePost(input),
  getSchedule: (s, input) => s.current.planning.getSchedule(input),
  setSchedule: (s, input) => s.current.planning.setSchedule(input),
  listSchedules: (s) => s.current.planning.listSchedules(),
  listFreeSlots: (s, input) => s.current.planning.listFreeSlots(input),
  addToQueue: (s, input) => s.current.planning.addToQueue(input),
  shareNext: (s, input) => s.current.planning.shareNext(input),
  getPost: (s, input) => s.current.posts.getPost(input),
  listPosts: (s, input) => s.current.posts.listPosts(input),
  getCalendar: (s, input) => s.current.planning.getCalendar(input),
  deletePost: (s, input) => s.current.posts.deletePost(input),
  moveToDrafts: (s, input) => s.current.posts.moveToDrafts(input),
  addMedia: (s, input) => s.current.media.addMedia(input),
  describeMedia: (s, input) => s.current.media.describeMedia(input),
  readMedia: (s, input) => s.current.media.readMedia(input),
  getMediaHost: (s) => s.current.media.host(),
  chooseMediaFolder: (s, input) => s.chooseMediaFolder(input.publicBaseUrl),
  listProducts: (s, input) => s.current.catalog.listProducts(input),
  saveProduct: (s, input) => s.current.catalog.saveProduct(input),
  duplicateProduct: (s, input) => s.current.catalog.duplicateProduct(input),
  deleteProducts: (s, input) => s.current.catalog.deleteProducts(input),
  listQueue: (s, input) => s.current.queue.listQueue(input),
  listBots: (s) => s.current.bots.listBots(),
  listSubscribers: (s, input) => s.current.people.listSubscribers(input),
  getSubscriber: (s, input) => s.current.people.getSubscriber(input),
  listOrders: (s, input) => s.current.people.listOrders(input),
  sendMessage: (s, input) => s.current.people.sendMessage(input),
  addTag: (s, input) => s.current.people.addTag(input),
  listTagAudiences: (s) => s.current.people.listTagAudiences(),
  broadcast: (s, input) => s.current.people.broadcast(input),
  broadcastProgress: (s, input) => s.current.people.broadcastProgress(input),
  createBot: (s, input) => s.current.bots.createBot(input),
  renameBot: (s, input) => s.current.bots.renameBot(input),
  botPosts: (s, input) => s.current.bots.botPosts(input),
  deleteBot: (s, input) => s.current.bots.deleteBot(input),
  queueProducts: (s, input) => s.current.catalog.queueProducts(input),
  importUpload: (s, input) => s.current.imports.importUpload(input),
  previewUpload: (s, input) => s.current.imports.previewUpload(input),
  getBadRows: (s, input) => s.current.imports.getBadRows(input),
  undoImport: (s, input) => s.current.imports.undoImport(input),
  listImports: (s, input) => s.current.imports.listImports(input),
  exportText: (s, input) => s.current.imports.exportText(input),
  retryItem: (s, input) => s.current.queue.retryItem(input),
  resendItem: (s, input) => s.current.queue.resendItem(input),
  markItemPublished: (s, input) => s.current.queue.markItemPublished(input),
  cancelItem: (s, input) => s.current.queue.cancelItem(input),
  status: (s) => s.current.queue.status(),
  sync: (s) => s.current.queue.sync(),
  publishDue: (s) => s.current.queue.publishDue(),
  pauseQueue: (s) => (s.current.queue.pauseQueue(), null),
  resumeQueue: (s) => (s.current.queue.resumeQueue(), null),
  aiAssist: (s, input) => s.current.ai.aiAssist(input),
  aiUsage: (s, input) => s.current.ai.aiUsage(input),
  draftCampaign: (s, input) => s.current.ai.draftCampaign(input),
  saveCampaignDrafts: (s, input) => s.current.ai.saveCampaignDrafts(input),
  listWebhooks: (s) => s.current.webhooks.listWebhooks(),
  createWebhook: (s, input) => s.current.webhooks.createWebhook(input),
  listReceivedEvents: (s, input) => s.current.webhooks.listReceivedEvents(input),
  getSettings: (s) => ({ ...s.current.settings.getSettings(), account: s.accountSettings() }),
  saveSettings: (s, input) => s.current.settings.saveSettings(input),
  connectAccount: (s, input) => s.connect(input),
  useDemo: (s) => s.useDemo(),
  checkConnection: (s) => s.checkConnection(),
};

/** Main only: these reach files by their path, for the CLI and the desktop menu. */
const mainHandlers: HandlersFor<'main'> = {
  importFile: (s, input) => s.current.imports.importFile(input),
  exportFile: (s, input) => s.current.imports.exportFile(input),
  setMediaHost: (s, input) => (s.current.media.setMediaHost(input), null),
};

/** The one table from every contract operation to the service method that serves it. */
const handlers: { [K in OperationName]: Handler<K> } = { ...rendererHandlers, ...mainHandlers };

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

function isOperation(name: string): name is OperationName {
  return Object.hasOwn(handlers, name);
}

function failure(
  kind: CallError['kind'],
  message: string,
  details: Pick<CallError, 'issues' | 'duplicate'> = {},
): CallResult<never> {
  return { ok: false, error: { kind, message, ...details } };
}

export async function invoke(
  session: Session,
  operation: string,
  input: unknown,
): Promise<CallResult> {
  if (!isOperation(operation))
    return failure('unknown_operation', `There is no operation "${operation}"`);
  try {
    // Checked here for every operation, so even those without fields refuse stray input.
    const checked = validate(operation, input ?? {});
    const value = await handlers[operation](session, checked as never);
    return { ok: true, value: value ?? null };
  } catch (error) {
    return failureOf(operation, error);
  }
}

/** The error answer for what `operation` threw: the core's own errors as they are, others hidden. */
function failureOf(operation: string, error: unknown): CallResult<never> {
  if (error instanceof InvalidInput)
    return failure('invalid_input', error.message, { issues: error.issues });
  if (error instanceof DuplicateContent)
    return failure('duplicate', error.message, { duplicate: error.conflict });
  if (error instanceof NotAllowed) return failure('not_allowed', error.message);
  if (error instanceof NotConnected) return failure('not_connected', error.message);
  if (error instanceof UnusableFile) return failure('unusable_file', error.message);
  if (error instanceof PlatformError)
    return failure('platform', error.message, { issues: error.fieldErrors });
  // Unexpected: the details go to the log, not to the renderer.
  console.error(`[core] ${operation} failed:`, error);
  return failure('internal', `${operation} failed unexpectedly; the log has the details`);
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
    return failureOf('upload', error);
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
    return failure(
      'not_allowed',
      `${operation} is only for Pressroom's menus and command line, not for the page: it reaches files by their path`,
    );
  return invoke(session, operation, input);
}
