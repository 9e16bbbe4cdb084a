// Finding the renderer's files by request path, as the web host and the app:// protocol both do.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileInside } from '../../main/host/static-files';

describe('fileInside', () => {
  const root = join('/srv', 'renderer');

  it('finds a file by its decoded path', () => {
    expect(fileInside(root, '/assets/two%20words.js')).toBe(join(root, 'assets', 'two words.js'));
  });

  it('refuses malformed escapes, NULs and every way out of the folder', () => {
    for (const path of [
      '/%E0%A4%A',
      '/%',
      '/index.html%00.js',
      '/%2e%2e/etc/passwd',
      '/..%2f..%2fetc/passwd',
      // A sibling whose name starts like the folder's: outside, though its path has root as prefix.
      '/%2e%2e/renderer-private/secret.txt',
    ])
      expect(fileInside(root, path), path).toBeNull();
  });
});
