// Prepared statements are kept for reuse, but never without bound: SQL whose text depends on an
// input (or a caller that builds many texts) must not grow the process's memory forever.
import { describe, expect, it } from 'vitest';
import { OUTBOX_STATES } from '../../shared/domain';
import { WorkspaceStore } from '../../main/store';
import { MAX_STATEMENTS, cachedStatements, statement } from '../../main/store/statements';

describe('statement cache', () => {
  it('keeps at most MAX_STATEMENTS statements, the least recently used going first', () => {
    const store = WorkspaceStore.open(':memory:', () => 0);
    const db = store.db;
    const kept = statement(db, 'SELECT 1 AS kept');
    for (let index = 0; index < MAX_STATEMENTS * 3; index++) {
      statement(db, `SELECT ${index} AS n`).get();
      // Used all along, so never the least recently used.
      expect(statement(db, 'SELECT 1 AS kept')).toBe(kept);
    }
    expect(cachedStatements(db)).toBeLessThanOrEqual(MAX_STATEMENTS);
    store.close();
  });

  it('lists the queue by any set of states with one statement', () => {
    const store = WorkspaceStore.open(':memory:', () => 0);
    store.outbox.rows(undefined, 10);
    store.outbox.rows(['queued'], 10);
    const before = cachedStatements(store.db);
    for (let length = 1; length <= OUTBOX_STATES.length; length++)
      for (let repeat = 0; repeat < 50; repeat++)
        store.outbox.rows(
          Array.from(
            { length },
            (_, index) => OUTBOX_STATES[(index + repeat) % OUTBOX_STATES.length]!,
          ),
          10,
        );
    expect(cachedStatements(store.db)).toBe(before);
    store.close();
  });
});
