// The built renderer's files by request path (Node): the web host and the desktop app's app://
// protocol serve the same files, so one lookup keeps both inside their folder.
import { extname, isAbsolute, relative, resolve } from 'node:path';

// The file types Vite's build of the renderer produces.
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}

/**
 * The file under `root` (an absolute path) that a URL's path names, as URL.pathname gives it
 * (percent-encoded); null when an escape is malformed, or the decoded path would lead outside
 * `root` (`..`, an encoded separator, another drive) or holds a NUL. Containment is decided by
 * relative(), not by a prefix, so a sibling folder whose name starts like root's is outside too.
 */
export function fileInside(root: string, pathname: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const file = resolve(root, `.${path}`);
  const inside = relative(root, file);
  if (inside.startsWith('..') || isAbsolute(inside) || resolve(root, inside) !== file) return null;
  return file;
}
