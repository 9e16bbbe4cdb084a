// Every list a caller may send is bounded by the contract, so no input can make the core hold (or
// build SQL for) an unbounded number of items; an oversized one is refused, naming its limit.
import { describe, expect, it } from 'vitest';
import { MAX_SELECTION, operations } from '../../shared/contract';
import { validate } from '../../main/core/input';
import { InvalidInput } from '../../main/core/errors';

interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  in?: { _zod: { def: Def } };
  out?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  options?: { _zod: { def: Def } }[];
  keyType?: { _zod: { def: Def } };
  valueType?: { _zod: { def: Def } };
  checks?: { _zod: { def: { check: string } } }[];
}

/** The path of every array in a schema that has no maximum length. */
function unboundedArrays(def: Def, path: string): string[] {
  const at = (child: { _zod: { def: Def } } | undefined, name = path) =>
    child ? unboundedArrays(child._zod.def, name) : [];
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([name, field]) =>
        at(field, `${path}.${name}`),
      );
    case 'array': {
      const bounded = (def.checks ?? []).some((check) => check._zod.def.check === 'max_length');
      return [...(bounded ? [] : [path]), ...at(def.element, `${path}[]`)];
    }
    case 'record':
      return [...at(def.keyType, `${path}{key}`), ...at(def.valueType, `${path}{}`)];
    case 'union':
      return (def.options ?? []).flatMap((option) => at(option));
    case 'pipe':
      return [...at(def.in), ...at(def.out)];
    default:
      return at(def.innerType);
  }
}

function refusal(operation: keyof typeof operations, input: unknown) {
  try {
    validate(operation, input);
  } catch (error) {
    if (error instanceof InvalidInput) return error.issues;
    throw error;
  }
  throw new Error(`${operation} took the input`);
}

describe('contract bounds', () => {
  it('gives every array of every operation a maximum length', () => {
    const found = Object.entries(operations).flatMap(([name, schema]) =>
      unboundedArrays((schema as unknown as { _zod: { def: Def } })._zod.def, name),
    );
    expect(found).toEqual([]);
  });

  it('refuses an oversized list with an error naming the limit', () => {
    const states = Array.from({ length: 1000 }, () => 'queued');
    expect(refusal('listQueue', { states })).toEqual([
      { field: 'states', message: expect.stringMatching(/at most \d+/) },
    ]);
    const ids = Array.from({ length: MAX_SELECTION + 1 }, (_, index) => index + 1);
    expect(refusal('deleteProducts', { ids })).toEqual([
      { field: 'ids', message: `choose at most ${MAX_SELECTION.toLocaleString('en')} products` },
    ]);
    expect(refusal('queueProducts', { ids })).toEqual([
      { field: 'ids', message: `choose at most ${MAX_SELECTION.toLocaleString('en')} products` },
    ]);
    // Exactly the limit is taken.
    expect(validate('deleteProducts', { ids: ids.slice(1) }).ids).toHaveLength(MAX_SELECTION);
  });

  it('bounds the column mapping of an import', () => {
    const mapping = Object.fromEntries(
      Array.from({ length: 5000 }, (_, index) => [`column ${index}`, null]),
    );
    expect(refusal('importFile', { kind: 'products', path: '/tmp/x.csv', mapping })).toMatchObject([
      { field: 'mapping', message: expect.stringMatching(/at most/) },
    ]);
  });
});
