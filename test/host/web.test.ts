// The web host: the contract over HTTP, behind the session token, for our own origin only.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FileSecretStore } from '../../main/core/account';
import { Session } from '../../main/core/session';
import { precompress } from '../../main/host/static-files';
import { startWebHost } from '../../main/host/web';
import { solidPng } from '../support/pictures';
import { startTestPlatform } from '../support/platform';

async function host(staticDir?: string) {
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
  const web = await startWebHost({ session, ...(staticDir ? { staticDir } : {}) });
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

  it('takes the token in the query only for the event stream', async () => {
    const { pressroom, web } = await host();
    const inQuery = await fetch(`${web.origin}/api/call/status?token=${web.token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(inQuery.status).toBe(401);
    const events = await fetch(`${web.origin}/api/events?token=${web.token}`);
    expect(events.status).toBe(200);
    await events.body?.cancel();
    await web.close();
    pressroom.close();
  });

  it('answers 413 for a body over the limit, naming the limit', async () => {
    const { pressroom, web, call } = await host();
    const tooBig = await call('addPost', { text: 'x'.repeat(2 * 1024 * 1024) });
    expect(tooBig).toEqual({
      status: 413,
      body: {
        ok: false,
        error: { kind: 'invalid_input', message: 'The request is over the limit of 1 MiB' },
      },
    });
    await web.close();
    pressroom.close();
  });

  it('takes a picture of a few MiB, over the 1 MiB of other calls, and refuses one over 10 MiB', async () => {
    const { pressroom, web, call } = await host();
    const picture = (mebibytes: number) =>
      Buffer.concat([solidPng(1, 1, [0, 0, 0]), Buffer.alloc(mebibytes * 1024 * 1024)]).toString(
        'base64',
      );
    expect(
      await call('addMedia', { fileName: 'oven.png', contentBase64: picture(2) }),
    ).toMatchObject({
      status: 200,
      body: {
        ok: true,
        value: {
          fileName: 'oven.png',
          type: 'image/png',
          url: expect.stringMatching(/^pressroom-media:/),
        },
      },
    });
    const tooBig = await call('addMedia', { fileName: 'poster.png', contentBase64: picture(12) });
    expect(tooBig).toEqual({
      status: 200,
      body: {
        ok: false,
        error: {
          kind: 'invalid_input',
          message: 'contentBase64: poster.png is 12.0 MiB; the largest a post may carry is 10 MiB',
          issues: [
            {
              field: 'contentBase64',
              message: 'poster.png is 12.0 MiB; the largest a post may carry is 10 MiB',
            },
          ],
        },
      },
    });
    await web.close();
    pressroom.close();
  });

  it('takes at most two uploads at once; a third is told to come back', async () => {
    const { pressroom, web } = await host();
    const body = 'text\nMonday\n';
    const send = () =>
      fetch(`${web.origin}/api/upload?name=week.csv`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${web.token}`,
          'Content-Type': 'application/octet-stream',
        },
        body,
      });
    // Two uploads whose bodies are still arriving.
    const slow = [0, 1].map(() => {
      let answered!: (status: number) => void;
      const status = new Promise<number>((resolve) => (answered = resolve));
      const req = request(
        `${web.origin}/api/upload?name=week.csv`,
        {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${web.token}`,
            'Content-Type': 'application/octet-stream',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          answered(res.statusCode ?? 0);
        },
      );
      const sent = new Promise<void>((resolve) => req.write(body.slice(0, 10), () => resolve()));
      return { req, status, sent };
    });
    await Promise.all(slow.map(({ sent }) => sent));
    // Time for the host (in this process) to read both requests' headers: it counts an upload
    // from there on.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await send();
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('2');
    expect(await third.json()).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/already being uploaded/) },
    });
    for (const { req } of slow) req.end(body.slice(10));
    expect(await Promise.all(slow.map(({ status }) => status))).toEqual([200, 200]);
    // Once they are done, uploads are taken again.
    expect(await (await send()).json()).toMatchObject({
      ok: true,
      value: { upload: expect.any(String) },
    });
    await web.close();
    pressroom.close();
  });

  it('serves files of its folder by their decoded path, and nothing outside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pressroom-static-'));
    const staticDir = join(root, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<title>Pressroom</title>');
    writeFileSync(join(staticDir, 'two words.js'), 'export {};');
    mkdirSync(join(root, 'renderer-private'));
    writeFileSync(join(root, 'renderer-private', 'secret.txt'), 'secret');
    const { pressroom, web } = await host(staticDir);
    const spaced = await fetch(`${web.origin}/two%20words.js`);
    expect(spaced.status).toBe(200);
    expect(spaced.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    for (const path of [
      '/%E0%A4%A',
      '/%2e%2e/renderer-private/secret.txt',
      '/..%2frenderer-private/secret.txt',
      '/..%5crenderer-private%5csecret.txt',
      '/%252e%252e/renderer-private/secret.txt',
      '/index.html%00.js',
    ])
      expect((await fetch(`${web.origin}${path}`)).status, path).toBe(404);
    await web.close();
    pressroom.close();
  });

  it('sends text files as the build compressed them, by what the browser accepts', async () => {
    const staticDir = mkdtempSync(join(tmpdir(), 'pressroom-static-'));
    const script = `export const words = ${JSON.stringify('bread and butter '.repeat(2000))};`;
    writeFileSync(join(staticDir, 'app.js'), script);
    writeFileSync(join(staticDir, 'icon.png'), solidPng(4, 4, [0, 0, 0]));
    precompress(staticDir);
    const { pressroom, web } = await host(staticDir);
    const get = (path: string, acceptEncoding?: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>(
        (resolveGet, reject) => {
          const headers = acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding };
          request(`${web.origin}${path}`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolveGet({
                encoding: response.headers['content-encoding'],
                vary: response.headers.vary,
                body: Buffer.concat(chunks),
              }),
            );
          })
            .on('error', reject)
            .end();
        },
      );
    const brotli = await get('/app.js', 'gzip, deflate, br, zstd');
    expect(brotli.encoding).toBe('br');
    expect(brotli.vary).toBe('Accept-Encoding');
    expect(brotli.body.length).toBeLessThan(script.length / 20);
    expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
    for (const accept of ['gzip, deflate', 'br;q=0, *']) {
      const gzip = await get('/app.js', accept);
      expect(gzip.encoding, accept).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toBe(script);
    }
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/app.js', accept);
      expect(plain.encoding, accept).toBeUndefined();
      expect(plain.body.toString()).toBe(script);
    }
    // A picture is compressed already: sent as it is.
    expect((await get('/icon.png', 'br, gzip')).encoding).toBeUndefined();
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
