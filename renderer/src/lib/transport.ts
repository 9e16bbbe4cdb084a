// Picks the transport (browser): Electron's preload exposes `window.pressroom`; otherwise the
// page came from the web host, whose session token arrived in the URL fragment.
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

/** Takes the token out of the fragment (so it is not left in history or screenshots). */
function sessionToken(): string | null {
  const match = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', location.pathname + location.search);
    return match[1];
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

export function httpTransport(token: string | null, base = ''): Transport {
  const post = async <T>(path: string, contentType: string, body: BodyInit) => {
    try {
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
      const source = new EventSource(`${base}/api/events?token=${encodeURIComponent(token ?? '')}`);
      source.onmessage = (message: MessageEvent<string>) =>
        listener(JSON.parse(message.data) as CoreEvent);
      return () => source.close();
    },
  };
}

export function defaultTransport(): Transport {
  return window.pressroom ?? httpTransport(sessionToken());
}
