import { describe, expect, it } from 'vitest';
import { describeKept, describeUndone } from '../../shared/domain';

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

describe('describeKept', () => {
  it('names what stayed of a refused import, and nothing otherwise', () => {
    expect(describeKept({ written: false, batch: null, inserted: 0 })).toBeNull();
    expect(describeKept({ written: true, batch: 'batch-1', inserted: 5 })).toBeNull();
    expect(describeKept({ written: false, batch: 'batch-1', inserted: 1 })).toBe(
      '1 item sent to the platform while the import ran stays, in batch batch-1; the rest was taken back',
    );
    expect(describeKept({ written: false, batch: 'batch-2', inserted: 2 })).toBe(
      '2 items sent to the platform while the import ran stay, in batch batch-2; the rest was taken back',
    );
  });
});
