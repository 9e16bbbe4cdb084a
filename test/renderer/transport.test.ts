// The web host's transport in the page: a one-time code in the fragment is traded once for the
// session token, and neither is left in the address bar.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forwardDroppedFiles, httpTransport, sessionToken } from '../../renderer/src/lib/transport';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch that trades `code` for `token` once, and answers every call. */
function fakeHost(code: string, token: string) {
  const sent: Sent[] = [];
  let traded = false;
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const body = String(init.body);
    sent.push({ url, headers: init.headers as Record<string, string>, body });
    if (url.endsWith('/api/session')) {
      const ok = !traded && (JSON.parse(body) as { code: string }).code === code;
      traded ||= ok;
      return Response.json(ok ? { ok, value: { token } } : { ok, error: { kind: 'not_allowed' } });
    }
    return Response.json({ ok: true, value: null });
  });
  return { sent, fetch };
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

describe('the web host transport', () => {
  it('trades the one-time code for the session token, and calls with the token', async () => {
    const host = fakeHost('code-1', 'session-token-1');
    vi.stubGlobal('fetch', host.fetch);
    history.replaceState(null, '', '/#code=code-1');
    const transport = httpTransport(sessionToken());
    expect(location.hash).toBe('');
    expect(await transport.call('status', {})).toEqual({ ok: true, value: null });
    expect(host.sent.map((request) => request.url)).toEqual(['/api/session', '/api/call/status']);
    expect(host.sent[1]!.headers).toMatchObject({ Authorization: 'Bearer session-token-1' });
    // A reload of this tab keeps the session without the code.
    expect(await sessionToken()).toBe('session-token-1');
    expect(host.sent).toHaveLength(2);
  });

  it('has no session when the code was used already', async () => {
    const host = fakeHost('code-1', 'session-token-1');
    vi.stubGlobal('fetch', host.fetch);
    history.replaceState(null, '', '/#code=someone-elses');
    expect(await sessionToken()).toBeNull();
    expect(location.hash).toBe('');
  });
});

describe('a file dropped outside the page’s drop zones', () => {
  const dropEvent = (files: File[]) => {
    const event = new Event('drop', { bubbles: true, cancelable: true }) as DragEvent;
    Object.defineProperty(event, 'dataTransfer', { value: { files, types: ['Files'] } });
    return event;
  };

  it('goes to the transport’s dropFile, unless a drop zone took it', async () => {
    const dropped: string[] = [];
    const transport = {
      call: vi.fn(),
      upload: vi.fn(),
      events: () => () => undefined,
      dropFile: async (file: File) => void dropped.push(file.name),
    };
    const target = new EventTarget() as Window;
    forwardDroppedFiles(transport, target);
    const loose = dropEvent([new File(['text\n'], 'week.csv')]);
    target.dispatchEvent(loose);
    expect(loose.defaultPrevented).toBe(true);
    const taken = dropEvent([new File(['x'], 'photo.png')]);
    taken.preventDefault(); // as the post editor's own drop zone does
    target.dispatchEvent(taken);
    expect(dropped).toEqual(['week.csv']);
  });
});
