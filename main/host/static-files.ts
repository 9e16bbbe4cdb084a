// The built renderer's files by request path (Node): the web host and the desktop app's app://
// protocol serve the same files, so one lookup keeps both inside their folder. The web host also
// sends text files compressed, from copies the build made (`precompress`).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

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

/** Files worth compressing: text. Pictures and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json']);

/** The encodings precomputed beside each file, best first: Brotli, then gzip for the rest. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * Writes `file.br` (Brotli at its best quality) and `file.gz` beside every compressible file under
 * `root`, once, at build time: a request then costs a file read, not a compression.
 */
export function precompress(root: string): void {
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.has(extname(entry.name))) continue;
    const file = join(entry.parentPath, entry.name);
    const content = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(content, { level: zlibConstants.Z_BEST_COMPRESSION }));
  }
}

/** The codings an Accept-Encoding header takes (q above 0), `*` standing for any not named. */
function accepted(header: string | undefined): (coding: string) => boolean {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  return (coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
}

/**
 * What to send for `file` to a client that sent `acceptEncoding`: its precomputed Brotli or gzip
 * copy when the client takes it and the build made one, else the file itself.
 */
export function encodedFile(
  file: string,
  acceptEncoding: string | undefined,
): { path: string; encoding: 'br' | 'gzip' | null } {
  if (COMPRESSIBLE.has(extname(file))) {
    const takes = accepted(acceptEncoding);
    for (const { name, suffix } of ENCODINGS)
      if (takes(name) && existsSync(file + suffix)) return { path: file + suffix, encoding: name };
  }
  return { path: file, encoding: null };
}
