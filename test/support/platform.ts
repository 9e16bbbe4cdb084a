// Starts the reference server for a test, with a client bound to its token.
import { afterEach } from 'vitest';
import { createPlatformClient } from '../../main/platform/client';
import type { PlatformClient, PlatformClientOptions } from '../../main/platform/client';
import { startPlatformServer } from '../../main/reference-server/server';
import type { PlatformServer, PlatformServerOptions } from '../../main/reference-server/server';

export interface TestPlatform {
  server: PlatformServer;
  client: PlatformClient;
  /** A client with another token (or none). */
  clientWith(token: string, options?: Partial<PlatformClientOptions>): PlatformClient;
  /** Calls the admin API; throws on a non-2xx answer. */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

const running: PlatformServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

export async function startTestPlatform(
  options: PlatformServerOptions = {},
): Promise<TestPlatform> {
  const server = await startPlatformServer({
    admin: true,
    timeScale: 0.001,
    randomSeed: 7,
    ...options,
  });
  running.push(server);
  const clientWith = (token: string, extra: Partial<PlatformClientOptions> = {}) =>
    createPlatformClient({ baseUrl: server.baseUrl, token, timeoutMs: 5_000, ...extra });
  return {
    server,
    client: clientWith(server.token),
    clientWith,
    async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${server.origin}/admin/v1${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${server.adminToken}`,
          'Content-Type': 'application/json',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
  };
}

/** The demo's 80 orders and 170 more: 250 in all. */
export async function platformWith250Orders(
  conventions: PlatformServerOptions['conventions'] = {},
): Promise<TestPlatform> {
  const platform = await startTestPlatform({ seed: 'demo', plan: 'enterprise', conventions });
  const { store, accountId } = platform.server;
  for (let n = 0; n < 170; n++) {
    store.orders.createOrder(accountId, {
      botId: null,
      subscriberId: null,
      status: 'paid',
      currency: 'EUR',
      createdAt: Date.UTC(2026, 10, 1) + n * 60_000,
      items: [{ productId: null, sku: `X-${n}`, name: 'Loaf', quantity: 1, unitPriceMinor: 350 }],
    });
  }
  return platform;
}

/** Resolves with the rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}
