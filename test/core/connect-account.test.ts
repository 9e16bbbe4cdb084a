// The page's door to an account (connectAccount): never to this computer or a local network,
// never quoting what the server said, and never replacing a connected account unless the user
// confirms it outside the page.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { invoke } from '../../main/core/operations';
import { isLocalAddress } from '../../main/platform/public-address';
import { startTestPlatform } from '../support/platform';
import { openDemoSession } from '../support/session';

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A stand-in service on 127.0.0.1 that answers every request with `status` and a secret. */
async function talkativeService(status: number): Promise<string> {
  const server = createServer((_request, response) =>
    response
      .writeHead(status, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ error: { code: 'oops', message: 'db password is hunter2' } })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
}

describe('connectAccount from the page', () => {
  it('refuses a platform on this computer or a local network', async () => {
    const { session } = await openDemoSession({ allowLocalPlatform: false });
    for (const apiBase of [
      'http://127.0.0.1:4010/api/v1',
      'http://localhost:4010/api/v1',
      'http://[::1]:4010/api/v1',
      'https://10.0.0.5/api/v1',
      'https://192.168.1.20/api/v1',
      'https://172.20.0.1/api/v1',
      'https://169.254.169.254/api/v1',
      'https://[fe80::1]/api/v1',
      'https://[fd00::5]/api/v1',
      'https://[::ffff:127.0.0.1]/api/v1',
    ]) {
      const refused = await invoke(session, 'connectAccount', { apiBase, token: 'tok_1234567890' });
      expect(refused, apiBase).toMatchObject({
        ok: false,
        error: {
          kind: 'invalid_input',
          issues: [{ field: 'apiBase', message: expect.stringMatching(/local network/) }],
        },
      });
    }
    expect(session.accountSettings().mode).toBe('demo');
  });

  it('tells local addresses from public ones', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '100.64.0.1', '::1', 'fe80::1', 'fc00::1'])
      expect(isLocalAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isLocalAddress(address), address).toBe(false);
  });

  it('sees this computer and its network inside the IPv6 forms that carry an IPv4 address', () => {
    // As new URL() writes them: NAT64, 6to4, the old IPv4-compatible form, IPv4-mapped.
    for (const address of [
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '::7f00:1',
      '::ffff:7f00:1',
      'fec0::1',
      // Not a platform anywhere: multicast, reserved, broadcast, benchmarking.
      '224.0.0.1',
      'ff02::1',
      '240.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
    ])
      expect(isLocalAddress(address), address).toBe(true);
    for (const address of ['64:ff9b::808:808', '2002:808:808::1', '::ffff:808:808'])
      expect(isLocalAddress(address), address).toBe(false);
  });

  it('names the status of a refusal, never the text the server sent', async () => {
    const { session } = await openDemoSession();
    for (const status of [500, 401, 404]) {
      const apiBase = await talkativeService(status);
      const result = await invoke(session, 'connectAccount', { apiBase, token: 'tok_1234567890' });
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).toContain(String(status));
      expect(JSON.stringify(result)).not.toContain('hunter2');
    }
  });

  it('does not follow a redirect from the base it checked to another address', async () => {
    // The base passed the address check; its redirect (to a router, a local admin service)
    // would not be checked again.
    const reached: string[] = [];
    const target = createServer((request, response) => {
      reached.push(request.url ?? '');
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[]}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    servers.push(target);
    const internal = `http://127.0.0.1:${(target.address() as AddressInfo).port}/admin`;
    const redirecting = createServer((_request, response) =>
      response.writeHead(307, { Location: internal }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    servers.push(redirecting);
    const apiBase = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/api/v1`;
    const { session } = await openDemoSession();
    const result = await invoke(session, 'connectAccount', { apiBase, token: 'tok_1234567890' });
    expect(result).toMatchObject({
      ok: false,
      error: { issues: [{ field: 'apiBase', message: expect.stringContaining('307') }] },
    });
    expect(reached).toEqual([]);
    expect(session.accountSettings().mode).toBe('demo');
  });

  it('replaces a connected account only when the user confirms it outside the page', async () => {
    const first = await startTestPlatform({ seed: 'demo' });
    const second = await startTestPlatform({ seed: 'demo' });
    const answers: boolean[] = [];
    const asked: [string, string][] = [];
    const { session } = await openDemoSession({
      platform: first,
      confirmAccountSwitch: async (from, to) => {
        asked.push([from, to]);
        return answers.shift() ?? false;
      },
    });
    const connect = (platform: typeof first) =>
      invoke(session, 'connectAccount', {
        apiBase: platform.server.baseUrl,
        token: platform.server.token,
      });
    // From the demo workspace, connecting asks nothing.
    expect(await connect(first)).toMatchObject({ ok: true });
    expect(asked).toEqual([]);
    answers.push(false);
    expect(await connect(second)).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    expect(asked).toEqual([[first.server.baseUrl, second.server.baseUrl]]);
    expect(session.accountSettings().apiBase).toBe(first.server.baseUrl);
    answers.push(true);
    expect(await connect(second)).toMatchObject({ ok: true });
    expect(session.accountSettings().apiBase).toBe(second.server.baseUrl);
  });

  it('keeps a connected account when no one can be asked', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const { session } = await openDemoSession({ platform });
    const connect = () =>
      invoke(session, 'connectAccount', {
        apiBase: platform.server.baseUrl,
        token: platform.server.token,
      });
    expect(await connect()).toMatchObject({ ok: true });
    const again = await connect();
    expect(again).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    expect(!again.ok && again.error.message).toMatch(/--allow-account-switch/);
  });
});
