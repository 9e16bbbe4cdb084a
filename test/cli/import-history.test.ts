// `import list` as a user runs it: past imports with their batch, file, time and counts, and
// which can still be undone with `import undo`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

describe('cli import list', () => {
  it('lists each import newest first, and an undone one as no longer undoable', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-cli-list-'));
    const env = { PRESSROOM_DB: join(folder, 'workspace.sqlite') };
    expect((await runCli(['import', 'list'], env)).stdout).toBe('No imports yet\n');
    writeFileSync(join(folder, 'shop.csv'), 'sku,name,price\nA,Loaf,3.50\nB,Bun,x\n');
    writeFileSync(join(folder, 'week.csv'), 'text\nHello\n');
    const products = await runCli(
      ['import', 'products', join(folder, 'shop.csv'), '--on-error', 'skip', '--json'],
      env,
    );
    const posts = await runCli(['import', 'posts', join(folder, 'week.csv'), '--json'], env);
    const [first, second] = [products, posts].map(
      (run) => (JSON.parse(run.stdout) as { batch: string }).batch,
    );
    await runCli(['import', 'undo', first ?? ''], env);

    const listed = await runCli(['import', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    const batches = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(batches).toEqual([
      expect.objectContaining({
        batch: second,
        kind: 'posts',
        file: 'week.csv',
        inserted: 1,
        undoable: true,
        cannot_undo: null,
      }),
      expect.objectContaining({
        batch: first,
        kind: 'products',
        file: 'shop.csv',
        inserted: 1,
        invalid: 1,
        left_out: 0,
        undoable: false,
        cannot_undo: 'undone already',
      }),
    ]);
    expect(Date.parse(String(batches[0]?.at))).toBeGreaterThan(Date.now() - 60_000);

    const text = (await runCli(['import', 'list'], env)).stdout.split('\n');
    expect(text[0]).toMatch(
      new RegExp(`^${second} .+ posts from week\\.csv: 1 new; undo: import undo ${second}$`),
    );
    expect(text[1]).toMatch(
      new RegExp(
        `^${first} .+ products from shop\\.csv: 1 new, 1 invalid; cannot undo: undone already$`,
      ),
    );
  });
});
