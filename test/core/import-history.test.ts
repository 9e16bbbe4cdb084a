// The import history on a real Pressroom over a temporary database (Node): each batch with its
// file, time and counts, newest first, and whether (and why not) it can still be undone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { uploaded } from '../support/uploads';
import { call } from '../../main/core/operations';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function pressroom(clock: { now: number }): Workspace {
  const folder = mkdtempSync(join(tmpdir(), 'prs-history-'));
  const core = testWorkspace({ dbFile: join(folder, 'workspace.db'), now: () => clock.now });
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return core;
}

const upload = async (
  core: Workspace,
  kind: 'posts' | 'products',
  fileName: string,
  lines: string[],
) => ({
  kind,
  upload: await uploaded(core, fileName, lines.join('\n')),
  timezone: 'UTC',
  onError: 'skip' as const,
});

describe('the import history', () => {
  it('lists each batch newest first with its file, time, counts and undo, which lasts', async () => {
    const clock = { now: Date.parse('2099-01-01T08:00:00Z') };
    const core = pressroom(clock);
    const posts = await call(
      core,
      'importUpload',
      await upload(core, 'posts', 'week.csv', [
        'text,scheduled_at',
        'Second,2099-01-06 10:00',
        'First,2099-01-05 09:00',
        'Broken,next tuesday',
      ]),
    );
    clock.now += 60_000;
    const products = await call(
      core,
      'importUpload',
      await upload(core, 'products', 'shop.csv', ['sku,name,price', 'A-1,Mug,3.80']),
    );
    expect(call(core, 'listImports', {})).toEqual([
      {
        id: products.batch,
        kind: 'products',
        fileName: 'shop.csv',
        at: clock.now,
        inserted: 1,
        updated: 0,
        unchanged: 0,
        invalid: 0,
        leftOut: 0,
        undoneAt: null,
        cannotUndo: null,
        firstAt: null,
      },
      {
        id: posts.batch,
        kind: 'posts',
        fileName: 'week.csv',
        at: clock.now - 60_000,
        inserted: 2,
        updated: 0,
        unchanged: 0,
        invalid: 1,
        leftOut: 0,
        undoneAt: null,
        cannotUndo: null,
        firstAt: Date.parse('2099-01-05T09:00:00Z'),
      },
    ]);

    clock.now += 60_000;
    call(core, 'undoImport', { batch: posts.batch ?? '' });
    const [, undone] = call(core, 'listImports', {});
    expect(undone).toMatchObject({ undoneAt: clock.now, cannotUndo: 'undone already' });
    expect(call(core, 'listImports', { limit: 1 }).map((batch) => batch.id)).toEqual([
      products.batch,
    ]);
  });

  it('says a batch with an item gone to the platform can no longer be undone', async () => {
    const core = pressroom({ now: Date.parse('2099-01-01T08:00:00Z') });
    const result = await call(
      core,
      'importUpload',
      await upload(core, 'posts', 'week.csv', [
        'text,scheduled_at',
        'One,2099-01-05 09:00',
        'Two,',
      ]),
    );
    const [sent] = core.store.posts.list({}).filter((post) => post.text === 'One');
    core.store.posts.update(sent?.id ?? 0, { status: 'published' });
    const [batch] = call(core, 'listImports', {});
    expect(batch).toMatchObject({
      id: result.batch,
      cannotUndo: '1 of its posts has gone to the platform',
    });
    expect(() => call(core, 'undoImport', { batch: result.batch ?? '' })).toThrow(/undo refused/);
  });
});
