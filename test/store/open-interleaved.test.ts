// Opening a new file while another process migrates it between this opener's checks: found the
// other's tables but not yet its application id, the opener took a Pressroom file for another
// program's (CI, on 8f55980). The other process is played by a second connection that migrates
// the file, committed, right after the first reads the file's id.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';

const between = vi.hoisted(() => ({ run: undefined as (() => void) | undefined }));

vi.mock('better-sqlite3', async (importOriginal) => {
  const { default: Original } = await importOriginal<{ default: typeof Database }>();
  class InterleavedDatabase extends Original {
    override pragma(source: string, options?: Database.PragmaOptions): unknown {
      const answer = super.pragma(source, options);
      if (source === 'application_id' && between.run) {
        const run = between.run;
        between.run = undefined;
        run();
      }
      return answer;
    }
  }
  return { default: InterleavedDatabase };
});

const { openWorkspaceDb, SCHEMA_VERSION } = await import('../../main/store/db');

describe('opening a new workspace file that another opener migrates meanwhile', () => {
  it('opens it, migrated once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pressroom-open-')), 'workspace.sqlite');
    let other: ReturnType<typeof openWorkspaceDb> | undefined;
    between.run = () => (other = openWorkspaceDb(file));
    const db = openWorkspaceDb(file);
    expect(other).toBeDefined();
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(
      db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'settings'").pluck().get(),
    ).toBe(1);
    db.close();
    other?.close();
  });
});
