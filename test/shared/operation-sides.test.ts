// Which side may call each operation: the page (over IPC or the web host) or only Pressroom's own
// main-process code. Every operation is listed here by hand, so a new one must be placed.
import { describe, expect, it } from 'vitest';
import { OPERATION_SIDES, operations } from '../../shared/contract';

const MAIN_ONLY = ['importFile', 'exportFile', 'setMediaHost'];

interface SchemaLike {
  shape?: Record<string, SchemaLike>;
  unwrap?: () => SchemaLike;
}

/** Every field name of an input, nested objects (and nullable or optional ones) included. */
function fieldNames(schema: SchemaLike): string[] {
  const inner = schema.unwrap ? fieldNames(schema.unwrap()) : [];
  const own = Object.entries(schema.shape ?? {}).flatMap(([name, field]) => [
    name,
    ...fieldNames(field),
  ]);
  return [...own, ...inner];
}

describe('operation sides', () => {
  it('keeps every operation that takes a path from the page', () => {
    const mainOnly = Object.entries(OPERATION_SIDES)
      .filter(([, side]) => side === 'main')
      .map(([name]) => name);
    expect(mainOnly.sort()).toEqual(MAIN_ONLY.sort());
    // Any input field named like a path or a file on disk makes an operation main-only.
    for (const [name, schema] of Object.entries(operations)) {
      const fields = fieldNames(schema as unknown as SchemaLike);
      if (fields.some((field) => /path|dir|folder/i.test(field))) expect(MAIN_ONLY).toContain(name);
    }
  });

  it('places every operation on a side', () => {
    expect(Object.keys(OPERATION_SIDES).sort()).toEqual(Object.keys(operations).sort());
    expect(OPERATION_SIDES).toEqual({
      addPost: 'renderer',
      updatePost: 'renderer',
      queuePost: 'renderer',
      getSchedule: 'renderer',
      setSchedule: 'renderer',
      listSchedules: 'renderer',
      listFreeSlots: 'renderer',
      addToQueue: 'renderer',
      shareNext: 'renderer',
      getPost: 'renderer',
      listPosts: 'renderer',
      getCalendar: 'renderer',
      deletePost: 'renderer',
      moveToDrafts: 'renderer',
      addMedia: 'renderer',
      describeMedia: 'renderer',
      readMedia: 'renderer',
      getMediaHost: 'renderer',
      chooseMediaFolder: 'renderer',
      setMediaHost: 'main',
      listProducts: 'renderer',
      saveProduct: 'renderer',
      duplicateProduct: 'renderer',
      deleteProducts: 'renderer',
      listQueue: 'renderer',
      listBots: 'renderer',
      listSubscribers: 'renderer',
      getSubscriber: 'renderer',
      listOrders: 'renderer',
      sendMessage: 'renderer',
      addTag: 'renderer',
      listTagAudiences: 'renderer',
      broadcast: 'renderer',
      broadcastProgress: 'renderer',
      createBot: 'renderer',
      renameBot: 'renderer',
      botPosts: 'renderer',
      deleteBot: 'renderer',
      queueProducts: 'renderer',
      importFile: 'main',
      importUpload: 'renderer',
      previewUpload: 'renderer',
      undoImport: 'renderer',
      listImports: 'renderer',
      getBadRows: 'renderer',
      exportFile: 'main',
      exportText: 'renderer',
      retryItem: 'renderer',
      cancelItem: 'renderer',
      resendItem: 'renderer',
      markItemPublished: 'renderer',
      status: 'renderer',
      sync: 'renderer',
      publishDue: 'renderer',
      pauseQueue: 'renderer',
      resumeQueue: 'renderer',
      aiAssist: 'renderer',
      aiUsage: 'renderer',
      draftCampaign: 'renderer',
      saveCampaignDrafts: 'renderer',
      listWebhooks: 'renderer',
      createWebhook: 'renderer',
      listReceivedEvents: 'renderer',
      getSettings: 'renderer',
      saveSettings: 'renderer',
      // Carries a token the user typed in the page; nothing hands one back.
      connectAccount: 'renderer',
      useDemo: 'renderer',
      checkConnection: 'renderer',
      // The Review screen's: the team server decides each, whoever asks.
      submitPost: 'renderer',
      approvePost: 'renderer',
      requestChanges: 'renderer',
      commentOnPost: 'renderer',
      listReview: 'renderer',
      getPostApproval: 'renderer',
      teamLog: 'renderer',
    });
  });
});
