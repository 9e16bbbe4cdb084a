import { describe, expect, it } from 'vitest';
import { headerKey, mapColumns } from '../../main/csv/columns';

describe('mapColumns', () => {
  it('matches headers whatever their case and spacing, through aliases', () => {
    const mapping = mapColumns('products', [
      '\ufeffVariant SKU',
      ' TITLE ',
      'variant_price',
      'Body (HTML)',
      'Vendor',
      'Image Src',
    ]);
    expect(mapping.columns).toEqual({ sku: 0, name: 1, price: 2, description: 3, image_url: 5 });
    expect(mapping.unknown).toEqual(['Vendor']);
    expect(mapping.missing).toEqual([]);
  });

  it('reads a Shopify product export’s header as is', () => {
    const shopify =
      'Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy,Variant Fulfillment Service,Variant Price,Variant Compare At Price,Image Src,Image Position,Status'.split(
        ',',
      );
    const mapping = mapColumns('products', shopify);
    expect(mapping.missing).toEqual([]);
    expect(Object.keys(mapping.columns).sort()).toEqual([
      'description',
      'handle',
      'image_url',
      'name',
      'price',
      'sku',
      'stock',
    ]);
  });

  it('names the required columns that are missing', () => {
    expect(mapColumns('products', ['sku', 'cost']).missing).toEqual(['name', 'price']);
    expect(mapColumns('posts', ['date', 'time']).missing).toEqual(['text']);
  });

  it('keeps the first column of a field and reports a second one', () => {
    const mapping = mapColumns('posts', ['Caption', 'Message', 'Publish at']);
    expect(mapping.columns).toEqual({ text: 0, scheduled_at: 2 });
    expect(mapping.unknown).toEqual(['Message']);
    expect(headerKey(' Publish-At ')).toBe('publishat');
  });
});
