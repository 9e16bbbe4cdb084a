// The import wizard's calls on a real Pressroom over a temporary database (Node): a column
// mapping the user chose, honoured by the preview's dry run and by the import, and the bad rows
// handed back as a CSV file that imports once fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInput } from '../../main/core/errors';
import { testWorkspace } from '../support/workspace';
import type { Workspace } from '../../main/core/workspace';
import { badRowsOf, uploaded } from '../support/uploads';
import { call } from '../../main/core/operations';
import { rejectedBy } from '../support/calls';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function pressroom(): Workspace {
  const folder = mkdtempSync(join(tmpdir(), 'prs-wizard-'));
  const core = testWorkspace({ dbFile: join(folder, 'workspace.db') });
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return core;
}

const upload = async (core: Workspace, csv: string) => ({
  kind: 'posts' as const,
  upload: await uploaded(core, 'calendar.csv', csv),
  timezone: 'UTC',
});

const CSV = [
  'Words,When,Zone,Notes',
  'Hello,2099-01-05 09:00,Europe/Berlin,first',
  'Broken,next tuesday,Europe/Berlin,second',
  'Later,2099-01-06 10:00,Mars/Olympus,third',
].join('\n');

describe('the import wizard on the core', () => {
  it('cannot import the file as matched by name, and says which field has no column', async () => {
    const core = pressroom();
    const preview = await call(core, 'previewUpload', await upload(core, CSV));
    expect(preview.mapping).toEqual({ Words: null, When: null, Zone: 'timezone', Notes: null });
    expect(preview.result).toBeNull();
    expect(preview.problem).toMatch(/^calendar\.csv has no "text" column/);
  });

  it('previews with the user’s mapping: the dry run reads the chosen columns', async () => {
    const core = pressroom();
    const preview = await call(core, 'previewUpload', {
      ...(await upload(core, CSV)),
      mapping: { text: 'Words', scheduled_at: 'When', timezone: null },
    });
    expect(preview.problem).toBeNull();
    // Zone is left out, so the import's own zone (UTC) applies and Mars/Olympus is no error.
    expect(preview.mapping).toEqual({
      Words: 'text',
      When: 'scheduled_at',
      Zone: null,
      Notes: null,
    });
    expect(preview.result).toMatchObject({ rows: 3, invalid: 1, written: false });
    expect(preview.result?.errors).toEqual([
      expect.objectContaining({ row: 3, column: 'When', value: 'next tuesday' }),
    ]);
    expect(preview.result?.unknownColumns).toEqual(['Zone', 'Notes']);
    expect((await badRowsOf(core, preview.result)).split('\r\n')[0]).toBe(
      'Words,When,Zone,Notes,error',
    );
    expect(core.store.posts.list()).toHaveLength(0);
  });

  it('refuses a mapping that names a column the file lacks, or one column twice', async () => {
    const core = pressroom();
    expect(
      await rejectedBy(
        call(core, 'previewUpload', { ...(await upload(core, CSV)), mapping: { text: 'Body' } }),
      ),
    ).toMatchObject({
      constructor: InvalidInput,
      issues: [{ field: 'mapping.text', message: '"Body" is not a column of this file' }],
    });
    await expect(
      call(core, 'importUpload', {
        ...(await upload(core, CSV)),
        mapping: { text: 'Words', bot: 'Words' },
      }),
    ).rejects.toThrow('mapping.bot: "Words" is already chosen for text');
    expect(core.store.posts.list()).toHaveLength(0);
  });

  it('imports with the mapping, then imports the fixed bad rows file the same way', async () => {
    const core = pressroom();
    const mapping = { text: 'Words', scheduled_at: 'When' };
    const first = await call(core, 'importUpload', {
      ...(await upload(core, CSV)),
      mapping,
      onError: 'skip',
    });
    expect(first).toMatchObject({ inserted: 1, invalid: 2, written: true });
    const badRows = await badRowsOf(core, first);
    const lines = badRows.trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      /^Broken,next tuesday,Europe\/Berlin,second,"When: ""next tuesday"" is not a date/,
    );
    expect(lines[2]).toMatch(
      /^Later,2099-01-06 10:00,Mars\/Olympus,third,"Zone: ""Mars\/Olympus"" is not an IANA/,
    );

    const fixed = badRows
      .replace('next tuesday', '2099-01-07 08:00')
      .replace('Mars/Olympus', 'Asia/Tokyo');
    const second = await call(core, 'importUpload', { ...(await upload(core, fixed)), mapping });
    expect(second).toMatchObject({ inserted: 2, invalid: 0, written: true, badRowsFile: null });
    expect(second.unknownColumns).toEqual(['Notes', 'error']);
    expect(
      core.store.posts
        .list()
        .map((post) => post.text)
        .sort(),
    ).toEqual(['Broken', 'Hello', 'Later']);
  });
});
