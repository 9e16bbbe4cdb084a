// What each row of an import file becomes (Node, main process): a valid post or product, the
// problems of its bad cells, or left out (a shop's container and archived rows, a repeated post).
// It holds what one row must know of the rows before it: the SKUs seen, the slots given.
import type { RowError } from '../../shared/domain';
import { systemTimeZone } from '../../shared/time';
import type { WorkspaceStore } from '../store';
import type { ColumnMapping, ImportKind } from './columns';
import type { ImportOptions } from './import-options';
import { PostPlanner } from './post-planner';
import type { LeftOut } from './post-planner';
import type { CsvRow } from './read';
import { checkPost, checkProduct, RowChecker } from './row-checks';
import type { Valid } from './row-checks';
import { shopRows } from './shops';
import type { ShopRows } from './shops';
import type { SourceId } from './sources';

/** A row checked: valid, left out with a warning, its problems, or null when it is no row to count. */
export type Checked = Valid | LeftOut | RowError[] | null;

export class ImportRows {
  /** Rows left out but not invalid, by why: archived products, shops' container rows. */
  readonly leftOut = new Map<string, number>();
  /** SKUs the file marks as drafts of their shop: imported, never queued. */
  readonly held = new Set<string>();
  /** How a shop's export lays out its product rows; null for a plain file. */
  readonly shop: ShopRows | null;
  private readonly seenSkus = new Map<string, number>();
  private readonly planner: PostPlanner;
  /** Found on the first post row: the system's zone costs Intl's first use (~10 ms). */
  private postZone: string | undefined;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly kind: ImportKind,
    private readonly header: string[],
    private readonly mapping: ColumnMapping<ImportKind>,
    source: SourceId | null,
    private readonly options: ImportOptions,
  ) {
    this.shop =
      kind === 'products' ? shopRows(source, header, mapping as ColumnMapping<'products'>) : null;
    this.planner = new PostPlanner(store, options);
  }

  /** Validates one row. */
  validate(raw: CsvRow): Checked {
    const { options, shop } = this;
    if (this.kind === 'products') {
      let row = raw;
      let hold: string | undefined;
      // A plain file goes straight to the checks: nothing made per row for shops' layouts.
      if (shop) {
        const prepared = shop.prepare(raw);
        if (prepared === null) return null;
        if ('leftOut' in prepared) {
          this.leave(prepared.leftOut);
          return null;
        }
        ({ row, hold } = prepared);
      }
      const check = new RowChecker(this.mapping as ColumnMapping<'products'>, this.header, row);
      const valid = checkProduct(check, row.row, options, shop?.missingSku);
      if (valid && hold !== undefined && options.queue) {
        this.held.add(valid.sku);
        this.leave(hold);
      }
      if (valid) {
        const earlier = this.seenSkus.get(valid.sku);
        if (earlier !== undefined && earlier !== row.row) {
          check.fail('sku', `SKU "${valid.sku}" appears already in row ${earlier}`);
          return check.errors;
        }
        this.seenSkus.set(valid.sku, row.row);
      }
      return valid ?? check.errors;
    }
    const check = new RowChecker(this.mapping as ColumnMapping<'posts'>, this.header, raw);
    const valid = checkPost(
      check,
      raw.row,
      options,
      this.store,
      (this.postZone ??= options.timezone ?? systemTimeZone()),
    );
    return valid ? this.planner.plan(valid, check) : check.errors;
  }

  private leave(reason: string): void {
    this.leftOut.set(reason, (this.leftOut.get(reason) ?? 0) + 1);
  }
}
