// The reference server's answers to malformed requests: each status with its documented code.
import { describe, expect, it } from 'vitest';
import { startTestPlatform } from '../support/platform';

async function call(baseUrl: string, token: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...init.headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as { error?: Record<string, unknown> }) : null,
  };
}

describe('malformed requests', () => {
  it('answers 400, 404, 405, 413 and 415 with the documented error body', async () => {
    const { server } = await startTestPlatform({ seed: 'demo' });
    const json = { 'Content-Type': 'application/json' };
    const cases: [string, RequestInit, number, string][] = [
      ['/bots', { method: 'POST', headers: json, body: '{"name":' }, 400, 'invalid_json'],
      [
        '/bots',
        { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'name=x' },
        415,
        'unsupported_media_type',
      ],
      [
        '/bots',
        {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
        },
        413,
        'payload_too_large',
      ],
      ['/bots', { method: 'PUT', headers: json, body: '{}' }, 405, 'method_not_allowed'],
      ['/nothing-here', {}, 404, 'not_found'],
      ['/posts?page=0', {}, 400, 'invalid_query'],
      ['/posts?from=yesterday', {}, 400, 'invalid_query'],
      ['/bots/%E0%A4%A', {}, 400, 'invalid_request'],
    ];
    for (const [path, init, status, code] of cases) {
      const answer = await call(server.baseUrl, server.token, path, init);
      expect([path, answer.status, answer.body?.error?.code]).toEqual([path, status, code]);
      expect(answer.body?.error?.request_id).toMatch(/^req_/);
      expect(answer.headers.get('x-ratelimit-remaining')).not.toBeNull();
    }
    const wrongMethod = await call(server.baseUrl, server.token, '/bots', {
      method: 'PUT',
      headers: json,
      body: '{}',
    });
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 401 with WWW-Authenticate, and 403 for a suspended account', async () => {
    const { server, admin } = await startTestPlatform();
    const unauthorized = await call(server.baseUrl, 'wrong', '/bots');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    await admin('PATCH', '/accounts/acct_1', { suspended: true });
    const forbidden = await call(server.baseUrl, server.token, '/bots');
    expect([forbidden.status, forbidden.body?.error?.code]).toEqual([403, 'forbidden']);
  });

  it('keeps the admin API closed without --admin or without its token', async () => {
    const closed = await startTestPlatform({ admin: false });
    expect((await fetch(`${closed.server.origin}/admin/v1/state`)).status).toBe(404);
    const open = await startTestPlatform();
    expect(
      (
        await fetch(`${open.server.origin}/admin/v1/state`, {
          headers: { Authorization: `Bearer ${open.server.token}` },
        })
      ).status,
    ).toBe(401);
    const state = await open.admin<{ accounts: unknown[]; window_ms: number }>('GET', '/state');
    expect(state.accounts).toHaveLength(1);
    expect(state.window_ms).toBe(60_000);
  });
});
