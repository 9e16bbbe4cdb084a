// The reference server's run-time state that the admin API inspects and changes (Node, main
// process): the faults it injects, its request counters and its clock. server.ts owns the values;
// admin.ts receives them, so neither imports the other.

/**
 * Answers a write can get after it committed, seen from proxies and lax platforms: 204 without a
 * body, 201 with only a Location header, JSON cut short, the connection lost halfway through the
 * body, a proxy's HTML 502 page, an empty 500.
 */
export const ODD_ANSWERS = [
  'no_content',
  'location_only',
  'truncated',
  'cut_off',
  'html_502',
  'empty_500',
] as const;
export type OddAnswer = (typeof ODD_ANSWERS)[number];

export interface Faults {
  /** Added before every API request is handled. */
  latencyMs: number;
  /** Share of API requests answered 503 without being handled. */
  errorRate: number;
  /** Share of successful writes whose connection is dropped after the write committed. */
  dropAfterCommitRate: number;
  /** Share of successful writes answered oddly, as `oddAnswer` says, after the write committed. */
  oddAnswerRate: number;
  oddAnswer: OddAnswer;
  /** Acts like a platform that ignores Idempotency-Key, so clients must not count on it. */
  ignoreIdempotency: boolean;
  /** Lists ignore `client_reference`, as platforms ignore query parameters they do not know. */
  ignoreReferenceFilter: boolean;
}

export interface ServerStats {
  requests: number;
  byStatus: Record<string, number>;
  rateLimited: number;
  injectedErrors: number;
  droppedAfterCommit: number;
  oddAfterCommit: number;
}

/** The server's clock: the machine's (or a test's), moved by `offsetMs`. */
export interface ServerClock {
  now: () => number;
  offsetMs: number;
}

/** No fault injected: the server answers as the spec says. */
export function noFaults(): Faults {
  return {
    latencyMs: 0,
    errorRate: 0,
    dropAfterCommitRate: 0,
    oddAnswerRate: 0,
    oddAnswer: 'no_content',
    ignoreIdempotency: false,
    ignoreReferenceFilter: false,
  };
}

export function emptyStats(): ServerStats {
  return {
    requests: 0,
    byStatus: {},
    rateLimited: 0,
    injectedErrors: 0,
    droppedAfterCommit: 0,
    oddAfterCommit: 0,
  };
}
