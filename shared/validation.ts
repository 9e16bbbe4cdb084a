// Schema helpers shared by every boundary (HTTP, IPC, CLI, CSV): pure, runs in any process.
// They turn zod's issues into one plain sentence per field, so errors name the field and say why.
import { z } from 'zod';
import { isHttpUrl, isPrivateOrSecureUrl } from './url';

import type { FieldIssue } from './issues';

export { summarizeIssues, type FieldIssue } from './issues';

function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`,
    )
    .join('');
}

export function describeIssues(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.flatMap((issue): FieldIssue[] => {
    const field = fieldPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: field ? `${field}.${key}` : key,
        message: 'is not a known field',
      }));
    }
    if (issue.code === 'invalid_type') {
      const missing = /received undefined$/.test(issue.message);
      return [{ field, message: missing ? 'is required' : `must be ${article(issue.expected)}` }];
    }
    return [{ field, message: issue.message }];
  });
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** A string trimmed of surrounding white space, with length bounds stated in plain words. */
export function text(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
    .max(max, { error: `must be at most ${max} characters` });
}

export const httpUrl = z
  .string()
  .max(2048, { error: 'must be at most 2048 characters' })
  .refine(isHttpUrl, { error: 'must be an absolute http or https URL' });

/** Why a platform API base on http:// to another computer is refused (the token would travel in clear). */
export const INSECURE_API_BASE =
  'must start with https://: over http:// the API token travels in clear text (only localhost, 127.0.0.1 or [::1] may use http)';

/** The platform's API base: https, or http to this computer only. */
export const apiBaseUrl = httpUrl.refine(isPrivateOrSecureUrl, { error: INSECURE_API_BASE });

/** True for a calendar date that exists: JavaScript's Date rolls 2026-02-30 over to March. */
export function isRealDate(isoDate: string): boolean {
  const time = Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(isoDate.slice(0, 10));
}

/** RFC 3339 with an explicit offset; a bare local time is ambiguous and refused. */
export const instantWithOffset = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i, {
    error: 'must be an RFC 3339 date-time with an offset, e.g. 2026-11-22T15:00:00Z',
  })
  .refine((value) => isRealDate(value) && !Number.isNaN(Date.parse(value)), {
    error: 'is not a real date-time',
  })
  .transform((value) => Date.parse(value));
