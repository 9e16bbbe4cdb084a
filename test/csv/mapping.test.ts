// The import wizard's column choices over the matching by name (main/csv/columns.ts, Node).
import { describe, expect, it } from 'vitest';
import { MappingError, mapColumns } from '../../main/csv/columns';

const issuesOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof MappingError) return error.issues;
    throw error;
  }
  throw new Error('expected a MappingError');
};

describe('column overrides', () => {
  it('reads a field from the chosen header and matches the rest by name', () => {
    const mapping = mapColumns('posts', ['Words', 'Publish at', 'Notes'], { text: 'Words' });
    expect(mapping.columns).toEqual({ text: 0, scheduled_at: 1 });
    expect(mapping.unknown).toEqual(['Notes']);
    expect(mapping.missing).toEqual([]);
  });

  it('leaves a field out when it is mapped to null, reporting its column as ignored', () => {
    const mapping = mapColumns('posts', ['text', 'bot'], { bot: null });
    expect(mapping.columns).toEqual({ text: 0 });
    expect(mapping.unknown).toEqual(['bot']);
    expect(mapColumns('posts', ['text'], { text: null }).missing).toEqual(['text']);
  });

  it('never matches a header the user chose for one field to another by name', () => {
    const mapping = mapColumns('products', ['sku', 'name', 'price', 'title'], {
      name: 'title',
      description: 'name',
    });
    expect(mapping.columns).toEqual({ sku: 0, name: 3, price: 2, description: 1 });
    expect(mapping.unknown).toEqual([]);
  });

  it('refuses an unknown header, a header chosen twice, an ambiguous header and an unknown field', () => {
    expect(issuesOf(() => mapColumns('posts', ['text'], { text: 'Body' }))).toEqual([
      { field: 'mapping.text', message: '"Body" is not a column of this file' },
    ]);
    expect(issuesOf(() => mapColumns('posts', ['a', 'b'], { text: 'a', bot: 'a' }))).toEqual([
      { field: 'mapping.bot', message: '"a" is already chosen for text' },
    ]);
    expect(issuesOf(() => mapColumns('posts', ['a', 'a'], { text: 'a' }))).toEqual([
      {
        field: 'mapping.text',
        message: '"a" names more than one column of this file; rename one of them',
      },
    ]);
    const [unknown] = issuesOf(() => mapColumns('products', ['sku'], { colour: 'sku' }));
    expect(unknown?.field).toBe('mapping.colour');
    expect(unknown?.message).toMatch(/^is not a field of products \(they are sku, name, price/);
  });

  it('says every problem at once in its message', () => {
    expect(() => mapColumns('posts', ['a'], { text: 'x', bot: 'y' })).toThrow(
      'mapping.text: "x" is not a column of this file; mapping.bot: "y" is not a column of this file',
    );
  });
});
