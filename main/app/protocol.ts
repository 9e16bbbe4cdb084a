// The window's own `app://pressroom/` protocol (Electron main process): serves the built
// renderer from disk with the same Content-Security-Policy as the web host. A custom scheme
// rather than file:// keeps the page off the file system's privileges and gives it an origin
// the IPC handlers can check.
import { readFile } from 'node:fs/promises';
import { extname, relative, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../host/web';
import { APP_SCHEME_NAME, isAppUrl } from './channels';
import type { CustomScheme, ProtocolHandler } from './electron-api';

export const APP_SCHEME: CustomScheme = {
  scheme: APP_SCHEME_NAME,
  // standard + secure: a real origin with a secure context, as https would give.
  privileges: {
    standard: true,
    secure: true,
    supportFetchAPI: true,
    corsEnabled: false,
    stream: false,
  },
};

// The file types Vite's build of the renderer produces.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
}

/** Answers requests for app://pressroom/<path> with files under `rootDir`, and nothing else. */
export function rendererProtocol(rootDir: string): ProtocolHandler {
  const root = resolve(rootDir);
  return async (request) => {
    if (!isAppUrl(request.url) || request.method !== 'GET') return notFound();
    const url = new URL(request.url);
    const file = resolve(root, `.${decodeURIComponent(url.pathname)}`);
    const inside = relative(root, file);
    if (inside.startsWith('..') || resolve(root, inside) !== file) return notFound();
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          'Content-Security-Policy': CONTENT_SECURITY_POLICY,
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return notFound();
    }
  };
}
