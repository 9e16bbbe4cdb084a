// The connection check (Node, main process): how the platform at a base URL speaks, for
// `pressroom check` and Settings' "Test connection". A platform that does not answer is the
// user's to fix, said in one sentence without the token.
import type { ConnectionReport } from '../../shared/connection';
import { probeConnection } from '../platform/probe';
import { InvalidInput } from './errors';

export interface ConnectionTarget {
  apiBase: string;
  token: string;
}

/** Spacing between the check's requests: their Date headers fall at other fractions of a second. */
const SPACING_MS = 350;

export async function checkConnection(
  target: ConnectionTarget,
  options: { fetch?: typeof fetch; spacingMs?: number } = {},
): Promise<ConnectionReport> {
  try {
    return await probeConnection({
      baseUrl: target.apiBase,
      token: target.token,
      spacingMs: options.spacingMs ?? SPACING_MS,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const code = (cause as NodeJS.ErrnoException | null)?.code;
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? 'no answer within 10 s'
        : `connection failed${code ? ` (${code})` : ''}`;
    throw new InvalidInput([
      { field: 'apiBase', message: `did not answer (${why}); check the URL and your connection` },
    ]);
  }
}
