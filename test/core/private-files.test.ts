// The core's private temporary files (Node): each process's folder is named after it, goes when
// the workspace closes, and what a process that ended without closing left behind goes the next
// time a folder is made, never a running process's.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PrivateFiles } from '../../main/core/private-files';

const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

/** A temporary folder of the test's own, as os.tmpdir() answers until the test ends. */
function ownTemporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'prs-private-'));
  const before = { TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP };
  Object.assign(process.env, { TMPDIR: folder, TEMP: folder, TMP: folder });
  restore.push(() => Object.assign(process.env, before));
  return folder;
}

/** A folder as a Pressroom process `pid` would have left it, with a user's file in it. */
function leftBy(parent: string, pid: number, suffix: string): string {
  const folder = join(parent, `pressroom-files-${pid}-${suffix}`);
  mkdirSync(join(folder, 'id'), { recursive: true });
  writeFileSync(join(folder, 'id', 'customers.csv'), 'sku,name\nA-1,Apron\n');
  return folder;
}

function runningChild(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
  restore.push(() => child.kill());
  return child;
}

describe('private files', () => {
  it('keeps them in a folder of this process, readable by this user only, gone on close', async () => {
    const parent = ownTemporaryFolder();
    const files = new PrivateFiles(2);
    const { path } = await files.create('products.csv');
    writeFileSync(path, 'sku\n');
    const [folder] = readdirSync(parent);
    expect(folder).toMatch(new RegExp(`^pressroom-files-${process.pid}-[A-Za-z0-9]{6}$`));
    expect(path.startsWith(join(parent, folder ?? ''))).toBe(true);
    if (process.platform !== 'win32')
      expect(statSync(join(parent, folder ?? '')).mode & 0o777).toBe(0o700);
    files.close();
    expect(readdirSync(parent)).toEqual([]);
  });

  it('removes what ended processes left, and keeps a running process’s and other folders', async () => {
    const parent = ownTemporaryFolder();
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    const running = runningChild().pid ?? 0;
    const endedFolder = leftBy(parent, ended, 'Ab12Cd');
    const runningFolder = leftBy(parent, running, 'Ef34Gh');
    const otherFolder = join(parent, `pressroom-other-${ended}-Ij56Kl`);
    mkdirSync(otherFolder);
    const ours = new PrivateFiles(1);
    await ours.create('first.csv');
    // A second folder of this process, made later, finds the first one still there.
    const alsoOurs = new PrivateFiles(1);
    await alsoOurs.create('second.csv');

    expect(existsSync(endedFolder)).toBe(false);
    expect(existsSync(runningFolder)).toBe(true);
    expect(existsSync(otherFolder)).toBe(true);
    const mine = readdirSync(parent).filter((name) =>
      name.startsWith(`pressroom-files-${process.pid}-`),
    );
    expect(mine).toHaveLength(2);
    ours.close();
    alsoOurs.close();
    expect(readdirSync(parent).sort()).toEqual(
      [basename(runningFolder), basename(otherFolder)].sort(),
    );
  });
});
