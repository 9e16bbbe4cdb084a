// Writing an import's valid rows (Node, main process): products and posts into the store as part
// of the import's batch, counted as inserted, updated or unchanged, and the queue items to make
// once the whole file is in.
import { PRIORITY } from '../../shared/domain';
import type { ImportResult } from '../../shared/domain';
import type { WorkspaceStore } from '../store';
import type { NewOutboxItem } from '../store/outbox';
import { keepFirst } from './import-options';
import type { ImportOptions } from './import-options';
import type { Valid, ValidPost, ValidProduct } from './row-checks';

/** Writes one transaction's rows, products first; post rows to queue are added to `toQueue`. */
export function writeRows(
  store: WorkspaceStore,
  items: Valid[],
  result: ImportResult,
  options: ImportOptions,
  toQueue: NewOutboxItem[],
): void {
  writeProducts(store, items.filter(isProduct), result);
  for (const item of items)
    if (item.kind === 'posts') writePost(store, item, result, options, toQueue);
}

const isProduct = (item: Valid): item is ValidProduct => item.kind === 'products';

/**
 * Writes one batch of valid products: new SKUs go straight in, in multi-row inserts; the few
 * already in the catalog come back from the insert and are looked up in one query.
 */
function writeProducts(store: WorkspaceStore, items: ValidProduct[], result: ImportResult): void {
  if (items.length === 0) return;
  const batchId = result.batch;
  const taken = store.products.insertNew(items, batchId);
  result.inserted += items.length - taken.length;
  if (taken.length === 0) return;
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
