// Forms (browser): a refusal's issues sorted onto a form's fields, and the core's own checks run
// before a call, for every screen's forms (settings, webhooks, posting schedules).
import type { OperationInput, OperationName } from '../../../shared/contract';
import type { Issue } from '../../../shared/answers';

/** What went wrong with a form: a message per field, and the rest for the whole form. */
export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string>>;
  form: string | null;
}

/** A field's problem told with its subject ("API token was refused"), or undefined for none. */
export function named(subject: string, problem: string | undefined): string | undefined {
  return problem && `${subject} ${problem}`;
}

export function noErrors<F extends string>(): FormErrors<F> {
  return { fields: {}, form: null };
}

/**
 * Sorts a refusal's issues onto the form's fields (`events[1]` belongs to `events`); issues for
 * other fields, or a refusal without issues, are the whole form's.
 */
export function formErrors<F extends string>(
  error: { message: string; issues?: Issue[] },
  fields: readonly F[],
): FormErrors<F> {
  const issues = error.issues ?? [];
  if (issues.length === 0) return { fields: {}, form: error.message };
  const byField: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  for (const issue of issues) {
    const field = fields.find((name) => name === issue.field.split(/[.[]/)[0]);
    if (field)
      byField[field] = byField[field] ? `${byField[field]}; ${issue.message}` : issue.message;
    else rest.push(issue.field ? `${issue.field}: ${issue.message}` : issue.message);
  }
  return { fields: byField, form: rest.length > 0 ? rest.join('; ') : null };
}

/**
 * The core's own checks, run here first, so a mistake shows before any request, worded alike. The
 * schemas (zod) load with the first check, not with the page: the core checks every call anyway.
 */
export async function checkInput<K extends OperationName, F extends string>(
  operation: K,
  input: OperationInput<K>,
  fields: readonly F[],
): Promise<FormErrors<F> | null> {
  const [{ operations }, { describeIssues }] = await Promise.all([
    import('../../../shared/contract'),
    import('../../../shared/validation'),
  ]);
  const checked = operations[operation].safeParse(input);
  if (checked.success) return null;
  return formErrors({ message: '', issues: describeIssues(checked.error.issues) }, fields);
}
