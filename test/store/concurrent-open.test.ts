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

/**
 * Opens and closes each of `files` in a child process, the Nth at `startAt + N * gapMs` (one
 * clock: all run on this machine), so that children given the same files open each together.
 * Answers 'opened', or what the child printed.
 */
function openInChild(files: string[], startAt = 0, gapMs = 0): Promise<string> {
  const script = `import { openWorkspaceDb } from './main/store/db.ts';
const files = JSON.parse(process.env.FILES);
for (let index = 0; index < files.length; index++) {
  const at = Number(process.env.START_AT) + index * Number(process.env.GAP_MS);
  while (Date.now() < at) {}
  openWorkspaceDb(files[index]).close();
}`;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        env: {
          ...process.env,
          FILES: JSON.stringify(files),
          START_AT: String(startAt),
          GAP_MS: String(gapMs),
        },
      },
    );
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve(code === 0 ? 'opened' : output));
  });
}

describe('opening one new workspace file from several processes at once', () => {
  // Many new files, each opened by four processes within a millisecond or so: before, one of
  // them failed with 'database is locked' (switching a new file to WAL does not wait for a
  // lock), or now and then refused the file as not Pressroom's (its checks straddled another's
  // migration; open-interleaved.test.ts makes that happen every time).
  it('migrates it once and opens it in every one', { timeout: 60_000 }, async () => {
    const files = Array.from({ length: 60 }, () =>
      join(mkdtempSync(join(tmpdir(), 'pressroom-open-')), 'workspace.sqlite'),
    );
    // Time for the children to start before the first file's moment.
    const startAt = Date.now() + 3000;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => openInChild(files, startAt, 50)),
    );
    expect(results).toEqual(['opened', 'opened', 'opened', 'opened']);
    for (const file of files) {
      const db = new Database(file, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      db.close();
    }
  });

  it('opens it while other processes close it', { timeout: 60_000 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pressroom-open-')), 'workspace.sqlite');
    // The last connection to close deletes -wal and -shm: opening checks their modes meanwhile.
    const results = await Promise.all(
      Array.from({ length: 4 }, () => openInChild(Array<string>(300).fill(file))),
    );
    expect(results).toEqual(['opened', 'opened', 'opened', 'opened']);
  });
});
