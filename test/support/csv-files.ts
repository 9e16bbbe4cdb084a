// CSV files written for a test file (Node): one temporary folder per test file, removed after its
// last test, and a new file in it for each content.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function csvFiles(name: string): {
  folder: string;
  fixture: (content: string | Buffer) => string;
} {
  const folder = mkdtempSync(join(tmpdir(), `pressroom-${name}-`));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let files = 0;
  return {
    folder,
    fixture(content) {
      const path = join(folder, `f${files++}.csv`);
      writeFileSync(path, content);
      return path;
    },
  };
}
