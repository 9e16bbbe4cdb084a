// The window's own `app://pressroom/` protocol (Electron main process): serves the built
// renderer from disk with the same Content-Security-Policy as the web host. A custom scheme
// rather than file:// keeps the page off the file system's privileges and gives it an origin
// the IPC handlers can check.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { contentTypeOf, fileInside } from '../host/static-files';
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

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
}

/** Answers requests for app://pressroom/<path> with files under `rootDir`, and nothing else. */
export function rendererProtocol(rootDir: string): ProtocolHandler {
  const root = resolve(rootDir);
  return async (request) => {
    if (!isAppUrl(request.url) || request.method !== 'GET') return notFound();
    const file = fileInside(root, new URL(request.url).pathname);
    if (file === null) return notFound();
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'Content-Type': contentTypeOf(file),
          'Content-Security-Policy': CONTENT_SECURITY_POLICY,
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return notFound();
    }
  };
}
