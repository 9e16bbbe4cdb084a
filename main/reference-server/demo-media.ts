// The demo's web space (Node, reference server): API v1 takes pictures only by web address, so a
// picture uploaded into the demo workspace is published from a folder this server also serves,
// as the user's own web space would serve it for a real account (docs/platform-api.md, "Media").
// Not part of API v1: only the demo platform is started with a folder.
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';

export const DEMO_MEDIA_PATH = '/demo-media/';

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Answers a GET for a picture in `folder`: by its hashed name only, so no other file is reachable. */
export async function serveDemoMedia(
  folder: string,
  pathname: string,
  response: ServerResponse,
): Promise<void> {
  const name = pathname.slice(DEMO_MEDIA_PATH.length);
  const extension = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/.exec(name)?.[1];
  const bytes = extension ? await readFile(join(folder, name)).catch(() => null) : null;
  if (!extension || !bytes) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('No such picture');
    return;
  }
  response
    .writeHead(200, {
      'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      'Content-Length': bytes.byteLength,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    })
    .end(bytes);
}
