// The reference server's admin token is compared in constant time: a wrong token of the right
// length is refused, and the comparison goes through crypto.timingSafeEqual, so how long a refusal
// takes says nothing of how much of the token was right.
import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { startTestPlatform } from '../support/platform';

vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

describe('admin token', () => {
  it('is compared in constant time, and a near miss of the right length is refused', async () => {
    const { server } = await startTestPlatform();
    const token = server.adminToken ?? '';
    const state = (bearer: string) =>
      fetch(`${server.origin}/admin/v1/state`, { headers: { Authorization: `Bearer ${bearer}` } });
    const compared = vi.mocked(crypto.timingSafeEqual);
    compared.mockClear();
    const nearMiss = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect((await state(nearMiss)).status).toBe(401);
    expect(compared).toHaveBeenCalled();
    expect((await state('short')).status).toBe(401);
    expect((await state(token)).status).toBe(200);
  });
});
