// The catalog's view (browser): which sort, search and status filter the grid shows, and the
// listProducts query that asks the core for a window of rows in that view.
import type { PRODUCT_SORTS } from '../../../shared/contract';
import type { ProductStatus } from '../../../shared/domain';

export type ProductSort = (typeof PRODUCT_SORTS)[number];

export class CatalogView {
  sort = $state<ProductSort>('sku');
  descending = $state(false);
  search = $state('');
  status = $state<ProductStatus | null>(null);

  get filtered(): boolean {
    return this.search.trim() !== '' || this.status !== null;
  }

  /** A click on a column's header; a second click on it reverses the order, as in a spreadsheet. */
  sortBy(sort: ProductSort): void {
    this.descending = sort === this.sort ? !this.descending : false;
    this.sort = sort;
  }

  /** The rows offset…offset+limit of this view. */
  query(offset: number, limit: number) {
    const search = this.search.trim();
    return {
      offset,
      limit,
      sort: this.sort,
      descending: this.descending,
      ...(search ? { search } : {}),
      ...(this.status ? { status: this.status } : {}),
    };
  }
}
