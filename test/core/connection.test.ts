// The connection check against servers that speak differently: the reference server with each
// form of Reset and its clock ahead, and small servers in front of it that wrap lists, page,
// number ids and word errors as other platforms do. Never more than 5 requests each.
import { describe, expect, it } from 'vitest';
import { describeConnection } from '../../shared/connection';
import { checkConnection } from '../../main/core/connection';
import { InvalidInput } from '../../main/core/errors';
import { forward, startFront } from '../support/front';
import type { FrontAnswer } from '../support/front';
import { rejectionOf, startTestPlatform } from '../support/platform';

const FAST = { spacingMs: 0 };

describe('checkConnection', () => {
  it.each(['delta-seconds', 'epoch-seconds', 'epoch-milliseconds', 'http-date'] as const)(
    'names a Reset written as %s, and the reference server’s own conventions',
    async (reset) => {
      const platform = await startTestPlatform({
        seed: 'demo',
        rateHeaders: { reset },
      });
      const report = await checkConnection(
        { apiBase: platform.server.baseUrl, token: platform.server.token },
        FAST,
      );
      expect(report).toMatchObject({
        token: { accepted: true, status: 200 },
        rate_limit: { headers: 'X-RateLimit-*', reset, limit: 60 },
        lists: { envelope: 'data', pagination: 'page' },
        ids: 'string',
        errors: { status: 404, shape: 'error-object' },
      });
      expect(report.requests).toBeLessThanOrEqual(5);
      expect(Math.abs(report.rate_limit.skew_ms ?? Infinity)).toBeLessThan(1_000);
    },
  );

  it('measures a server clock 90 s ahead, and leaves out a limit not sent', async () => {
    const platform = await startTestPlatform({
      seed: 'demo',
      clockOffsetMs: 90_000,
      rateLimit: 20,
      rateHeaders: { limit: false },
    });
    const report = await checkConnection({
      apiBase: platform.server.baseUrl,
      token: platform.server.token,
    });
    expect(report.rate_limit).toMatchObject({ limit: null, remaining: expect.any(Number) });
    expect(Math.abs((report.rate_limit.skew_ms ?? 0) - 90_000)).toBeLessThan(600);
    expect(describeConnection(report)).toContainEqual(
      expect.stringMatching(
        /^Server clock: (89\.[5-9]|90\.[0-4]) s ahead of this computer’s; Pressroom goes by the server’s\.$/,
      ),
    );
  });

  /** A server in front of the reference server whose lists and errors look like another's. */
  async function dressed(reshape: (body: Record<string, unknown>, path: string) => FrontAnswer) {
    const platform = await startTestPlatform({ seed: 'demo' });
    const front = await startFront(async (request) => {
      const answer = await forward(platform.server.origin, request);
      if (answer.status >= 400) return answer;
      const body = JSON.parse(answer.body ?? 'null') as Record<string, unknown>;
      return reshape(body, request.path);
    });
    const report = await checkConnection(
      { apiBase: front.baseUrl, token: platform.server.token },
      FAST,
    );
    expect(front.seen.length).toBeLessThanOrEqual(5);
    return report;
  }

  const numbered = (items: unknown) =>
    (items as { id: string }[]).map((item) => ({ ...item, id: Number(item.id.split('_')[1]) }));
  const json = (body: unknown, headers: Record<string, string> = {}): FrontAnswer => ({
    status: 200,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

  it('names a bare array with a Link header, and number ids', async () => {
    const report = await dressed((body, path) =>
      json(numbered(body.data), { Link: `<${path}&page=2>; rel="next"` }),
    );
    expect(report.lists).toEqual({ envelope: 'array', pagination: 'link' });
    expect(report.ids).toBe('number');
  });

  it('names items with a cursor', async () => {
    const report = await dressed((body) =>
      json({ items: body.data, next_cursor: 'abc', has_more: true }),
    );
    expect(report.lists).toEqual({ envelope: 'items', pagination: 'cursor' });
    expect(report.ids).toBe('string');
  });

  it('names results with a next URL', async () => {
    const report = await dressed((body) =>
      json({ count: 9, next: 'https://api.example.com/api/v1/bots?page=2', results: body.data }),
    );
    expect(report.lists).toEqual({ envelope: 'results', pagination: 'next-url' });
  });

  it('names data of another kind, and another key', async () => {
    const report = await dressed((body) => json({ bots: numbered(body.data) }));
    expect(report.lists).toEqual({ envelope: 'bots', pagination: null });
    expect(report.ids).toBe('number');
  });

  it('names a problem+json error body', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const front = await startFront(async (request) =>
      request.path.startsWith('/api/v1/bots/')
        ? {
            status: 404,
            headers: { 'Content-Type': 'application/problem+json' },
            body: JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }),
          }
        : forward(platform.server.origin, request),
    );
    const report = await checkConnection(
      { apiBase: front.baseUrl, token: platform.server.token },
      FAST,
    );
    expect(report.errors).toEqual({ status: 404, shape: 'problem+json' });
  });

  it('says when the token is refused, in one request, without the token', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    const report = await checkConnection(
      { apiBase: platform.server.baseUrl, token: 'tok_not_a_real_one' },
      FAST,
    );
    expect(report.token).toMatchObject({ accepted: false, status: 401 });
    expect(report.requests).toBe(1);
    expect(JSON.stringify(report)).not.toContain('tok_not_a_real_one');
    expect(describeConnection(report)).toEqual([report.token.message]);
  });

  it('says in one sentence when nothing answers', async () => {
    const error = await rejectionOf(
      checkConnection({ apiBase: 'http://127.0.0.1:9/api/v1', token: 'tok_x' }, FAST),
    );
    expect(error).toBeInstanceOf(InvalidInput);
    expect((error as InvalidInput).message).toMatch(/did not answer \(connection failed/);
  });
});
