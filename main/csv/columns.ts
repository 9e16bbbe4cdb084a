// Which spreadsheet column is which field (Node, main process; pure). Header names match
// whatever their letter case and spacing, with the aliases real exports use (Shopify among them);
// the import wizard's choices, when given, override that matching.
import { summarizeIssues } from '../../shared/validation';
import type { FieldIssue } from '../../shared/validation';

export type ImportKind = 'posts' | 'products';

export interface FieldSpec {
  aliases: readonly string[];
  required: boolean;
  /**
   * Numbered columns of it ("Picture Url 1", "Picture Url 2", ...) are all read, in order: the
   * first as the field's column, the others as its `extra` columns.
   */
  numbered?: boolean;
}

// The aliases are the column names of the tools docs/import-formats.md lists.
export const FIELDS = {
  posts: {
    text: {
      aliases: ['text', 'content', 'message', 'body', 'caption', 'message_text', 'post'],
      required: true,
    },
    scheduled_at: {
      aliases: ['scheduled_at', 'publish_at', 'posting time', 'scheduled time', 'date and time'],
      required: false,
    },
    date: { aliases: ['date'], required: false },
    time: { aliases: ['time', 'time_24hr'], required: false },
    timezone: { aliases: ['timezone', 'time_zone', 'zone'], required: false },
    bot: { aliases: ['bot', 'bot_id', 'channel'], required: false },
    media_urls: {
      aliases: [
        'media_urls',
        'media',
        'media url',
        'image url',
        'image urls',
        'images',
        'image',
        'picture url',
        'pictures',
        'picture',
        'photo url',
        'photos',
        'photo',
      ],
      required: false,
      numbered: true,
    },
    // Posts have no link of their own: a link is added to the end of the text.
    link: { aliases: ['link', 'links', 'link url', 'url'], required: false },
    draft: { aliases: ['draft'], required: false },
  },
  products: {
    sku: { aliases: ['sku', 'variant sku'], required: true },
    name: { aliases: ['name', 'title'], required: true },
    price: { aliases: ['price', 'variant price', 'regular price'], required: true },
    currency: { aliases: ['currency', 'currency_code'], required: false },
    description: { aliases: ['description', 'body (html)'], required: false },
    stock: { aliases: ['stock', 'variant inventory qty', 'quantity'], required: false },
    image_url: { aliases: ['image_url', 'image src', 'image1', 'images'], required: false },
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

/**
 * The header without what some tools add to it: a description after " - " and a plural "(s)"
 * (Publer's "Media URL(s) - Separated by comma" is "media url").
 */
function looseKey(header: string): string {
  return headerKey(header.split(' - ')[0]?.replace(/\(s\)/gi, '') ?? '');
}

export interface ColumnMapping<K extends ImportKind> {
  /** Column index of each field found. */
  columns: Partial<Record<FieldName<K>, number>>;
  /** The further numbered columns of a `numbered` field, in file order. */
  extra: Partial<Record<FieldName<K>, number[]>>;
  /** Headers that match no field, in file order; they are ignored. */
  unknown: string[];
  /** Required fields with no column: the import cannot start. */
  missing: FieldName<K>[];
}

/** The user's choice for some fields: the header to read each from, or null to leave it out. */
export type ColumnOverrides = Readonly<Record<string, string | null>>;

/** An override that names no field, no column of the file, or a column chosen twice. */
export class MappingError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(summarizeIssues(issues));
  }
}

/** Each overridden field's column index (null: not imported); throws MappingError. */
function chosenColumns<K extends ImportKind>(
  kind: K,
  headers: readonly string[],
  overrides: ColumnOverrides,
): Map<FieldName<K>, number | null> {
  const names = Object.keys(FIELDS[kind]);
  const chosen = new Map<FieldName<K>, number | null>();
  const chosenBy = new Map<number, string>();
  const issues: FieldIssue[] = [];
  for (const [field, header] of Object.entries(overrides)) {
    const issue = (message: string) => issues.push({ field: `mapping.${field}`, message });
    if (!names.includes(field)) {
      issue(`is not a field of ${kind} (they are ${names.join(', ')})`);
      continue;
    }
    if (header === null) {
      chosen.set(field as FieldName<K>, null);
      continue;
    }
    const index = headers.indexOf(header);
    if (index === -1) issue(`"${header}" is not a column of this file`);
    // By name alone a repeated header is ambiguous, so the user must rename one in the file.
    else if (headers.indexOf(header, index + 1) !== -1)
      issue(`"${header}" names more than one column of this file; rename one of them`);
    else if (chosenBy.has(index)) issue(`"${header}" is already chosen for ${chosenBy.get(index)}`);
    else {
      chosenBy.set(index, field);
      chosen.set(field as FieldName<K>, index);
    }
  }
  if (issues.length > 0) throw new MappingError(issues);
  return chosen;
}

/**
 * Matches headers to fields by name and alias; `overrides` (field → header, or null) win, and a
 * header the user chose for one field is never matched to another by name.
 */
export function mapColumns<K extends ImportKind>(
  kind: K,
  headers: readonly string[],
  overrides: ColumnOverrides = {},
): ColumnMapping<K> {
  const fields = FIELDS[kind] as Record<FieldName<K>, FieldSpec>;
  const chosen = chosenColumns(kind, headers, overrides);
  const byKey = new Map<string, FieldName<K>>();
  for (const [field, spec] of Object.entries(fields) as [FieldName<K>, FieldSpec][]) {
    for (const alias of spec.aliases) byKey.set(headerKey(alias), field);
  }
  const columns: Partial<Record<FieldName<K>, number>> = {};
  const extra: Partial<Record<FieldName<K>, number[]>> = {};
  for (const [field, index] of chosen) if (index !== null) columns[field] = index;
  const taken = new Set(Object.values(columns));
  const unknown: string[] = [];
  headers.forEach((header, index) => {
    if (taken.has(index)) return;
    const loose = looseKey(header);
    const numbered = byKey.get(loose.replace(/\d+$/, ''));
    const field =
      byKey.get(headerKey(header)) ??
      byKey.get(loose) ??
      (numbered && fields[numbered].numbered ? numbered : undefined);
    const free = field !== undefined && !chosen.has(field);
    // The first column of a field wins; a second one with the same meaning is reported, not
    // merged, unless the field reads numbered columns.
    if (free && columns[field] === undefined) columns[field] = index;
    else if (free && fields[field].numbered) (extra[field] ??= []).push(index);
    else if (header.trim() !== '') unknown.push(header);
  });
  const missing = (Object.entries(fields) as [FieldName<K>, FieldSpec][])
    .filter(([field, spec]) => spec.required && columns[field] === undefined)
    .map(([field]) => field);
  return { columns, extra, unknown, missing };
}
