// Product files as other shops' tools write them, through the core. Each file here is written
// from the tool's documented columns (Shopify's product CSV, WooCommerce's product exporter,
// Etsy's listings export), with our own rows; docs/import-formats.md says what is read.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { csvFiles } from '../support/csv-files';
import { call } from '../../main/core/operations';

const { fixture: writeCsv } = csvFiles('shops');
const fixture = (rows: Partial<Record<string, string>>[], header: string[]) => {
  const table = [header, ...rows.map((row) => header.map((column) => row[column] ?? ''))];
  return writeCsv(Papa.unparse(table, { newline: '\r\n' }));
};
const workspace = () => testWorkspace({ now: () => Date.UTC(2026, 10, 22, 12) });
const products = (pressroom: Workspace) =>
  pressroom.store.products
    .list()
    .map((p) => [p.sku, p.name, p.priceMinor, p.currency, p.stock, p.imageUrl]);

/** Shopify's product CSV columns, in the order its template has them. */
const SHOPIFY = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Option3 Name',
  'Option3 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'SEO Title',
  'SEO Description',
  'Variant Image',
  'Variant Weight Unit',
  'Variant Tax Code',
  'Cost per item',
  'Status',
];
const img = (name: string) => `https://cdn.example.com/${name}.jpg`;

describe('Shopify product export', () => {
  const apron = {
    Handle: 'linen-apron',
    Vendor: 'Crumb & Co',
    'Option1 Value': '',
    'Variant Inventory Tracker': 'shopify',
    'Variant Inventory Policy': 'deny',
    'Variant Fulfillment Service': 'manual',
    'Variant Requires Shipping': 'TRUE',
    'Variant Taxable': 'TRUE',
    'Variant Weight Unit': 'kg',
  };
  const rows = [
    {
      ...apron,
      Title: 'Linen Apron',
      'Body (HTML)': '<p>Stone-washed linen.</p>',
      Published: 'TRUE',
      'Option1 Name': 'Colour',
      'Option1 Value': 'Sage',
      'Option2 Name': 'Size',
      'Option2 Value': 'S',
      'Variant SKU': 'APR-SAGE-S',
      'Variant Inventory Qty': '4',
      'Variant Price': '32.00',
      'Variant Compare At Price': '40.00',
      'Image Src': img('apron-front'),
      'Image Position': '1',
      'Variant Image': img('apron-sage'),
      Status: 'active',
    },
    {
      ...apron,
      'Option1 Value': 'Sage',
      'Option2 Value': 'M',
      'Variant SKU': 'APR-SAGE-M',
      'Variant Inventory Qty': '2',
      'Variant Price': '32.00',
      'Image Src': img('apron-back'),
      'Image Position': '2',
      'Variant Image': img('apron-sage'),
    },
    {
      ...apron,
      'Option1 Value': 'Rust',
      'Option2 Value': 'M',
      'Variant SKU': 'APR-RUST-M',
      'Variant Inventory Qty': '0',
      'Variant Price': '34.50',
      'Image Src': img('apron-pocket'),
      'Image Position': '3',
    },
    // An image row: a fourth picture of the apron, no variant.
    { Handle: 'linen-apron', 'Image Src': img('apron-worn'), 'Image Position': '4' },
    {
      Handle: 'bread-tin',
      Title: 'Bread Tin',
      'Option1 Name': 'Title',
      'Option1 Value': 'Default Title',
      'Variant SKU': 'TIN-1',
      'Variant Inventory Qty': '12',
      'Variant Price': '18.00',
      'Image Src': img('tin'),
      'Image Position': '1',
      Status: 'draft',
    },
    { Handle: 'bread-tin', 'Image Src': img('tin-open'), 'Image Position': '2' },
    {
      Handle: 'old-mug',
      Title: 'Old Mug',
      'Option1 Name': 'Title',
      'Option1 Value': 'Default Title',
      'Variant SKU': 'MUG-OLD',
      'Variant Price': '9.00',
      Status: 'archived',
    },
  ];

  it('names variants by their options, pictures them by Variant Image, leaves archived out', async () => {
    const pressroom = workspace();
    call(pressroom, 'saveSettings', { defaultCurrency: 'CAD' });
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(rows, SHOPIFY),
    });
    expect(result).toMatchObject({
      source: 'Shopify product export',
      rows: 4,
      inserted: 4,
      invalid: 0,
      leftOut: [{ rows: 1, reason: 'archived on Shopify' }],
    });
    expect(products(pressroom)).toEqual([
      ['APR-SAGE-S', 'Linen Apron — Sage / S', 3200, 'CAD', 4, img('apron-sage')],
      ['APR-SAGE-M', 'Linen Apron — Sage / M', 3200, 'CAD', 2, img('apron-sage')],
      // No picture of its own: the product's first one, not the row's third.
      ['APR-RUST-M', 'Linen Apron — Rust / M', 3450, 'CAD', 0, img('apron-front')],
      ['TIN-1', 'Bread Tin', 1800, 'CAD', 12, img('tin')],
    ]);
    expect(pressroom.store.products.list()[1]?.description).toBe('<p>Stone-washed linen.</p>');
    // The same file again changes nothing; undo takes the products back.
    const again = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(rows, SHOPIFY),
    });
    expect(again).toMatchObject({ rows: 4, inserted: 0, updated: 0, unchanged: 4 });
    expect(call(pressroom, 'undoImport', { batch: result.batch ?? '' })).toMatchObject({
      removed: 4,
    });
    expect(pressroom.store.products.list()).toEqual([]);
  });

  it('queues active products, but a Shopify draft stays a local draft', async () => {
    const pressroom = workspace();
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path: fixture(rows, SHOPIFY),
      queue: true,
    });
    expect(result.leftOut).toContainEqual({
      rows: 1,
      reason: 'a draft on Shopify: kept as a local draft, not queued',
    });
    const queued = pressroom.store.outbox.list().map((item) => item.productId);
    const skus = pressroom.store.products
      .list()
      .filter((p) => queued.includes(p.id))
      .map((p) => p.sku);
    expect(skus).toEqual(['APR-SAGE-S', 'APR-SAGE-M', 'APR-RUST-M']);
  });
});

/** WooCommerce's product exporter columns (a subset it always writes). */
const WOO = [
  'ID',
  'Type',
  'SKU',
  'Name',
  'Published',
  'Short description',
  'Description',
  'In stock?',
  'Stock',
  'Sale price',
  'Regular price',
  'Categories',
  'Tags',
  'Images',
  'Parent',
  'Grouped products',
  'External URL',
  'Button text',
  'Attribute 1 name',
  'Attribute 1 value(s)',
  'Attribute 1 visible',
  'Attribute 1 global',
];

describe('WooCommerce product export', () => {
  it('imports simple, variation and external rows; counts variable and grouped containers', async () => {
    const pressroom = workspace();
    call(pressroom, 'saveSettings', { defaultCurrency: 'EUR' });
    const path = fixture(
      [
        {
          ID: '10',
          Type: 'simple',
          SKU: 'rye-loaf',
          Name: 'Rye Loaf',
          Published: '1',
          Description: 'Dark and sour.',
          'In stock?': '1',
          Stock: '7',
          'Regular price': '4.20',
          'Sale price': '3.80',
          Images: `${img('rye')}, ${img('rye-cut')}`,
        },
        {
          ID: '11',
          Type: 'variable',
          SKU: 'tote',
          Name: 'Tote Bag',
          'Attribute 1 name': 'Colour',
          'Attribute 1 value(s)': 'Red, Blue',
          Images: img('tote'),
        },
        {
          ID: '12',
          Type: 'variation',
          SKU: 'tote-red',
          Name: 'Tote Bag - Red',
          Stock: '3',
          'Regular price': '12',
          Parent: 'tote',
          'Attribute 1 name': 'Colour',
          'Attribute 1 value(s)': 'Red',
          Images: img('tote-red'),
        },
        {
          ID: '13',
          Type: 'variation',
          SKU: 'tote-blue',
          Name: 'Tote Bag - Blue',
          'Regular price': '12',
          Parent: 'id:11',
        },
        {
          ID: '14',
          Type: 'grouped',
          SKU: 'breakfast',
          Name: 'Breakfast Set',
          'Grouped products': 'rye-loaf, jam',
        },
        {
          ID: '15',
          Type: 'external',
          SKU: 'cookbook',
          Name: 'The Baker’s Book',
          'Regular price': '29.90',
          'External URL': 'https://books.example.com/baker',
          'Button text': 'Buy the book',
        },
      ],
      WOO,
    );
    const result = await call(pressroom, 'importFile', { kind: 'products', path });
    expect(result).toMatchObject({
      source: 'WooCommerce product export',
      rows: 4,
      inserted: 4,
      invalid: 0,
      leftOut: [
        {
          rows: 1,
          reason: 'a WooCommerce variable product: a container, its variations are the products',
        },
        {
          rows: 1,
          reason: 'a WooCommerce grouped product: a container, its products are rows of their own',
        },
      ],
    });
    expect(products(pressroom)).toEqual([
      ['rye-loaf', 'Rye Loaf', 420, 'EUR', 7, img('rye')],
      ['tote-red', 'Tote Bag - Red', 1200, 'EUR', 3, img('tote-red')],
      ['tote-blue', 'Tote Bag - Blue', 1200, 'EUR', null, null],
      ['cookbook', 'The Baker’s Book', 2990, 'EUR', null, null],
    ]);
  });
});

/** Etsy's listings export columns. */
const ETSY = [
  'TITLE',
  'DESCRIPTION',
  'PRICE',
  'CURRENCY_CODE',
  'QUANTITY',
  'TAGS',
  'MATERIALS',
  'IMAGE1',
  'IMAGE2',
  'IMAGE3',
  'VARIATION 1 TYPE',
  'VARIATION 1 NAME',
  'VARIATION 1 VALUES',
  'SKU',
];

describe('Etsy listings export', () => {
  const listings = [
    {
      TITLE: 'Hand-thrown bowl',
      DESCRIPTION: 'Stoneware, glazed in moss green.',
      PRICE: '28.00',
      CURRENCY_CODE: 'GBP',
      QUANTITY: '3',
      TAGS: 'bowl,ceramic',
      IMAGE1: img('bowl'),
      IMAGE2: img('bowl-side'),
      SKU: 'BOWL-MOSS',
    },
    {
      TITLE: 'Sourdough starter kit',
      PRICE: '15.50',
      CURRENCY_CODE: 'GBP',
      QUANTITY: '10',
      IMAGE1: img('kit'),
      SKU: '',
    },
  ];

  it('prices in CURRENCY_CODE, stocks QUANTITY, and says how to give a listing a SKU', async () => {
    const pressroom = workspace();
    const path = fixture(listings, ETSY);
    const result = await call(pressroom, 'importFile', { kind: 'products', path, onError: 'skip' });
    expect(result).toMatchObject({ source: 'Etsy listings export', inserted: 1, invalid: 1 });
    expect(result.errors).toEqual([
      {
        row: 3,
        column: 'SKU',
        value: '',
        message:
          'This Etsy listing has no SKU, and Pressroom tells products apart by SKU: give it one in Etsy (the listing’s Inventory and pricing) and export again, or type one in this SKU cell',
      },
    ]);
    expect(products(pressroom)).toEqual([
      ['BOWL-MOSS', 'Hand-thrown bowl', 2800, 'GBP', 3, img('bowl')],
    ]);
  });

  it('reads each currency column name importers use', async () => {
    const pressroom = workspace();
    for (const header of ['currency', 'currency_code', 'Currency Code', 'CURRENCY_CODE']) {
      const path = fixture(
        [{ sku: header, name: 'Jar', price: '5', [header]: 'JPY' }],
        ['sku', 'name', 'price', header],
      );
      await call(pressroom, 'importFile', { kind: 'products', path });
    }
    expect(pressroom.store.products.list().map((p) => [p.sku, p.priceMinor, p.currency])).toEqual(
      ['currency', 'currency_code', 'Currency Code', 'CURRENCY_CODE'].map((sku) => [sku, 5, 'JPY']),
    );
  });
});

describe('a file without a currency column', () => {
  it('takes the workspace’s currency, as Settings shows it', async () => {
    const pressroom = workspace();
    call(pressroom, 'saveSettings', { defaultCurrency: 'SEK' });
    const path = fixture([{ sku: 'A', name: 'Bun', price: '25' }], ['sku', 'name', 'price']);
    await call(pressroom, 'importFile', { kind: 'products', path });
    expect(pressroom.settings.getSettings().defaultCurrency).toBe('SEK');
    expect(pressroom.store.products.list()[0]).toMatchObject({ priceMinor: 2500, currency: 'SEK' });
  });
});
