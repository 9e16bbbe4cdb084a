// How the shops' product exports lay out their rows (Node, main process; pure), turned into one
// row per product as the checks read it: Shopify's variant and image rows, WooCommerce's
// container rows and image lists, Etsy's listings without a SKU. Made once per file, for the
// source detected (./sources.ts); a file of no known shop is read as it is, at no cost per row.
import { headerKey } from './columns';
import type { ColumnMapping } from './columns';
import type { CsvRow } from './read';
import type { SourceId } from './sources';

/** A row to check, maybe with why it must not be queued; or why it is left out; or null: no product. */
export type Prepared = { row: CsvRow; hold?: string } | { leftOut: string } | null;

export interface ShopRows {
  prepare(row: CsvRow): Prepared;
  /** The columns it reads beyond the fields' own. */
  reads: readonly (number | undefined)[];
  /** The row error for a listing without a SKU, where the shop has its own way to fix it. */
  missingSku?: string;
}

type Mapping = ColumnMapping<'products'>;

/** Reads one cell by column index; '' where the file has no such column. */
const cellAt = (row: CsvRow, index: number | undefined): string =>
  index === undefined ? '' : (row.cells[index] ?? '').trim();

/** The index of the header whose key is `key`, if the file has it. */
function columnOf(header: readonly string[], key: string): number | undefined {
  const index = header.findIndex((cell) => headerKey(cell) === key);
  return index === -1 ? undefined : index;
}

/** A copy of the row with some cells replaced (a column the file lacks is left out). */
function withCells(row: CsvRow, cells: [number | undefined, string][]): CsvRow {
  const copy = [...row.cells];
  for (const [index, value] of cells) if (index !== undefined) copy[index] = value;
  return { row: row.row, cells: copy };
}

/**
 * Shopify: a product's first row has its title, description and status; each further row with a
 * Variant SKU is a variant, named by its option values; a row with only an image adds a picture.
 * On a variant row `Image Src` is the product's N-th picture, not the variant's: that one is in
 * `Variant Image`, else the product's first (Image Position 1) stands for it.
 */
function shopify(header: readonly string[], mapping: Mapping): ShopRows {
  const { handle, name, description, sku, price, image_url: image } = mapping.columns;
  const options = ['option1value', 'option2value', 'option3value'].map((key) =>
    columnOf(header, key),
  );
  const variantImage = columnOf(header, 'variantimage');
  const position = columnOf(header, 'imageposition');
  const status = columnOf(header, 'status');
  const reads = [...options, variantImage, position, status];
  const products = new Map<
    string,
    { name: string; description: string; status: string; image: string }
  >();
  return {
    reads,
    prepare(row) {
      const key = cellAt(row, handle);
      if (key === '') return { row };
      const src = cellAt(row, image);
      const first = cellAt(row, position) === '1' || cellAt(row, position) === '';
      const title = cellAt(row, name);
      if (title !== '') {
        products.set(key, {
          name: title,
          description: cellAt(row, description),
          status: cellAt(row, status).toLowerCase(),
          image: first ? src : '',
        });
      }
      const product = products.get(key);
      if (cellAt(row, sku) === '' && cellAt(row, price) === '' && title === '') {
        // An image row: a picture of the product above, never a product of its own.
        if (product && product.image === '' && first) product.image = src;
        return null;
      }
      if (!product) return { row };
      if (product.status === 'archived') return { leftOut: 'archived on Shopify' };
      const values = options.map((index) => cellAt(row, index)).filter(Boolean);
      const bare = values.length === 0 || (values.length === 1 && values[0] === 'Default Title');
      const prepared = withCells(row, [
        [name, bare ? product.name : `${product.name} — ${values.join(' / ')}`],
        [description, cellAt(row, description) || product.description],
        [image, cellAt(row, variantImage) || product.image],
      ]);
      return product.status === 'draft'
        ? { row: prepared, hold: 'a draft on Shopify: kept as a local draft, not queued' }
        : { row: prepared };
    },
  };
}

const WOO_CONTAINERS: Record<string, string> = {
  variable: 'a WooCommerce variable product: a container, its variations are the products',
  grouped: 'a WooCommerce grouped product: a container, its products are rows of their own',
};

/**
 * WooCommerce: simple, variation and external rows are products (a variation named as
 * WooCommerce writes it, "Tote Bag - Red"); variable and grouped rows only hold others. Images
 * is a comma-separated list, of which the first is the product's picture.
 */
function woocommerce(header: readonly string[], mapping: Mapping): ShopRows {
  const type = columnOf(header, 'type');
  const image = mapping.columns.image_url;
  return {
    reads: [type],
    prepare(row) {
      const container = WOO_CONTAINERS[cellAt(row, type).toLowerCase()];
      if (container) return { leftOut: container };
      const images = cellAt(row, image);
      if (!images.includes(',')) return { row };
      return { row: withCells(row, [[image, images.split(',')[0]?.trim() ?? '']]) };
    },
  };
}

/** Etsy: one listing per row, read by the columns' names; a listing may lack a SKU. */
const etsy: ShopRows = {
  prepare: (row) => ({ row }),
  reads: [],
  missingSku:
    'This Etsy listing has no SKU, and Pressroom tells products apart by SKU: give it one in Etsy (the listing’s Inventory and pricing) and export again, or type one in this SKU cell',
};

/** The row reading of a shop's export, or null when the file is read row for row. */
export function shopRows(
  source: SourceId | null,
  header: readonly string[],
  mapping: Mapping,
): ShopRows | null {
  if (source === 'shopify') return shopify(header, mapping);
  if (source === 'woocommerce') return woocommerce(header, mapping);
  if (source === 'etsy') return etsy;
  // Any file with a handle column reads Shopify's way: its variant rows inherit the title.
  return mapping.columns.handle === undefined ? null : shopify(header, mapping);
}
