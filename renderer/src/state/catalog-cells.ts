// The catalog grid's columns and what a cell means (browser, pure): the text a cell shows, how
// typed or pasted text becomes a product's field, and why a product can no longer be edited.
import type { OperationInput } from '../../../shared/contract';
import type { PRODUCT_SORTS } from '../../../shared/contract';
import type { LocalProduct } from '../../../shared/domain';
import { minorDigits, minorToDecimal } from '../../../shared/money';
import { parsePrice } from '../../../shared/price-text';

export type ColumnKey = 'sku' | 'name' | 'price' | 'stock' | 'status';
export type EditableKey = Exclude<ColumnKey, 'status'>;

export interface Column {
  key: ColumnKey;
  label: string;
  sort: (typeof PRODUCT_SORTS)[number];
  editable: boolean;
  /** Numbers line up on the right, as in a spreadsheet. */
  numeric: boolean;
}

/** The grid's columns in order; the keyboard moves over these (the checkbox column is apart). */
export const COLUMNS: readonly Column[] = [
  { key: 'sku', label: 'SKU', sort: 'sku', editable: true, numeric: false },
  { key: 'name', label: 'Name', sort: 'name', editable: true, numeric: false },
  { key: 'price', label: 'Price', sort: 'price', editable: true, numeric: true },
  { key: 'stock', label: 'Stock', sort: 'stock', editable: true, numeric: true },
  { key: 'status', label: 'Status', sort: 'status', editable: false, numeric: false },
];

export type SaveInput = OperationInput<'saveProduct'>;

/** The text a cell shows and its editor starts from. */
export function cellText(product: LocalProduct, key: ColumnKey): string {
  switch (key) {
    case 'price':
      return minorToDecimal(product.priceMinor, product.currency);
    case 'stock':
      return product.stock === null ? '' : String(product.stock);
    case 'status':
      return product.origin === 'remote' ? `${product.status} (platform)` : product.status;
    default:
      return product[key];
  }
}

// One formatter per currency: building one costs more than formatting with it.
const priceFormats = new Map<string, Intl.NumberFormat>();

/**
 * A price as the grid shows it, with its currency ("€3.80", "KWD 1.250"), in ISO 4217's minor
 * digits rather than Intl's own (see shared/money.ts). The editor starts from `cellText` instead,
 * the plain decimal a person types.
 */
function priceDisplay(product: LocalProduct): string {
  let format = priceFormats.get(product.currency);
  if (!format) {
    const digits = minorDigits(product.currency);
    format = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: product.currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    priceFormats.set(product.currency, format);
  }
  return format.format(product.priceMinor / 10 ** minorDigits(product.currency));
}

/** The text a cell shows: `cellText`, with prices in their currency. */
export function cellDisplay(product: LocalProduct, key: ColumnKey): string {
  return key === 'price' ? priceDisplay(product) : cellText(product, key);
}

/** Only drafts made here, or those that failed to publish, can still be changed (as the core says). */
export function isEditable(product: LocalProduct): boolean {
  return product.origin === 'local' && (product.status === 'draft' || product.status === 'failed');
}

/** Why a product is read-only, in the words a tooltip and a screen reader give. */
export const LOCKS = {
  remote: 'Made on the platform: API v1 cannot change it',
  published: 'Published: API v1 has no way to change a published product',
  queued: 'Queued: cancel it on the Queue screen to edit it',
  sending: 'Sending: it is on its way to the platform',
} as const;
export type LockKind = keyof typeof LOCKS;

export function lockKind(product: LocalProduct): LockKind | null {
  if (isEditable(product)) return null;
  if (product.origin === 'remote') return 'remote';
  return product.status === 'draft' || product.status === 'failed' ? null : product.status;
}

/** Why a product is read-only; null if it is not. */
export function lockReason(product: LocalProduct): string | null {
  const kind = lockKind(product);
  return kind && LOCKS[kind];
}

/** Everything saveProduct needs to write `product` back as it is. */
export function saveInput(product: LocalProduct): SaveInput {
  return {
    id: product.id,
    sku: product.sku,
    name: product.name,
    price: minorToDecimal(product.priceMinor, product.currency),
    currency: product.currency,
    description: product.description,
    stock: product.stock,
    imageUrl: product.imageUrl,
  };
}

export type CellChange =
  | { ok: true; product: LocalProduct; input: SaveInput }
  | { ok: false; field: EditableKey; message: string };

/**
 * `product` with one cell set from text, and the save that writes it. Refuses what the core would
 * refuse anyway (a price that is not a number, a stock that is not a whole number ≥ 0, an
 * empty SKU or name), so the user sees it before anything is sent; SKU uniqueness is the core's.
 */
export function changeCell(
  product: LocalProduct,
  input: SaveInput,
  key: EditableKey,
  raw: string,
): CellChange {
  const text = raw.trim();
  switch (key) {
    case 'sku':
    case 'name': {
      if (text === '') return { ok: false, field: key, message: 'is required' };
      return { ok: true, product: { ...product, [key]: text }, input: { ...input, [key]: text } };
    }
    case 'price': {
      const minor = parsePrice(text, product.currency, 'typed');
      if (!minor.ok) return { ok: false, field: key, message: minor.reason };
      return {
        ok: true,
        product: { ...product, priceMinor: minor.value },
        input: { ...input, price: minorToDecimal(minor.value, product.currency) },
      };
    }
    case 'stock': {
      if (text !== '' && !/^\d+$/.test(text))
        return { ok: false, field: key, message: 'must be a whole number, 0 or more' };
      const stock = text === '' ? null : Number(text);
      return { ok: true, product: { ...product, stock }, input: { ...input, stock } };
    }
  }
}

/** The column a core issue's field names, so its message lands on the cell that caused it. */
export function issueColumn(field: string): EditableKey | null {
  return field === 'sku' || field === 'name' || field === 'price' || field === 'stock'
    ? field
    : null;
}
