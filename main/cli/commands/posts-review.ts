// `posts submit|approve|request-changes|comment ID` and `posts list --state STATE` (Node, CLI):
// approvals in a team workspace, asked through the one door; the team server decides.
import { Option } from 'commander';
import type { Command } from 'commander';
import type { ReviewItem, ReviewStep } from '../../../shared/review';
import { APPROVAL_STATES } from '../../../shared/team';
import type { ApprovalState } from '../../../shared/team';
import { call } from '../../core/operations';
import { CliError, createOutput } from '../output';
import { globalOptions } from '../options';
import { withWorkspace } from '../workspace';

type Move = 'submitPost' | 'approvePost' | 'requestChanges';

function postId(text: string): number {
  const id = Number(text);
  if (!Number.isInteger(id) || id <= 0) throw new CliError(`${text} is not a post id.`);
  return id;
}

function registerMove(posts: Command, name: string, operation: Move, what: string): void {
  posts
    .command(`${name} <id>`)
    .description(what)
    .option('--comment <text>', 'a comment beside it (required to request changes)')
    .action(async (id: string, options: { comment?: string }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      if (operation === 'requestChanges' && options.comment === undefined)
        throw new CliError('Say what to change: give --comment "…".');
      const input = {
        id: postId(id),
        ...(options.comment !== undefined ? { comment: options.comment } : {}),
      };
      const step: ReviewStep = await withWorkspace(command, (pressroom) =>
        call(pressroom, operation, input as { id: number; comment: string }),
      );
      output.result(step, step.message);
    });
}

export function describeReviewItem(item: ReviewItem): string {
  const since = item.since === null ? '' : ` since ${new Date(item.since).toISOString()}`;
  return `#${item.postId} ${item.state}${since}  ${item.text.replace(/\s+/g, ' ').slice(0, 60)}`;
}

export function registerReview(posts: Command): void {
  registerMove(posts, 'submit', 'submitPost', 'Send a team post for review');
  registerMove(posts, 'approve', 'approvePost', 'Approve a team post in review');
  registerMove(
    posts,
    'request-changes',
    'requestChanges',
    'Send a team post in review back to its author, saying what to change',
  );
  posts
    .command('comment <id>')
    .description('Comment on a team post (shared with the team)')
    .requiredOption('--text <text>', 'the comment')
    .action(async (id: string, options: { text: string }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const kept = await withWorkspace(command, (pressroom) =>
        call(pressroom, 'commentOnPost', { id: postId(id), text: options.text }),
      );
      output.result(kept, 'Comment kept.');
    });
}

/** `posts list --state STATE`: the team posts in an approval state, oldest first. */
export const stateOption = new Option(
  '--state <state>',
  'only team posts in this approval state',
).choices(APPROVAL_STATES);

export async function listInState(command: Command, state: ApprovalState): Promise<void> {
  const output = createOutput((await globalOptions(command)).json);
  const { inState } = await withWorkspace(command, (pressroom) =>
    call(pressroom, 'listReview', { state }),
  );
  output.result(
    inState,
    inState.length === 0 ? `No team post is ${state}.` : inState.map(describeReviewItem).join('\n'),
  );
}
