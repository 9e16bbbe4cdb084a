// Files the core keeps for its caller for a while (Node, main process): files the page uploaded,
// and the bad rows of imports. Each lives in a private temporary folder under a random id (the
// page names a file by its id, never by a path), at most `keep` of them (the oldest go first),
// and all go when the workspace closes.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export class PrivateFiles {
  private folder: string | null = null;
  /** Id → path, oldest first. */
  private readonly files = new Map<string, string>();

  constructor(private readonly keep: number) {}

  /** A new file's path, named `name` (the user's own file name), and its id. */
  async create(name: string): Promise<{ id: string; path: string }> {
    // mkdtemp makes the folder readable by this user only (0700).
    this.folder ??= mkdtempSync(join(tmpdir(), 'pressroom-'));
    const id = randomBytes(12).toString('base64url');
    const folder = join(this.folder, id);
    await mkdir(folder, { mode: 0o700 });
    const path = join(folder, basename(name) || 'file.csv');
    this.files.set(id, path);
    for (const oldest of this.files.keys()) {
      if (this.files.size <= this.keep) break;
      await this.remove(oldest);
    }
    return { id, path };
  }

  /** The path of file `id`, or null when it is not (or no longer) kept. */
  path(id: string): string | null {
    return this.files.get(id) ?? null;
  }

  async remove(id: string): Promise<void> {
    const path = this.files.get(id);
    if (path === undefined) return;
    this.files.delete(id);
    await rm(join(path, '..'), { recursive: true, force: true });
  }

  close(): void {
    if (this.folder !== null) rmSync(this.folder, { recursive: true, force: true });
    this.folder = null;
    this.files.clear();
  }
}
