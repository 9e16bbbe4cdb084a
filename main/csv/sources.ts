// Which tool wrote an imported file (Node, main process; pure), told once per file from its
// header row: the wizard names it in the preview, and the shops' product exports get their own
// row reading (./shops.ts). A file without a header row is told by its first row: no cell is a
// known column name, and one is a date. docs/import-formats.md describes each format.
import { FIELDS, headerKey } from './columns';
import type { ColumnOverrides, FieldSpec, ImportKind } from './columns';

export type SourceId =
  'shopify' | 'woocommerce' | 'etsy' | 'hootsuite' | 'metricool' | 'buffer' | 'publer' | 'sprout';

export const SOURCE_LABELS: Record<SourceId, string> = {
  shopify: 'Shopify product export',
  woocommerce: 'WooCommerce product export',
  etsy: 'Etsy listings export',
  hootsuite: 'Hootsuite bulk file',
  metricool: 'Metricool bulk file',
  buffer: 'Buffer bulk file',
  publer: 'Publer bulk file',
  sprout: 'Sprout Social bulk file',
};

/** Each tool's tell-tale columns (header keys): all of one set present names the tool. */
const SIGNATURES: Record<ImportKind, [SourceId, string[][]][]> = {
  products: [
    [
      'shopify',
      [
        ['handle', 'variantsku'],
        ['handle', 'variantprice'],
      ],
    ],
    ['woocommerce', [['type', 'regularprice']]],
    ['etsy', [['title', 'currencycode', 'image1']]],
  ],
  posts: [
    ['metricool', [['pictureurl1'], ['text', 'date', 'time', 'draft', 'shortener']]],
    ['buffer', [['text', 'postingtime']]],
    ['publer', [['link(s)'], ['mediaurl(s)']]],
    ['sprout', [['messagetext', 'time24hr']]],
  ],
};

/** The tool that wrote a file with this header, or null (the columns are matched by name). */
export function detectSource(
  kind: ImportKind,
  header: readonly string[],
  firstRowIsData: boolean,
): SourceId | null {
  if (firstRowIsData) return kind === 'posts' && header.length <= 3 ? 'hootsuite' : null;
  // Publer describes its columns after " - ": "Link(s) - Separated by comma ...".
  const keys = new Set(header.map((cell) => headerKey(cell.split(' - ')[0] ?? '')));
  const found = SIGNATURES[kind].find(([, sets]) =>
    sets.some((set) => set.every((key) => keys.has(key))),
  );
  return found ? found[0] : null;
}

const DATE_TIME = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T]\d{1,2}:\d{2}.*)?$/;
const KNOWN_KEYS = Object.fromEntries(
  (Object.keys(FIELDS) as ImportKind[]).map((kind) => [
    kind,
    new Set(
      Object.values(FIELDS[kind] as Record<string, FieldSpec>).flatMap((spec) =>
        spec.aliases.map((alias) => headerKey(alias)),
      ),
    ),
  ]),
) as Record<ImportKind, Set<string>>;

/**
 * Whether a first row is data rather than a header: none of its cells names a column Pressroom
 * knows, and one holds a date (Hootsuite's bulk file starts with a post's date and time).
 */
export function looksLikeData(kind: ImportKind, cells: readonly string[]): boolean {
  const known = KNOWN_KEYS[kind];
  return (
    !cells.some((cell) => known.has(headerKey(cell))) &&
    cells.some((cell) => DATE_TIME.test(cell.trim()))
  );
}

const POSITIONAL_LAYOUT = [
  ['scheduled_at', 'Column 1'],
  ['text', 'Column 2'],
  ['link', 'Column 3'],
] as const;
/** How many columns the layout of a post file without a header row has. */
export const POSITIONAL_COLUMNS = POSITIONAL_LAYOUT.length;

/**
 * Hootsuite's columns by position: date and time, message, then an optional link. The user's
 * own choices win, and a column they chose is not given to another field.
 */
export function positionalMapping(
  header: readonly string[],
  user: ColumnOverrides = {},
): ColumnOverrides {
  const chosen = new Set(Object.values(user));
  const layout: ColumnOverrides = Object.fromEntries(
    POSITIONAL_LAYOUT.filter(
      ([field, column]) => header.includes(column) && !(field in user) && !chosen.has(column),
    ),
  );
  return { ...layout, ...user };
}
