// A small in-memory catalog behind the FakeTransport for the catalog tests: it sorts, searches,
// filters and windows like the core, and refuses a taken SKU or a published product like it.
import type { CallResult } from '../../shared/answers';
import type { LocalProduct } from '../../shared/domain';
import { decimalToMinor } from '../../shared/money';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { FakeTransport, ok } from './fake-transport';

export function product(id: number, patch: Partial<LocalProduct> = {}): LocalProduct {
  return {
    id,
    remoteId: null,
    sku: `SKU-${String(id).padStart(5, '0')}`,
    name: `Product ${id}`,
    description: null,
    priceMinor: 1000 + id,
    currency: 'USD',
    stock: id % 7,
    imageUrl: null,
    status: 'draft',
    origin: 'local',
    error: null,
    batchId: null,
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  };
}

/** Numbers by value, text by code point (as SQLite's default collation). */
function compare(x: unknown, y: unknown): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const [a, b] = [String(x), String(y)];
  return a < b ? -1 : a > b ? 1 : 0;
}

interface ListInput {
  offset: number;
  limit: number;
  sort: keyof LocalProduct | 'price' | 'updated';
  descending: boolean;
  search?: string;
  status?: string;
}

interface SaveInput {
  id?: number;
  sku: string;
  name: string;
  price: string;
  stock?: number | null;
}

const invalid = (field: string, message: string): CallResult => ({
  ok: false,
  error: { kind: 'invalid_input', message: `${field}: ${message}`, issues: [{ field, message }] },
});

export function fakeCatalog(
  count: number,
  patch: (id: number) => Partial<LocalProduct> = () => ({}),
) {
  const products: LocalProduct[] = [];
  for (let id = 1; id <= count; id++) products.push(product(id, patch(id)));
  let nextId = count + 1;
  // While held, saves wait, so a test can see what the grid shows before the core answers.
  let held: Promise<void> = Promise.resolve();
  const hold = (): (() => void) => {
    let release = (): void => undefined;
    held = new Promise((resolve) => (release = resolve));
    return release;
  };
  const transport = new FakeTransport({
    listProducts: (raw) => {
      const input = {
        offset: 0,
        limit: 100,
        sort: 'sku',
        descending: false,
        ...(raw as object),
      } as ListInput;
      const key =
        input.sort === 'price' ? 'priceMinor' : input.sort === 'updated' ? 'updatedAt' : input.sort;
      const search = input.search?.toLowerCase();
      const rows = products
        .filter(
          (p) =>
            !search ||
            p.sku.toLowerCase().includes(search) ||
            p.name.toLowerCase().includes(search),
        )
        .filter((p) => !input.status || p.status === input.status)
        .sort((a, b) => {
          const order = compare(a[key], b[key]) || a.id - b.id;
          return input.descending ? -order : order;
        });
      return ok({ total: rows.length, rows: rows.slice(input.offset, input.offset + input.limit) });
    },
    saveProduct: async (raw) => {
      await held;
      const input = raw as SaveInput;
      const price = decimalToMinor(input.price, 'USD');
      if (!price.ok) return invalid('price', price.reason);
      if (products.some((p) => p.sku === input.sku && p.id !== input.id))
        return invalid('sku', `is taken by another product (${input.sku})`);
      const fields = {
        sku: input.sku,
        name: input.name,
        priceMinor: price.minor,
        stock: input.stock ?? null,
      };
      if (input.id === undefined) {
        const created = product(nextId++, fields);
        products.push(created);
        return ok(created);
      }
      const at = products.findIndex((p) => p.id === input.id);
      if (products[at]!.status === 'published')
        return { ok: false, error: { kind: 'not_allowed', message: 'It is published' } };
      products[at] = { ...products[at]!, ...fields };
      return ok(products[at]);
    },
    queueProducts: (raw) => {
      const { ids } = raw as { ids: number[] };
      for (const id of ids) products.find((p) => p.id === id)!.status = 'queued';
      return ok(ids.map((id) => ({ id, productId: id })));
    },
    deleteProducts: (raw) => {
      const { ids } = raw as { ids: number[] };
      const before = products.length;
      products.splice(0, products.length, ...products.filter((p) => !ids.includes(p.id)));
      return ok({ removed: before - products.length });
    },
    duplicateProduct: (raw) => {
      const original = products.find((p) => p.id === (raw as { id: number }).id)!;
      const copy = { ...original, id: nextId++, sku: `${original.sku}-copy` };
      products.push(copy);
      return ok(copy);
    },
  });
  const shell = new Shell(transport);
  return { products, transport, shell, hold };
}
