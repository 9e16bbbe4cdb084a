// An account the page connected reaches public addresses only, checked at every connection: a
// name that resolves to a local address after the page's check (DNS rebinding), a redirect to a
// local address, and a local address itself are refused before a byte is sent.
import type { LookupAddress } from 'node:dns';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountFile, FileSecretStore } from '../../main/core/account';
import { invoke } from '../../main/core/operations';
import { Session } from '../../main/core/session';
import { publicOnlyFetch } from '../../main/platform/public-address';
import type { AddressPolicy } from '../../main/platform/public-address';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A server on `host` that counts its requests and answers each with `answer`. */
async function countingServer(
  host: string,
  answer: (response: ServerResponse) => void = (response) =>
    response.writeHead(200, { Connection: 'close' }).end('{}'),
): Promise<{ port: number; requests: () => number }> {
  let requests = 0;
  const server = createServer((_request, response) => {
    requests++;
    answer(response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closing.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, requests: () => requests };
}

/** A resolver that answers each lookup of any name with the next of `answers`, then the last. */
function resolverOf(...answers: string[]): NonNullable<AddressPolicy['resolve']> {
  let asked = 0;
  return ((_name: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) => {
    const address = answers[Math.min(asked++, answers.length - 1)]!;
    callback(null, [{ address, family: 4 }]);
  }) as unknown as NonNullable<AddressPolicy['resolve']>;
}

/** The code of the cause a fetch was refused with. */
async function refusal(request: Promise<Response>): Promise<string | undefined> {
  const error = await request.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, 'the request was sent').toBeInstanceOf(Error);
  return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
}

// Loopback stands for both sides here: 127.0.0.1 plays a public address, 127.0.0.2 a local one.
const secondLoopbackIsLocal = (address: string) => address === '127.0.0.2';

describe('a public-only fetch', () => {
  it('refuses a local address, by number or by the name it resolves to', async () => {
    const service = await countingServer('127.0.0.1');
    const fetch = publicOnlyFetch({ resolve: resolverOf('127.0.0.1') });
    await expect(refusal(fetch(`http://127.0.0.1:${service.port}/api/v1/bots`))).resolves.toBe(
      'ELOCALADDRESS',
    );
    await expect(
      refusal(fetch(`http://platform.example:${service.port}/api/v1/bots`)),
    ).resolves.toBe('ELOCALADDRESS');
    expect(service.requests()).toBe(0);
  });

  it('refuses a name that resolves to a local address after it was checked (DNS rebinding)', async () => {
    const service = await countingServer('0.0.0.0');
    const fetch = publicOnlyFetch({
      resolve: resolverOf('127.0.0.1', '127.0.0.2'),
      isLocal: secondLoopbackIsLocal,
    });
    const url = `http://platform.example:${service.port}/api/v1/bots`;
    expect((await fetch(url)).status).toBe(200);
    // The server closed that connection: the next request resolves the name again.
    await expect(refusal(fetch(url))).resolves.toBe('ELOCALADDRESS');
    expect(service.requests()).toBe(1);
  });

  it('refuses a redirect to a local address', async () => {
    const inside = await countingServer('127.0.0.2');
    const outside = await countingServer('127.0.0.1', (response) =>
      response
        .writeHead(302, { Location: `http://127.0.0.2:${inside.port}/admin`, Connection: 'close' })
        .end(),
    );
    const fetch = publicOnlyFetch({ isLocal: secondLoopbackIsLocal });
    await expect(refusal(fetch(`http://127.0.0.1:${outside.port}/api/v1/bots`))).resolves.toBe(
      'ELOCALADDRESS',
    );
    expect(outside.requests()).toBe(1);
    expect(inside.requests()).toBe(0);
  });
});

describe('an account the page connected', () => {
  it('never reaches a local address later, though its name passed the check once', async () => {
    // As after connecting: the account is stored; since then its name leads to this computer.
    const service = await countingServer('127.0.0.1');
    const folder = mkdtempSync(join(tmpdir(), 'prs-rebind-'));
    new AccountFile(folder).write({
      apiBase: `http://127.0.0.1:${service.port}/api/v1`,
      plan: 'free',
    });
    const secrets = new FileSecretStore(folder);
    secrets.write('tok_rebinding_1234');
    const session = await Session.open({
      folder,
      secrets,
      dbFile: ':memory:',
      watch: false,
      pressroom: { retryRules: { baseMs: 1, capMs: 5, maxAttempts: 2 } },
    });
    closing.push(() => session.close());
    expect(session.accountSettings().mode).toBe('account');

    const synced = await invoke(session, 'sync', {});
    expect(synced).toMatchObject({
      ok: true,
      value: { bots: { error: expect.stringMatching(/this computer or its local network/) } },
    });
    const checked = await invoke(session, 'checkConnection', {});
    expect(checked).toMatchObject({ ok: false });
    expect(service.requests()).toBe(0);
  });
});
