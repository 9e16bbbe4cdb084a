// The tree a bench compares against (Node): commit 1880bb5 (or BENCH_BASELINE_COMMIT), unpacked
// once into the temporary folder with a copy of this tree's node_modules, so a bench measures it
// in the same run, on the same machine, as the working tree. BENCH_BASELINE=off leaves it out.
// A bench's child runs a bundle of its script and the tree's code made with esbuild, for both
// trees alike (runInTree), so its figures measure the app's code as the app runs it (bundled, in
// out/node), not tsx compiling it.
import { execSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { CHILD_BUNDLE, saveBundle } from '../support/children';

export const BASELINE_COMMIT = process.env.BENCH_BASELINE_COMMIT ?? '1880bb5';

/**
 * The baseline tree's folder, unpacked on first use; null when BENCH_BASELINE=off. A bench whose
 * subject 1880bb5 did not have names its own `commit`; BENCH_BASELINE_COMMIT still wins.
 */
export function baselineTree(commit = BASELINE_COMMIT): string | null {
  if (process.env.BENCH_BASELINE === 'off') return null;
  const root = join(tmpdir(), `pressroom-${commit}`);
  if (existsSync(join(root, 'node_modules', '.package-lock.json'))) return root;
  // Unpacked beside, then moved in whole, so a run stopped half-way is never taken as a tree.
  const partial = `${root}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  execSync(`git archive ${commit} | tar -x -C ${JSON.stringify(partial)}`);
  cpSync('node_modules', join(partial, 'node_modules'), {
    recursive: true,
    verbatimSymlinks: true,
  });
  // Its own dependencies where they differ from this tree's (from npm's cache when it can).
  execSync('npm install --prefer-offline --ignore-scripts --no-audit --no-fund', {
    cwd: partial,
    stdio: 'ignore',
  });
  rmSync(root, { recursive: true, force: true });
  renameSync(partial, root);
  return root;
}

/** The first of `paths` the tree at `root` has, as a string literal for a child's script. */
function modulePath(root: string, ...paths: [string, ...string[]]): string {
  return JSON.stringify(join(root, paths.find((path) => existsSync(join(root, path))) ?? paths[0]));
}

/**
 * Where a tree keeps the modules a bench's child script imports, under the names of its time
 * (the workspace class was `Pressroom`, the operation table `service.ts`), so one script runs the
 * baseline and this tree alike.
 */
export function treeModules(root: string) {
  return {
    /** Script lines that bind the tree's workspace class to `Workspace`. */
    importWorkspace: `const core = await import(${modulePath(root, 'main/core/workspace.ts', 'main/core/pressroom.ts')});
    const Workspace = core.Workspace ?? core.Pressroom;`,
    operations: modulePath(root, 'main/core/operations.ts', 'main/core/service.ts'),
    migrations: modulePath(root, 'main/store/migrations/index.ts', 'main/store/migrations.ts'),
    db: modulePath(root, 'main/store/db.ts'),
  };
}

/**
 * `script`, after the lines that bind the tree at `root`'s workspace class to `Workspace`,
 * bundled with esbuild as the app's own code is (out/node: the tree's modules in one file,
 * packages loaded from its node_modules), into `<root>/out/bench/`, so the packages resolve from
 * the tree's node_modules. Named by its content, so a rerun reuses it.
 */
function bundleInTree(root: string, script: string): string {
  const result = buildSync({
    stdin: {
      contents: `${treeModules(root).importWorkspace}\n${script}`,
      resolveDir: root,
      sourcefile: 'bench-child.ts',
      loader: 'ts',
    },
    ...CHILD_BUNDLE,
  });
  return saveBundle(result.outputFiles[0]!.contents, join(root, 'out', 'bench'), 'child');
}

/**
 * Runs `script` in a child Node under /usr/bin/time: what the script printed as JSON on its last
 * line, and the child's peak memory. The child runs a bundle of the tree's code, as the app does,
 * not tsx compiling it as it loads: tsx's compiler and its loader thread took about 40 MB of a
 * child's peak memory (135 MB idle, 94 MB bundled), which the app never spends.
 */
export function runInTree<T>(
  root: string,
  script: string,
  what: string,
  maxBuffer = 16 * 1024 * 1024,
): T & { peakMb: number } {
  const child = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', process.execPath, bundleInTree(root, script)],
    { encoding: 'utf8', cwd: root, maxBuffer },
  );
  if (child.status !== 0) throw new Error(`${what} failed: ${child.stderr}`);
  const peakKb = Number(child.stderr.trim().split('\n').at(-1));
  return {
    ...(JSON.parse(child.stdout.trim().split('\n').at(-1) ?? 'null') as T),
    peakMb: peakKb / 1024,
  };
}
