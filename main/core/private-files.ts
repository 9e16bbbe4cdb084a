// Files the core keeps for its caller for a while (Node, main process): files the page uploaded,
// and the bad rows of imports. Each lives in a private temporary folder under a random id (the
// page names a file by its id, never by a path), at most `keep` of them (the oldest go first),
// and all go when the workspace closes. A folder is named after the process that made it, so
// what a process that ended without closing (a crash, a kill at shutdown) left there, often the
// user's own CSV files, goes the next time one is made: Windows never empties its temporary
// folder.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const FOLDER_OF_PROCESS = /^pressroom-files-(\d+)-[A-Za-z0-9]{6}$/;
/** The temporary folders (TMPDIR may change) this process has already cleared. */
const cleared = new Set<string>();

/** Whether process `pid` runs, this user's or another's (which answers EPERM). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes from `parent` the folders of processes no longer running; one that cannot go stays. */
function removeLeftFolders(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(FOLDER_OF_PROCESS.exec(name)?.[1] ?? 0);
    if (pid === 0 || pid === process.pid || isRunning(pid)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // Another user's, or a file held open (Windows): it is tried again next time.
    }
  }
}

/**
 * A new temporary folder readable by this user only (mkdtemp makes it 0700), named after this
 * process; the first one a process makes also removes those of processes no longer running.
 */
export function privateTemporaryFolder(): string {
  const parent = tmpdir();
  if (!cleared.has(parent)) {
    cleared.add(parent);
    removeLeftFolders(parent);
  }
  return mkdtempSync(join(parent, `pressroom-files-${process.pid}-`));
}

export class PrivateFiles {
  private folder: string | null = null;
  /** Id → path, oldest first. */
  private readonly files = new Map<string, string>();

  constructor(private readonly keep: number) {}

  /** A new file's path, named `name` (the user's own file name), and its id. */
  async create(name: string): Promise<{ id: string; path: string }> {
    this.folder ??= privateTemporaryFolder();
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
