// Processes opening one new workspace file at once (the desktop app beside `publish --watch`, a
// second window) each find it migrated once, by whichever took the write lock first; and one
// opening it while another closes it (which deletes the WAL's side files) opens it all the same.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../main/store/migrations';

/** Opens and closes `file` `times` times in a child process: 'opened', or what it printed. */
function openInChild(file: string, times = 1): Promise<string> {
  const script = `import { openWorkspaceDb } from './main/store/db.ts';
for (let time = 0; time < ${times}; time++) openWorkspaceDb(process.env.FILE).close();`;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        env: { ...process.env, FILE: file },
      },
    );
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve(code === 0 ? 'opened' : output));
  });
}

describe('opening one new workspace file from several processes at once', () => {
  it('migrates it once and opens it in every one', { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const file = join(mkdtempSync(join(tmpdir(), 'pressroom-open-')), 'workspace.sqlite');
      const results = await Promise.all(Array.from({ length: 4 }, () => openInChild(file)));
      expect(results).toEqual(['opened', 'opened', 'opened', 'opened']);
      const db = new Database(file, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      db.close();
    }
  });

  it('opens it while other processes close it', { timeout: 60_000 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pressroom-open-')), 'workspace.sqlite');
    // The last connection to close deletes -wal and -shm: opening checks their modes meanwhile.
    const results = await Promise.all(Array.from({ length: 4 }, () => openInChild(file, 300)));
    expect(results).toEqual(['opened', 'opened', 'opened', 'opened']);
  });
});
