// How a platform speaks, as `pressroom check` and Settings' connection test report it (pure
// TypeScript, shared by main and renderer): the report's shape and its words for people.

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

const RESET_WORDS: Record<ResetFormat, string> = {
  'delta-seconds': 'seconds until the window resets',
  'epoch-seconds': 'the reset instant in Unix seconds',
  'epoch-milliseconds': 'the reset instant in Unix milliseconds',
  'http-date': 'the reset instant as an HTTP date',
};

const PAGINATION_WORDS: Record<PaginationStyle, string> = {
  page: 'page and per_page numbers',
  cursor: 'a cursor',
  link: 'a Link header',
  'next-url': 'a next URL in the body',
  offset: 'offset and limit',
};

const ERROR_WORDS: Record<ErrorShape, string> = {
  'error-object': '{"error": {"code", "message"}}',
  'error-string': '{"error": "…"}',
  'problem+json': 'problem+json (type, title, detail)',
  'errors-list': '{"errors": …}',
  message: '{"message": "…"}',
  text: 'plain text',
  empty: 'an empty body',
};

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The report in sentences, one per line, for the CLI without --json and for Settings. */
export function describeConnection(report: ConnectionReport): string[] {
  const lines = [report.token.message];
  if (!report.token.accepted) return lines;
  const rate = report.rate_limit;
  if (rate.headers === null) lines.push('Rate limit: no rate-limit headers were sent.');
  else {
    const limit = rate.limit === null ? 'no limit stated' : `limit ${rate.limit} per window`;
    const reset = rate.reset === null ? 'no reset sent' : `Reset as ${RESET_WORDS[rate.reset]}`;
    lines.push(`Rate limit: ${rate.headers} headers, ${limit}, ${reset}.`);
  }
  if (rate.skew_ms !== null) {
    lines.push(
      Math.abs(rate.skew_ms) < 1_000
        ? 'Server clock: within a second of this computer’s.'
        : `Server clock: ${seconds(Math.abs(rate.skew_ms))} ${rate.skew_ms > 0 ? 'ahead of' : 'behind'} this computer’s.`,
    );
  }
  const { envelope, pagination } = report.lists;
  if (envelope !== null) {
    const where = envelope === 'array' ? 'a bare array' : `an array under "${envelope}"`;
    const paging =
      pagination === null ? 'no paging fields seen' : `paged by ${PAGINATION_WORDS[pagination]}`;
    lines.push(`Lists: ${where}, ${paging}.`);
  }
  const idWords = (type: IdType) => (type === 'number' ? 'numbers' : 'strings');
  if (report.ids === 'mixed') {
    const each = Object.entries(report.id_types).map(([list, type]) => `${list}: ${idWords(type)}`);
    lines.push(`Ids: mixed (${each.join(', ')}).`);
  } else if (report.ids !== null) lines.push(`Ids: ${idWords(report.ids)}.`);
  if (report.errors.shape !== null)
    lines.push(`Errors: ${ERROR_WORDS[report.errors.shape]} (seen on a ${report.errors.status}).`);
  lines.push(`${report.requests} read requests.`);
  return lines;
}
