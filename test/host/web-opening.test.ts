// The web host listens before its session is open (`serve` prints its URL at once): the page's
// files are served meanwhile (with `serve`, the session opens only at the page's first call), its
// calls wait for the session, and a session that cannot be opened is reported to the opener and
// answered to each call.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Session } from '../../main/core/session';
import { startWebHost } from '../../main/host/web';
import type { WebHost } from '../../main/host/web';
import { openOfflineSession } from '../support/session';

function builtPage(): string {
  const staticDir = mkdtempSync(join(tmpdir(), 'pressroom-opening-'));
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Pressroom</title>');
  return staticDir;
}

const listPosts = (web: WebHost) =>
  fetch(`${web.origin}/api/call/listPosts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${web.token}`, 'Content-Type': 'application/json' },
    body: '{}',
  }).then(async (response) => (await response.json()) as Record<string, unknown>);

describe('web host while its session opens', () => {
  it('serves the page at once and answers calls once the session is open', async () => {
    let open!: (session: Session) => void;
    const opening = new Promise<Session>((resolve) => (open = resolve));
    const web = await startWebHost({ session: () => opening, staticDir: builtPage() });
    const page = await fetch(`${web.origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Pressroom</title>');
    let answered = false;
    const call = listPosts(web).then((body) => {
      answered = true;
      return body;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered, 'a call waits for the session').toBe(false);
    const session = await openOfflineSession();
    open(session);
    expect(await call).toEqual({ ok: true, value: [] });
    expect(await web.session).toBe(session);
    await web.close();
  });

  it('reports a session that cannot be opened to the opener and to each call', async () => {
    const web = await startWebHost({
      session: () => Promise.reject(new Error('the workspace is locked')),
    });
    await expect(web.session).rejects.toThrow('the workspace is locked');
    expect(await listPosts(web)).toMatchObject({ ok: false });
    await web.close();
  });

  describe('waiting for the page first (serve)', () => {
    /** A built page whose index.html names a script, a module preload and a stylesheet. */
    function builtPageWithAssets(): string {
      const staticDir = builtPage();
      mkdirSync(join(staticDir, 'assets'));
      writeFileSync(
        join(staticDir, 'index.html'),
        [
          '<!doctype html><title>Pressroom</title>',
          '<link rel="icon" href="./favicon.svg">',
          '<script type="module" crossorigin src="./assets/index.js"></script>',
          '<link rel="modulepreload" crossorigin href="./assets/client.js">',
          '<link rel="stylesheet" crossorigin href="./assets/index.css">',
        ].join('\n'),
      );
      for (const file of ['index.js', 'client.js', 'index.css'])
        writeFileSync(join(staticDir, 'assets', file), '/* built */');
      return staticDir;
    }
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** A host over that page whose session's opening is watched. */
    async function hostWaitingForPage(pageFirstMs: number) {
      const opener = vi.fn(openOfflineSession);
      const web = await startWebHost({
        session: opener,
        staticDir: builtPageWithAssets(),
        pageFirstMs,
      });
      return { web, opener };
    }

    it('leaves the session unopened while the page loads its files, so the page has the CPU', async () => {
      const { web, opener } = await hostWaitingForPage(60_000);
      for (const file of ['/', '/assets/index.js', '/assets/client.js', '/assets/index.css'])
        expect((await fetch(`${web.origin}${file}`)).status).toBe(200);
      await pause(100);
      expect(opener, 'no call came yet').not.toHaveBeenCalled();
      expect(await listPosts(web)).toEqual({ ok: true, value: [] });
      expect(opener).toHaveBeenCalledOnce();
      await web.close();
      await (await web.session).close();
    });

    it('opens it at the first call, which needs it', async () => {
      const { web } = await hostWaitingForPage(60_000);
      expect(await listPosts(web)).toEqual({ ok: true, value: [] });
      await web.close();
      await (await web.session).close();
    });

    it('opens it after the limit when no page comes', async () => {
      const { web, opener } = await hostWaitingForPage(200);
      await pause(50);
      expect(opener).not.toHaveBeenCalled();
      await (await web.session).close();
      expect(opener).toHaveBeenCalledOnce();
      await web.close();
    });
  });
});
