// Vitest global setup of every project (Node): one temporary folder per test run, removed when
// the run ends. Tests, the processes they start and the browser all make their files through
// os.tmpdir(), which reads TMPDIR (TEMP and TMP on Windows) at each call; set here, before the
// workers are forked, it holds for all of them. Without it each run left about 400 folders and
// up to a gigabyte behind in the machine's temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUN_TEMP = 'PRESSROOM_TEST_TEMP';

/** Each project runs its global setup; the first one makes the folder, and removes it last. */
export default function setup(): (() => void) | undefined {
  if (process.env[RUN_TEMP]) return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'pressroom-test-'));
  process.env[RUN_TEMP] = folder;
  for (const name of ['TMPDIR', 'TEMP', 'TMP']) process.env[name] = folder;
  return () => removeTemporaryFolder(folder, "The test run's");
}

/**
 * Removes a temporary folder of `whose` (a test run's, a bench's); one that cannot go (a file
 * still open, on Windows) is worth a line, not a failure.
 */
export function removeTemporaryFolder(folder: string, whose: string): void {
  try {
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    console.warn(`${whose} temporary folder ${folder} was not removed: ${String(error)}`);
  }
}
