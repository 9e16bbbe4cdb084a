// Reading an answer's body (Node, main process): within a size cap, giving up only when the
// bytes stop coming (a big page on a slow line still arrives), decoded by its declared charset,
// and read as JSON with ids past 2^53 kept exact.
import iconv from 'iconv-lite';
import { parseJsonUninterned } from './json-slices';

/** An abort signal that fires after `ms` without progress; `restart` begins the wait again. */
export interface IdleTimeout {
  signal: AbortSignal;
  restart(): void;
  fired(): boolean;
  stop(): void;
}

export function idleTimeout(ms: number): IdleTimeout {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () => controller.abort(new DOMException(`no progress for ${ms} ms`, 'TimeoutError')),
      ms,
    );
  };
  restart();
  return {
    signal: controller.signal,
    restart,
    fired: () => controller.signal.aborted,
    stop: () => clearTimeout(timer),
  };
}

export class BodyTooLarge extends Error {
  constructor(
    readonly status: number,
    limit: number,
  ) {
    super(`the answer is over the ${Math.round(limit / 1024 / 1024)} MiB Pressroom reads`);
  }
}

/**
 * UTF-8, JSON's own and every sync page's, is decoded without iconv-lite: its first use loads
 * every codec's module, about 10 ms in one turn (#32). A BOM is dropped, as iconv-lite does.
 */
const utf8 = new TextDecoder('utf-8');

/** The charset a Content-Type declares, if iconv-lite knows it; UTF-8 otherwise (JSON's own). */
export function charsetOf(contentType: string | null): string {
  const declared = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (!declared || /^utf-?8$/i.test(declared)) return 'utf-8';
  return iconv.encodingExists(declared) ? declared : 'utf-8';
}

/**
 * The whole body as text. Each chunk restarts the idle wait; `signal` (the idle wait, and the
 * caller's cancel) stops the reading even where the body stream does not hear of it itself.
 */
export async function readBodyText(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
  idle: IdleTimeout,
): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw new BodyTooLarge(response.status, maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    let stop: () => void = () => undefined;
    const stopped = new Promise<never>((_resolve, reject) => {
      stop = () => reject(signal.reason as Error);
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    stopped.catch(() => undefined); // read below whenever it matters
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), stopped]);
        if (done) break;
        idle.restart();
        size += value.byteLength;
        if (size > maxBytes) throw new BodyTooLarge(response.status, maxBytes);
        chunks.push(value);
      }
    } catch (error) {
      reader.cancel().catch(() => undefined);
      throw error;
    } finally {
      // The signal outlives the read (fetch's request holds it until a full collection), and
      // through this listener it held every chunk read: a sync's bodies piled up by megabytes
      // between major collections (#32).
      signal.removeEventListener('abort', stop);
    }
  }
  const bytes = Buffer.concat(chunks);
  const charset = charsetOf(response.headers.get('content-type'));
  return charset === 'utf-8' ? utf8.decode(bytes) : iconv.decode(bytes, charset);
}

/** Sixteen digits in a row somewhere: the only texts that may hold an integer past 2^53. */
const LONG_DIGITS = /\d{16}/;

/**
 * JSON.parse, except that an integer too big for a double (an id past 2^53) is kept as its exact
 * digits in a string instead of being rounded. Texts without a long digit run take the fast path.
 */
export function parseJsonExact(text: string): unknown {
  return LONG_DIGITS.test(text) ? parseJsonUninterned(text) : (JSON.parse(text) as unknown);
}
