import { describe, expect, it } from 'vitest';
import { describeUndone } from '../../shared/domain';

describe('describeUndone', () => {
  it('says what an undo removed, and what it restored when it did', () => {
    expect(describeUndone({ kind: 'posts', removed: 3, restored: 0 })).toBe('3 posts removed');
    expect(describeUndone({ kind: 'products', removed: 2, restored: 1 })).toBe(
      '2 products removed, 1 restored as it was',
    );
    expect(describeUndone({ kind: 'products', removed: 0, restored: 4 })).toBe(
      '0 products removed, 4 restored as they were',
    );
  });
});
