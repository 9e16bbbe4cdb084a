// Which spreadsheet column is which field (Node, main process; pure). Header names match
// whatever their letter case and spacing, with the aliases real exports use (Shopify among them).

export type ImportKind = 'posts' | 'products';

interface FieldSpec {
  aliases: readonly string[];
  required: boolean;
}

export const FIELDS = {
  posts: {
    text: { aliases: ['text', 'content', 'message', 'body', 'caption'], required: true },
    scheduled_at: { aliases: ['scheduled_at', 'publish_at'], required: false },
    date: { aliases: ['date'], required: false },
    time: { aliases: ['time'], required: false },
    timezone: { aliases: ['timezone', 'time_zone', 'zone'], required: false },
    bot: { aliases: ['bot', 'bot_id', 'channel'], required: false },
    media_urls: { aliases: ['media_urls', 'media'], required: false },
  },
  products: {
    sku: { aliases: ['sku', 'variant sku'], required: true },
    name: { aliases: ['name', 'title'], required: true },
    price: { aliases: ['price', 'variant price'], required: true },
    currency: { aliases: ['currency'], required: false },
    description: { aliases: ['description', 'body (html)'], required: false },
    stock: { aliases: ['stock', 'variant inventory qty'], required: false },
    image_url: { aliases: ['image_url', 'image src'], required: false },
    // Shopify: variant and image rows of one product share its handle; only the first has a title.
    handle: { aliases: ['handle'], required: false },
  },
} as const satisfies Record<ImportKind, Record<string, FieldSpec>>;

export type FieldName<K extends ImportKind> = keyof (typeof FIELDS)[K] & string;

/** "Variant SKU", "variant_sku" and " VARIANT  sku " are the same header. */
export function headerKey(header: string): string {
  return header
    .replace(/^\ufeff/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

export interface ColumnMapping<K extends ImportKind> {
  /** Column index of each field found. */
  columns: Partial<Record<FieldName<K>, number>>;
  /** Headers that match no field, in file order; they are ignored. */
  unknown: string[];
  /** Required fields with no column: the import cannot start. */
  missing: FieldName<K>[];
}

export function mapColumns<K extends ImportKind>(
  kind: K,
  headers: readonly string[],
): ColumnMapping<K> {
  const fields = FIELDS[kind] as Record<FieldName<K>, FieldSpec>;
  const byKey = new Map<string, FieldName<K>>();
  for (const [field, spec] of Object.entries(fields) as [FieldName<K>, FieldSpec][]) {
    for (const alias of spec.aliases) byKey.set(headerKey(alias), field);
  }
  const columns: Partial<Record<FieldName<K>, number>> = {};
  const unknown: string[] = [];
  headers.forEach((header, index) => {
    const field = byKey.get(headerKey(header));
    // The first column of a field wins; a second one with the same meaning is reported, not merged.
    if (field !== undefined && columns[field] === undefined) columns[field] = index;
    else if (header.trim() !== '') unknown.push(header);
  });
  const missing = (Object.entries(fields) as [FieldName<K>, FieldSpec][])
    .filter(([field, spec]) => spec.required && columns[field] === undefined)
    .map(([field]) => field);
  return { columns, unknown, missing };
}
