// How a platform speaks, as `pressroom check` and Settings' connection test report it (pure
// TypeScript, shared by main and renderer): the report's shape and its words for people.

/**
 * Requests a minute each plan of Platform API v1 allows (docs/platform-api.md, "Plans"): the
 * pace Pressroom keeps until the platform's answers state the real limit.
 */
export const PLANS = { free: 60, pro: 600, enterprise: 6000 } as const;

/** The forms a platform writes a rate limit's Reset in (docs/platform-api.md, "Rate limits"). */
export const RESET_FORMATS = [
  'delta-seconds',
  'epoch-seconds',
  'epoch-milliseconds',
  'http-date',
] as const;
export type ResetFormat = (typeof RESET_FORMATS)[number];

export type PaginationStyle = 'page' | 'cursor' | 'link' | 'next-url' | 'offset';
export type IdType = 'number' | 'string';
export type ErrorShape =
  'error-object' | 'error-string' | 'problem+json' | 'errors-list' | 'message' | 'text' | 'empty';

/** What the check found; its keys are `check --json`'s. The token itself never appears. */
export interface ConnectionReport {
  token: { accepted: boolean; status: number | null; message: string };
  rate_limit: {
    /** The header family seen, e.g. "X-RateLimit-*"; null: none. */
    headers: string | null;
    reset: ResetFormat | null;
    /** The server's clock minus ours. */
    skew_ms: number | null;
    limit: number | null;
    remaining: number | null;
  };
  lists: {
    /** `array`, `data`, `items`, `results`, or the other key the list was under. */
    envelope: string | null;
    pagination: PaginationStyle | null;
  };
  /** The id type of every list read; `mixed` when they differ. */
  ids: IdType | 'mixed' | null;
  /** Each list read (`bots`, `posts`) and its first item's id type. */
  id_types: Record<string, IdType>;
  errors: { status: number | null; shape: ErrorShape | null };
  requests: number;
}

/** Whether the platform's error answers carry a message Pressroom can pass on. */
const READABLE_ERRORS: Record<ErrorShape, boolean> = {
  'error-object': true,
  'error-string': true,
  'problem+json': true,
  'errors-list': true,
  message: true,
  text: true,
  empty: false,
};

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The report in plain sentences, one per line, for Settings and the CLI without --json: what each
 * finding means for the user. The header names and body shapes are `check --json`'s.
 */
export function describeConnection(report: ConnectionReport): string[] {
  const lines = [report.token.message];
  if (!report.token.accepted) return lines;
  const rate = report.rate_limit;
  if (rate.headers === null)
    lines.push(
      'Pace: the platform does not say how many requests it allows, so Pressroom keeps to your plan’s pace.',
    );
  else {
    const limit =
      rate.limit === null ? 'how many requests are left' : `${rate.limit} requests a minute`;
    const reset = rate.reset === null ? '' : ' and when the count starts again';
    lines.push(`Pace: the platform says ${limit}${reset}; Pressroom keeps to it.`);
  }
  if (rate.skew_ms !== null) {
    lines.push(
      Math.abs(rate.skew_ms) < 1_000
        ? 'Server clock: within a second of this computer’s.'
        : `Server clock: ${seconds(Math.abs(rate.skew_ms))} ${rate.skew_ms > 0 ? 'ahead of' : 'behind'} this computer’s; Pressroom goes by the server’s.`,
    );
  }
  if (report.lists.envelope !== null)
    lines.push(
      report.lists.pagination === null
        ? 'Lists: read; the platform sent them whole, in one answer.'
        : 'Lists: read page by page, to the end.',
    );
  // Only a mix is worth a line: Pressroom reads either kind, but a mix is unusual enough to say.
  if (report.ids === 'mixed') {
    const idWords = (type: IdType) => (type === 'number' ? 'numbers' : 'strings');
    const each = Object.entries(report.id_types).map(([list, type]) => `${list}: ${idWords(type)}`);
    lines.push(`Ids: mixed (${each.join(', ')}).`);
  }
  if (report.errors.shape !== null)
    lines.push(
      READABLE_ERRORS[report.errors.shape]
        ? 'Errors: the platform explains a refusal; Pressroom shows its reason.'
        : 'Errors: the platform refuses without a reason; Pressroom says what the refusal means.',
    );
  lines.push(`The test made ${report.requests} requests and changed nothing.`);
  return lines;
}
