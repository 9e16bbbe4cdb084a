// Picks the transport (browser): Electron's preload exposes `window.pressroom`; otherwise the
// page came from the web host, whose session token arrived in the URL fragment, or is traded
// once for the one-time code there (a URL the host opened in the browser, whose command line
// every user of the computer can read).
import type { OperationName } from '../../../shared/contract';
import type { CallResult, CoreEvent } from '../../../shared/answers';
import type { Transport } from './api';

declare global {
  interface Window {
    /** Set by Electron's preload through contextBridge; absent in a browser. */
    pressroom?: Transport;
  }
}

const TOKEN_KEY = 'pressroom.session';

/** The session token the host answers for a one-time code; null once the code was used. */
async function tradeCode(code: string, base: string): Promise<string | null> {
  try {
    const response = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const answer = (await response.json()) as { ok: boolean; value?: { token?: string } };
    return answer.ok && answer.value?.token ? answer.value.token : null;
  } catch {
    return null;
  }
}

/**
 * Takes the token (or the code) out of the fragment, so neither is left in history or
 * screenshots; the token is kept for this tab's reloads.
 */
export async function sessionToken(base = ''): Promise<string | null> {
  const match = /(?:^|[#&])(token|code)=([^&]+)/.exec(location.hash);
  if (!match?.[2]) return sessionStorage.getItem(TOKEN_KEY);
  history.replaceState(null, '', location.pathname + location.search);
  const token = match[1] === 'code' ? await tradeCode(match[2], base) : match[2];
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  return token ?? sessionStorage.getItem(TOKEN_KEY);
}

export function httpTransport(
  session: string | null | Promise<string | null>,
  base = '',
): Transport {
  const post = async <T>(path: string, contentType: string, body: BodyInit) => {
    try {
      const token = await session;
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': contentType,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body,
      });
      return (await response.json()) as CallResult<T>;
    } catch {
      return {
        ok: false,
        error: {
          kind: 'internal',
          message: 'Pressroom is not answering; is the server still running?',
        },
      } as const;
    }
  };
  return {
    call: (operation: OperationName, input: unknown): Promise<CallResult> =>
      post(`/api/call/${operation}`, 'application/json', JSON.stringify(input ?? {})),
    upload: (fileName: string, bytes: ArrayBuffer) =>
      post<{ upload: string }>(
        `/api/upload?name=${encodeURIComponent(fileName)}`,
        'application/octet-stream',
        bytes,
      ),
    events(listener: (event: CoreEvent) => void): () => void {
      let source: EventSource | null = null;
      let stopped = false;
      void Promise.resolve(session).then((token) => {
        if (stopped) return;
        source = new EventSource(`${base}/api/events?token=${encodeURIComponent(token ?? '')}`);
        source.onmessage = (message: MessageEvent<string>) =>
          listener(JSON.parse(message.data) as CoreEvent);
      });
      return () => {
        stopped = true;
        source?.close();
      };
    },
  };
}

export function defaultTransport(): Transport {
  return window.pressroom ?? httpTransport(sessionToken());
}

/**
 * Hands a file dropped outside the page's drop zones (none of which took it) to the transport's
 * dropFile (Electron's preload); a page without one ignores such drops.
 */
export function forwardDroppedFiles(transport: Transport, target: Window = window): void {
  const { dropFile } = transport;
  if (!dropFile) return;
  const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
  target.addEventListener('dragover', (event) => {
    if (hasFiles(event)) event.preventDefault();
  });
  target.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    if (event.defaultPrevented || !file) return;
    event.preventDefault();
    void dropFile.call(transport, file);
  });
}
