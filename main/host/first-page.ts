// The page before the core (Node): opening the session loads the core's code, and Node runs a
// module graph's code in one step no request can interrupt (half a second on a busy machine). A
// page opened from the printed URL at once would have its first files wait behind that step, so
// the opening waits until the page's first files are served, a call comes (it needs the session
// anyway), or a limit passes (no page came).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The paths the page loads before it runs: index.html and the scripts, module preloads and
 * stylesheets it names (Vite writes them as ./assets/...); only index.html when it cannot be read.
 */
export function firstPageFiles(staticDir: string): Set<string> {
  const files = new Set(['/index.html']);
  let html = '';
  try {
    html = readFileSync(join(staticDir, 'index.html'), 'utf8');
  } catch {
    return files;
  }
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  for (const tag of tags) {
    if (tag.startsWith('<link') && !/\brel="(modulepreload|stylesheet)"/.test(tag)) continue;
    const address = /\b(?:src|href)="\.?(\/[^"]+)"/.exec(tag)?.[1];
    if (address) files.add(address);
  }
  return files;
}

/** Resolves `ready` once every first file was served, a call came, or `limitMs` passed. */
export class FirstPage {
  readonly ready: Promise<void>;
  private release!: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly waiting: Set<string>,
    limitMs: number,
  ) {
    this.ready = new Promise((resolve) => (this.release = resolve));
    this.timer = setTimeout(() => this.done(), limitMs);
  }

  /** A request for `pathname` was answered (`/` is index.html). */
  served(pathname: string): void {
    this.waiting.delete(pathname === '/' ? '/index.html' : pathname);
    if (this.waiting.size === 0) this.done();
  }

  done(): void {
    clearTimeout(this.timer);
    this.release();
  }
}
