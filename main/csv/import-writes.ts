// Writing an import's valid rows (Node, main process): products and posts into the store as part
// of the import's batch, counted as inserted, updated or unchanged, and the queue items to make
// once the whole file is in.
import { PRIORITY } from '../../shared/domain';
import type { ImportResult } from '../../shared/domain';
import type { WorkspaceStore } from '../store';
import type { NewOutboxItem } from '../store/outbox';
import type { WriteSteps } from '../store/write-thread';
import { keepFirst } from './import-options';
import type { ImportOptions } from './import-options';
import type { ValidPost, ValidProduct } from './row-checks';

/** Writes one transaction's post rows, on this thread; those to queue are added to `toQueue`. */
export function writePosts(
  store: WorkspaceStore,
  items: ValidPost[],
  result: ImportResult,
  options: ImportOptions,
  toQueue: NewOutboxItem[],
): void {
  for (const item of items) writePost(store, item, result, options, toQueue);
}

/**
 * Writes one batch of valid products: new SKUs go straight in, in multi-row inserts through
 * `writer` (with the batch's beat, in the same transaction); the few already in the catalog come
 * back from the insert and are looked up in one query, then compared and updated on this thread.
 * Resolves with the time the insert held the write lock.
 */
export async function writeProducts(
  store: WorkspaceStore,
  writer: WriteSteps,
  items: ValidProduct[],
  result: ImportResult,
): Promise<number> {
  const batchId = result.batch;
  const beat = batchId === null ? [] : [store.imports.beatStep(batchId)];
  const { results, ms } = await writer.run(store.products.insertNewSteps(items, batchId, beat));
  const taken = store.products.takenAfterInsert(items, results);
  result.inserted += items.length - taken.length;
  if (taken.length > 0) store.transactionDurableLater(() => keepOrUpdate(store, taken, result));
  return ms;
}

/** Products whose SKU the catalog already had: left alone, or their draft updated. */
function keepOrUpdate(store: WorkspaceStore, taken: ValidProduct[], result: ImportResult): void {
  const batchId = result.batch;
  const existingBySku = store.imports.productsBySku(taken.map((item) => item.sku));
  for (const item of taken) {
    const existing = existingBySku.get(item.sku);
    if (!existing)
      throw new Error(`SKU ${item.sku} was refused as taken but is not in the catalog`);
    const fields = {
      name: item.name,
      description: item.description,
      priceMinor: item.priceMinor,
      currency: item.currency,
      stock: item.stock,
      imageUrl: item.imageUrl,
    };
    if (existing.origin === 'remote' || existing.status !== 'draft') {
      result.unchanged++;
      result.warningCount++;
      keepFirst(result.warnings, [
        {
          row: item.row,
          column: 'sku',
          value: item.sku,
          message: `SKU "${item.sku}" is already on the platform; API v1 cannot change it, so the row was left out`,
        },
      ]);
    } else if (
      Object.entries(fields).every(([key, value]) => existing[key as keyof typeof fields] === value)
    ) {
      result.unchanged++;
    } else {
      store.imports.updateProductDraft(existing.id, fields, batchId ?? '');
      result.updated++;
    }
  }
}

function writePost(
  store: WorkspaceStore,
  item: ValidPost,
  result: ImportResult,
  options: ImportOptions,
  toQueue: NewOutboxItem[],
): void {
  const batchId = result.batch;
  if (store.imports.identicalPost(item) !== undefined) {
    result.unchanged++;
    return;
  }
  const post = store.posts.create({
    botId: item.botId,
    text: item.text,
    mediaUrls: item.mediaUrls,
    scheduledAt: item.scheduledAt,
    zone: item.zone,
    batchId,
  });
  result.inserted++;
  if (options.queue && !item.draft && (item.scheduledAt !== null || item.publishNow)) {
    toQueue.push({
      kind: 'create_post',
      postId: post.id,
      priority: PRIORITY.due,
      dueAt: item.publishNow ? options.now : (item.scheduledAt ?? options.now),
    });
  }
}
