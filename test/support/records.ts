// The records tests build by hand, each written once: a local post and an import batch, with
// plain values a test overrides field by field.
import type { ImportBatch, LocalPost } from '../../shared/domain';

/** A scheduled local post of bot_1, its text and time given unless the test says otherwise. */
export function localPost(fields: Partial<LocalPost> & { id: number }): LocalPost {
  return {
    remoteId: null,
    botId: 'bot_1',
    text: `Post ${fields.id}`,
    mediaUrls: [],
    scheduledAt: Date.UTC(2026, 10, 23, 8, 0),
    zone: 'Europe/Berlin',
    status: 'scheduled',
    origin: 'local',
    publishedAt: null,
    error: null,
    batchId: null,
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  };
}

/** A posts import of two rows and one bad row, not undone. */
export function importBatch(fields: Partial<ImportBatch> = {}): ImportBatch {
  return {
    id: 'batch-1',
    kind: 'posts',
    fileName: 'week.csv',
    at: 0,
    inserted: 2,
    updated: 0,
    unchanged: 0,
    invalid: 1,
    leftOut: 0,
    undoneAt: null,
    cannotUndo: null,
    firstAt: null,
    ...fields,
  };
}
