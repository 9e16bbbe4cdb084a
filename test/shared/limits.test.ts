// One limit per field: the contract, the CSV import and the reference server accept the same
// longest value and refuse one character more.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { messageCreate, postCreate, productCreate } from '../../main/reference-server/schemas';
import { operations } from '../../shared/contract';
import { LIMITS } from '../../shared/limits';
import { call } from '../../main/core/operations';

const folder = mkdtempSync(join(tmpdir(), 'pressroom-limits-'));
const long = (length: number) => 'x'.repeat(length);

/** Whether the CSV import takes a file with this one row. */
async function imports(kind: 'posts' | 'products', header: string, row: string[]) {
  const pressroom = testWorkspace();
  const path = join(folder, `${kind}-${row.join('').length}.csv`);
  writeFileSync(path, `${header}\n${row.map((cell) => `"${cell}"`).join(',')}\n`);
  const result = await call(pressroom, 'importFile', { kind, path });
  return result.invalid === 0;
}

describe('field limits', () => {
  it.each([
    ['productDescription', LIMITS.productDescription],
    ['productDescription', LIMITS.productDescription + 1],
  ] as const)('%s of %i characters: every boundary agrees', async (_field, length) => {
    const fits = length <= LIMITS.productDescription;
    const product = { sku: 'A', name: 'Loaf', price: '1.00', currency: 'EUR' };
    expect(
      operations.saveProduct.safeParse({ ...product, description: long(length) }).success,
    ).toBe(fits);
    expect(productCreate.safeParse({ ...product, description: long(length) }).success).toBe(fits);
    expect(
      await imports('products', 'sku,name,price,currency,description', [
        'A',
        'Loaf',
        '1.00',
        'EUR',
        long(length),
      ]),
    ).toBe(fits);
  });

  it.each([LIMITS.postText, LIMITS.postText + 1])(
    'post text of %i characters: every boundary agrees',
    async (length) => {
      const fits = length <= LIMITS.postText;
      expect(operations.addPost.safeParse({ text: long(length) }).success).toBe(fits);
      expect(postCreate.safeParse({ bot_id: 'bot_1', text: long(length) }).success).toBe(fits);
      expect(messageCreate.safeParse({ text: long(length) }).success).toBe(fits);
      expect(await imports('posts', 'text', [long(length)])).toBe(fits);
    },
  );
});
