// The web host: the contract over HTTP, behind the session token, for our own origin only.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSecretStore } from '../../main/core/account';
import { Session } from '../../main/core/session';
import { startWebHost } from '../../main/host/web';
import { startTestPlatform } from '../support/platform';

async function host() {
  const platform = await startTestPlatform({ seed: 'demo' });
  const folder = mkdtempSync(join(tmpdir(), 'pressroom-web-'));
  const session = await Session.open({
    folder,
    secrets: new FileSecretStore(folder),
    dbFile: ':memory:',
    account: { apiBase: platform.server.baseUrl, token: platform.server.token, plan: 'free' },
    watch: false,
  });
  const pressroom = session.current;
  const web = await startWebHost({ session });
  const call = (operation: string, input: unknown, headers: Record<string, string> = {}) =>
    fetch(`${web.origin}/api/call/${operation}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${web.token}`,
        'Content-Type': 'application/json',
        ...headers,
      },
      body: JSON.stringify(input),
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
    }));
  return { platform, pressroom, web, call };
}

describe('web host', () => {
  it('answers contract calls as {ok, value | error}, validating every input', async () => {
    const { pressroom, web, call } = await host();
    expect(web.url).toBe(`${web.origin}/#token=${web.token}`);
    const added = await call('addPost', {
      text: 'From the browser',
      botId: 'bot_1',
      mode: 'publish_now',
    });
    expect(added).toMatchObject({
      status: 200,
      body: { ok: true, value: { text: 'From the browser', status: 'scheduled' } },
    });
    expect((await call('publishDue', {})).body).toMatchObject({
      ok: true,
      value: { published: 1 },
    });
    const invalid = await call('addPost', { text: '', sneaky: true });
    expect(invalid.body).toEqual({
      ok: false,
      error: {
        kind: 'invalid_input',
        message: 'text: must not be empty; sneaky: is not a known field',
        issues: [
          { field: 'text', message: 'must not be empty' },
          { field: 'sneaky', message: 'is not a known field' },
        ],
      },
    });
    expect((await call('status', { extra: 1 })).body).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect((await call('dropTables', {})).body).toMatchObject({
      ok: false,
      error: { kind: 'unknown_operation' },
    });
    expect((await call('retryItem', { id: 99 })).body).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: 'id: no queue item 99' },
    });
    await web.close();
    pressroom.close();
  });

  it('refuses calls without the token, from other origins, and for other host names', async () => {
    const { pressroom, web, call } = await host();
    const noToken = await fetch(`${web.origin}/api/call/status`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(noToken.status).toBe(401);
    expect((await call('status', {}, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('status', {}, { Origin: 'http://evil.example' })).status).toBe(403);
    const rebinding = await new Promise<number>((resolve) => {
      const req = request(
        `${web.origin}/api/call/status`,
        { method: 'POST', headers: { Host: 'evil.example', Authorization: `Bearer ${web.token}` } },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.end('{}');
    });
    expect(rebinding).toBe(403);
    const page = await fetch(`${web.origin}/`);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    await web.close();
    pressroom.close();
  });

  it('refuses the operations that reach files by path', async () => {
    const { pressroom, web, call } = await host();
    const folder = mkdtempSync(join(tmpdir(), 'pressroom-web-'));
    const script = join(folder, 'startup.sh');
    const refusedExport = await call('exportFile', { kind: 'products', path: script });
    expect(refusedExport.body).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    expect(existsSync(script)).toBe(false);
    const refusedImport = await call('importFile', {
      kind: 'posts',
      path: '/etc/passwd',
      dryRun: true,
    });
    expect(refusedImport.body).toMatchObject({
      ok: false,
      error: { kind: 'not_allowed', message: expect.stringMatching(/^importFile is only for/) },
    });
    expect(JSON.stringify(refusedImport.body)).not.toContain('root');
    // The page's own ways in and out still work.
    const exported = await call('exportText', { kind: 'products' });
    expect(exported.body).toMatchObject({ ok: true, value: { fileName: expect.any(String) } });
    await web.close();
    pressroom.close();
  });

  it('streams queue events to the browser', async () => {
    const { pressroom, web, call } = await host();
    const response = await fetch(`${web.origin}/api/events?token=${web.token}`);
    const reader = response.body?.getReader();
    await call('addPost', { text: 'Live', botId: 'bot_1', mode: 'publish_now' });
    await call('publishDue', {});
    let text = '';
    while (!text.includes('"type":"done"'))
      text += new TextDecoder().decode((await reader?.read())?.value);
    expect(text).toContain('"type":"done"');
    await reader?.cancel();
    await web.close();
    pressroom.close();
  });
});
