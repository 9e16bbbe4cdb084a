// The rules of the CLI's global options (Node, CLI), apart from options.ts so that zod loads only
// when an option is given to check: `npm start` prints its URL without it (#32).
import { z } from 'zod';
import { isPrivateOrSecureUrl } from '../../shared/url';
import { INSECURE_API_BASE, describeIssues } from '../../shared/validation';
import type { FieldIssue } from '../../shared/issues';

export const globalSchema = z.object({
  db: z.string().min(1).optional(),
  apiBase: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .refine((url) => /\/api\/v1\/?$/.test(url), { error: 'must end in /api/v1' })
    .refine(isPrivateOrSecureUrl, { error: INSECURE_API_BASE })
    .optional(),
  token: z.string().min(1, { error: 'must not be empty' }).optional(),
  plan: z.enum(['free', 'pro', 'enterprise']).optional(),
  json: z.boolean(),
});

export type GlobalOptions = z.infer<typeof globalSchema>;

/** The options as the schema reads them, or the issues of each field. */
export function parseGlobalOptions(
  given: Record<string, unknown>,
): { options: GlobalOptions } | { issues: FieldIssue[] } {
  const result = globalSchema.safeParse(given);
  return result.success
    ? { options: result.data }
    : { issues: describeIssues(result.error.issues) };
}
