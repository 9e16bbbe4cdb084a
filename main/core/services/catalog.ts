// The catalog (Node, main process): products as the user lists, saves, copies, deletes and queues
// them, and what locks a product against change.
import type { CheckedInput } from '../../../shared/contract';
import type { Issue } from '../../../shared/answers';
import type { LocalProduct, OutboxItem, Page } from '../../../shared/domain';
import { PRIORITY, UNSENT_PRODUCT } from '../../../shared/domain';
import { isCurrency } from '../../../shared/money';
import { parsePrice } from '../../../shared/price-text';
import type { CatalogStore } from '../../store/catalog';
import type { ProductsStore } from '../../store/products';
import type { Transactional } from '../../store/transaction';
import { InvalidInput, NotAllowed } from '../errors';
import type { CoreEvents } from '../events';
import type { Outbox } from '../outbox';
import type { SettingsService } from './settings';

/** What the catalog reads and writes of the store; the outbox through its owner. */
export interface CatalogData extends Transactional {
  products: ProductsStore;
  catalog: CatalogStore;
}

/** Why a product cannot be edited any more. */
function productLock(product: LocalProduct): string {
  if (product.origin === 'remote') return 'It was made on the platform; API v1 cannot change it';
  if (product.status === 'published')
    return 'It is published; API v1 has no way to change a published product';
  return `It is ${product.status}; cancel it in the queue first`;
}

export class CatalogService {
  constructor(
    private readonly store: CatalogData,
    private readonly outbox: Outbox,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly settings: SettingsService,
  ) {}

  listProducts(input: CheckedInput<'listProducts'>): Page<LocalProduct> {
    return this.store.catalog.page(input);
  }

  /** Creates a draft product, or edits a draft or failed one (which becomes a draft again). */
  saveProduct(request: CheckedInput<'saveProduct'>): LocalProduct {
    const currency = request.currency ?? this.settings.defaultCurrency();
    const issues: Issue[] = [];
    if (!isCurrency(currency))
      issues.push({ field: 'currency', message: 'must be an ISO 4217 code such as EUR' });
    const price = isCurrency(currency) ? parsePrice(request.price, currency, 'typed') : null;
    if (price && !price.ok) issues.push({ field: 'price', message: price.reason });
    const owner = this.store.catalog.skuOwner(request.sku);
    if (owner !== undefined && owner !== request.id)
      issues.push({ field: 'sku', message: `is taken by another product (${request.sku})` });
    if (issues.length > 0 || !price?.ok) throw new InvalidInput(issues);
    const fields = {
      sku: request.sku,
      name: request.name,
      description: request.description || null,
      priceMinor: price.value,
      currency,
      stock: request.stock,
      imageUrl: request.imageUrl,
    };
    const saved = this.store.transaction(() => {
      if (request.id === undefined) return this.store.products.create(fields);
      const current = this.store.catalog.get(request.id);
      if (!current) throw new InvalidInput([{ field: 'id', message: `no product ${request.id}` }]);
      if (!this.store.catalog.update(request.id, fields))
        throw new NotAllowed(`Product ${current.sku} cannot be changed. ${productLock(current)}.`);
      return this.store.products.require(request.id);
    });
    this.events.emit({ type: 'changed', what: 'products' });
    return saved;
  }

  duplicateProduct(input: CheckedInput<'duplicateProduct'>): LocalProduct {
    const { id } = input;
    const original = this.store.catalog.get(id);
    if (!original) throw new InvalidInput([{ field: 'id', message: `no product ${id}` }]);
    const copy = this.store.transaction(() =>
      this.store.products.create({
        sku: this.store.catalog.freeSku(original.sku),
        name: original.name,
        description: original.description,
        priceMinor: original.priceMinor,
        currency: original.currency,
        stock: original.stock,
        imageUrl: original.imageUrl,
      }),
    );
    this.events.emit({ type: 'changed', what: 'products' });
    return copy;
  }

  /** Deletes the drafts (and failed products) among `ids`; published ones stay, and say so. */
  deleteProducts(input: CheckedInput<'deleteProducts'>): { removed: number } {
    const { ids } = input;
    const removed = this.store.catalog.remove(ids);
    if (removed === 0)
      throw new NotAllowed(
        'None of these products can be deleted: only drafts and failed products can',
      );
    this.events.emit({ type: 'changed', what: 'products' });
    return { removed };
  }

  /** Queues draft (or failed) products for publishing now; published ones are refused by name. */
  queueProducts(input: CheckedInput<'queueProducts'>): OutboxItem[] {
    const { ids } = input;
    return this.store.transaction(() => {
      const dueAt = this.now();
      const items = ids.map((id) => {
        const product = this.store.products.get(id);
        if (!product) throw new InvalidInput([{ field: 'ids', message: `no product ${id}` }]);
        if (product.origin === 'remote' || !UNSENT_PRODUCT.includes(product.status)) {
          throw new NotAllowed(
            `Product ${product.sku} is ${product.origin === 'remote' ? 'on the platform already' : product.status}; only drafts and failed products can be queued`,
          );
        }
        return { kind: 'create_product' as const, productId: id, priority: PRIORITY.due, dueAt };
      });
      return this.outbox.enqueue(items);
    });
  }
}
