// Test scripts run as child processes (a publishing engine, a team desktop), bundled with esbuild
// once per test process into out/test-children/, so each start loads one file instead of compiling
// hundreds through tsx: about 0.3 s instead of 2–3 s, and the crash tests start a score of them.
// Packages stay in node_modules; the file is named by its content, so a rerun reuses it.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const OUT = resolve('out', 'test-children');
const bundles = new Map<string, Promise<string>>();

/** How a child script is bundled: the tree's modules in one file, packages from node_modules. */
export const CHILD_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  write: false,
  logLevel: 'error',
} as const;

/**
 * Saves a bundle's `code` in `folder` under `name` and its content's hash (a rerun reuses it),
 * written aside and renamed, so a process beside this one never runs half a file.
 */
export function saveBundle(code: Uint8Array, folder: string, name: string): string {
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(folder, `${name}-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return file;
}

async function bundle(entry: string): Promise<string> {
  const result = await build({ entryPoints: [entry], ...CHILD_BUNDLE });
  return saveBundle(result.outputFiles[0]!.contents, OUT, basename(entry, '.ts'));
}

/** Starts `entry` (a test script in TypeScript) in a child Node process, bundled on first use. */
export async function spawnScript(
  entry: string,
  env: NodeJS.ProcessEnv,
): Promise<ChildProcessWithoutNullStreams> {
  let file = bundles.get(entry);
  if (!file) bundles.set(entry, (file = bundle(entry)));
  return spawn(process.execPath, [await file], { env: { ...process.env, ...env } });
}
