// Whether a build is current, and the renderer rebuilt when it is not (Node). Plain JavaScript, so
// the launcher uses it before tsx is loaded. One rule for both builds the commands need: a build
// is current while every source it recorded still hashes as recorded (main/app/build.ts records
// them), so an edit, a checkout or an upgrade of a build tool is never served stale. A source
// whose stamp (size, modification and change times) is still the one the build recorded is not
// read at all: reading and hashing some 400 files was most of the launcher's own time (#32).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

/** Must match RENDERER_MANIFEST in build.ts. */
const RENDERER_MANIFEST = 'dist/renderer.json';
const RENDERER_LOCK = 'dist/.renderer-build.lock';
/** A lock older than this was left by a build that died. */
const STALE_LOCK_MS = 5 * 60_000;

/**
 * What tells a file's rewrite without reading it: its size, modification time and change time.
 * The change time is the system's own (no tool can set it back), so an edit that keeps the size
 * and restores the modification time (cp -p, touch -r) still shows; a copied or touched tree
 * shows as changed and is hashed, never trusted.
 */
export function fileStamp(stat) {
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/**
 * The manifest at `manifestFile` when each of its sources is unchanged (its recorded stamp, else
 * its hash, matches) and the file `output(manifest)` names exists, else null (no build yet, a
 * source changed or is gone, or anything unreadable).
 */
export function currentBuild(root, manifestFile, output) {
  try {
    const manifest = JSON.parse(readFileSync(join(root, manifestFile), 'utf8'));
    const stamps = manifest.stamps ?? {};
    const unchanged = Object.entries(manifest.sources).every(([file, hash]) => {
      const path = join(root, file);
      if (stamps[file] !== undefined && stamps[file] === fileStamp(statSync(path))) return true;
      return createHash('sha256').update(readFileSync(path)).digest('hex') === hash;
    });
    return unchanged && existsSync(join(root, output(manifest))) ? manifest : null;
  } catch {
    return null;
  }
}

/**
 * Runs one of main/app/build.ts's builds (`buildCommands`, `buildRenderer`) in a child Node
 * through tsx, and answers what it returned. In a child, the build's memory (Vite holds hundreds
 * of MB) goes with it, instead of staying with the command that builds first and then runs for
 * hours (`serve`). Its stdout is the result alone; its stderr is the command's.
 */
export async function runBuilder(root, build) {
  const builder = pathToFileURL(join(root, 'main/app/build.ts')).href;
  const script = `const builder = await import(${JSON.stringify(builder)});
process.stdout.write(JSON.stringify(await builder[${JSON.stringify(build)}](${JSON.stringify(root)}) ?? null));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    // What users run, whoever asks: a test runner's NODE_ENV=test made Vite and Svelte build
    // for development (a third larger, with dev checks), so tests measured another page.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'close');
  if (code !== 0) throw new Error(`Building failed (${build} exited with ${code}); see above`);
  return JSON.parse(output.trim().split('\n').at(-1));
}

function rendererIsCurrent(root) {
  return currentBuild(root, RENDERER_MANIFEST, () => 'dist/renderer/index.html') !== null;
}

/**
 * Runs `task` while holding the lock file `lock`, so processes started side by side take turns. A
 * lock left by a process that died is taken over once it is older than a build could take.
 */
export async function withFileLock(lock, task) {
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
      else await sleep(100);
    }
  }
  try {
    return await task();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Builds the interface into dist/renderer unless it is current. Commands starting side by side
 * (tests, a second window) build it once: the others wait for the lock, then find it current.
 * Returns whether this call built it.
 */
export async function ensureInterface(root, { onBuild } = {}) {
  if (rendererIsCurrent(root)) return false;
  mkdirSync(join(root, 'dist'), { recursive: true });
  return withFileLock(join(root, RENDERER_LOCK), async () => {
    if (rendererIsCurrent(root)) return false;
    onBuild?.();
    await runBuilder(root, 'buildRenderer');
    return true;
  });
}
