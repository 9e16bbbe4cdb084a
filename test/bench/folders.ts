// A bench's temporary folders (Node): made in the machine's temporary folder and removed when the
// bench's process exits, however it ends, so a bench leaves nothing behind (`npm run bench:ui`
// left 230 MB a run). The baseline trees (./baseline.ts) are kept on purpose, by commit.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTemporaryFolder } from '../support/run-temp';

const made: string[] = [];

function removeMade(): void {
  for (const folder of made) removeTemporaryFolder(folder, "The bench's");
}

/** A new folder named `prefix` and six random characters, gone when the process exits. */
export function benchFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  if (made.push(folder) === 1) process.on('exit', removeMade);
  return folder;
}
