// Which side may call each operation: the page (over IPC or the web host) or only Pressroom's own
// main-process code. The main-only set is pinned here, so a new operation that reaches a path
// fails until someone decides its side.
import { describe, expect, it } from 'vitest';
import { OPERATION_SIDES, operations } from '../../shared/contract';

const MAIN_ONLY = ['importFile', 'exportFile', 'setMediaHost'];

interface SchemaLike {
  shape?: Record<string, SchemaLike>;
  unwrap?: () => SchemaLike;
}

/** Every field name of an input, nested objects (and nullable or optional ones) included. */
function fieldNames(schema: SchemaLike): string[] {
  const inner = schema.unwrap ? fieldNames(schema.unwrap()) : [];
  const own = Object.entries(schema.shape ?? {}).flatMap(([name, field]) => [
    name,
    ...fieldNames(field),
  ]);
  return [...own, ...inner];
}

describe('operation sides', () => {
  it('keeps every operation that takes a path from the page', () => {
    const mainOnly = Object.entries(OPERATION_SIDES)
      .filter(([, side]) => side === 'main')
      .map(([name]) => name);
    expect(mainOnly.sort()).toEqual(MAIN_ONLY.sort());
    // Any input field named like a path or a file on disk makes an operation main-only.
    for (const [name, schema] of Object.entries(operations)) {
      const fields = fieldNames(schema as unknown as SchemaLike);
      if (fields.some((field) => /path|dir|folder/i.test(field))) expect(MAIN_ONLY).toContain(name);
    }
  });

  it('places every operation on a side, the page’s unless named main-only above', () => {
    expect(Object.keys(OPERATION_SIDES).sort()).toEqual(Object.keys(operations).sort());
    for (const [name, side] of Object.entries(OPERATION_SIDES))
      expect([name, side]).toEqual([name, MAIN_ONLY.includes(name) ? 'main' : 'renderer']);
  });
});
