// Types of builds.mjs, which stays plain JavaScript so the launcher runs without tsx.
import type { Stats } from 'node:fs';

export function fileStamp(stat: Stats): string;
export function currentBuild<Manifest extends { sources: Record<string, string> }>(
  root: string,
  manifestFile: string,
  output: (manifest: Manifest) => string,
): Manifest | null;
export function ensureInterface(root: string, options?: { onBuild?: () => void }): Promise<boolean>;
export function withFileLock<T>(lock: string, task: () => Promise<T>): Promise<T>;
