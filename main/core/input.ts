// Input checks (Node, main process): the one door (operations.ts, invoke and call) reads every
// caller's input through the contract in shared/ before a service sees it, page, CLI and test alike.
import type { z } from 'zod';
import { operations } from '../../shared/contract';
import type { Operations } from '../../shared/contract';
import { describeIssues } from '../../shared/validation';
import { InvalidInput } from './errors';

export function validate<K extends keyof Operations>(
  operation: K,
  input: unknown,
): z.output<Operations[K]> {
  const result = operations[operation].safeParse(input);
  if (!result.success) throw new InvalidInput(describeIssues(result.error.issues));
  return result.data as z.output<Operations[K]>;
}
