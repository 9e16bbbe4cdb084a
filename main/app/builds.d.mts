// Types of builds.mjs, which stays plain JavaScript so the launcher runs without tsx.
import type * as builder from './build';

export function currentBuild<Manifest extends { sources: Record<string, string> }>(
  root: string,
  manifestFile: string,
  output: (manifest: Manifest) => string,
): Manifest | null;
export function loadBuilder(root: string): Promise<typeof builder>;
export function ensureInterface(root: string, options?: { onBuild?: () => void }): Promise<boolean>;
export function withFileLock<T>(lock: string, task: () => Promise<T>): Promise<T>;
