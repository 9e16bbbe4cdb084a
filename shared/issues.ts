// One plain sentence per field (pure, any process), apart from zod so that code reporting issues
// (core/errors.ts, the CLI's output) loads without it: `serve` prints its URL before zod loads (#32).

export interface FieldIssue {
  /** Path of the field, e.g. `media_urls[1]` or `messages[0].role`; empty for the whole value. */
  field: string;
  message: string;
}

/** One line for all issues: `price: must be ...; sku: is required`. */
export function summarizeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
}
