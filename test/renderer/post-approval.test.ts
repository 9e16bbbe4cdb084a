// The post editor of a team post: its approval state in a sign and words, the buttons its state
// offers, the team server's refusal in its own words, comments (bounded, empty refused) with author
// and time, and the history of its states; nothing of it in a workspace of one. Scanned by axe.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import axe from 'axe-core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReviewResults, ReviewStep } from '../../shared/review';
import type { LocalPost, Status } from '../../shared/domain';
import type { TeamStatus } from '../../shared/team';
import PostEditorDialog from '../../renderer/src/components/post-editor/PostEditorDialog.svelte';
import { PostEditor } from '../../renderer/src/state/post-editor.svelte';
import { post, refused, shellWith, stubJsdom, TEAM } from './post-editor-fixtures';
import { ok, type Answer } from './fake-transport';

const AT = Date.UTC(2026, 10, 27, 9, 30);

function approval(
  over: Partial<ReviewResults['getPostApproval']> = {},
): ReviewResults['getPostApproval'] {
  return {
    state: 'in_review',
    author: 'Ada',
    comments: [{ member: 'm_1', name: 'Grace', at: AT, text: 'Shorter title, please' }],
    history: [
      { seq: 1, at: AT, member: 'm_2', name: 'Ada', action: 'submit', post: 'p', detail: '' },
    ],
    pending: [],
    publishWait: null,
    ...over,
  };
}

const step = (over: Partial<ReviewStep> = {}): ReviewStep => ({
  state: 'in_review',
  waitingToSync: false,
  pastDue: null,
  message: 'Sent for review.',
  ...over,
});

async function setup(
  answers: Record<string, Answer> = {},
  team: TeamStatus | null = TEAM,
  status: LocalPost['status'] = 'draft',
) {
  const { shell, transport } = await shellWith({
    getPostApproval: () => ok(approval()),
    ...answers,
  });
  shell.status = { online: true, paused: null, team } as Status;
  const scheduledAt = Date.now() + 86_400_000;
  const editor = new PostEditor(shell, { post: post({ id: 5, status, scheduledAt }) });
  render(PostEditorDialog, {
    props: { editor, bots: [], onsaved: vi.fn(), onclose: vi.fn() },
  });
  const dialog = screen.getByRole('dialog', { name: 'Edit post' });
  return { shell, transport, dialog };
}

const section = async () => screen.findByRole('region', { name: 'Approval' });

beforeAll(stubJsdom);
afterEach(() => cleanup());

describe('the approval of a team post in the editor', () => {
  it('shows its state in a sign and words, its comments with author and time, and its history', async () => {
    await setup();
    const panel = await section();
    await within(panel).findByText(/In review, written by Ada/);
    const [comment] = within(panel).getAllByRole('listitem');
    expect(comment?.textContent?.replace(/\s+/g, ' ')).toMatch(
      /^Grace, .*2026.*10:30.*: Shorter title, please$/,
    );
    expect(within(panel).getByText('History of its states')).toBeTruthy();
    expect(panel.textContent).toMatch(/Ada:\s+submit/);
    // In review offers the approver's two answers, not Submit.
    expect(within(panel).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Request changes' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Submit for review' })).toBeNull();
    const result = await axe.run(panel, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('submits a draft for review and shows the state the server answered', async () => {
    let state: ReviewResults['getPostApproval'] = approval({ state: 'draft', comments: [] });
    const { transport, shell } = await setup({
      getPostApproval: () => ok(state),
      submitPost: () => {
        state = approval({ state: 'in_review', comments: [] });
        return ok(step());
      },
    });
    const panel = await section();
    await fireEvent.click(await within(panel).findByRole('button', { name: 'Submit for review' }));
    await within(panel).findByText(/In review/);
    expect(transport.callsOf('submitPost')).toEqual([{ id: 5 }]);
    await waitFor(() => expect(shell.notices.list.at(-1)?.text).toBe('Sent for review.'));
  });

  it('shows the team server’s refusal in its own words', async () => {
    const sentence = 'Only an approver can approve this post; Settings → Team lists who can.';
    await setup({ approvePost: () => refused(sentence) });
    const panel = await section();
    await fireEvent.click(await within(panel).findByRole('button', { name: 'Approve' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(sentence);
  });

  it('asks for a comment before sending a post back, then sends it with the comment', async () => {
    const { transport } = await setup({
      requestChanges: () => ok(step({ state: 'changes_requested', message: 'Sent back.' })),
    });
    const panel = await section();
    await fireEvent.click(await within(panel).findByRole('button', { name: 'Request changes' }));
    expect((await within(panel).findByRole('alert')).textContent).toMatch(/needs one/);
    expect(transport.callsOf('requestChanges')).toEqual([]);
    await fireEvent.input(within(panel).getByLabelText('Comment'), {
      target: { value: '  Use the new price  ' },
    });
    await fireEvent.click(within(panel).getByRole('button', { name: 'Request changes' }));
    await waitFor(() =>
      expect(transport.callsOf('requestChanges')).toEqual([
        { id: 5, comment: 'Use the new price' },
      ]),
    );
  });

  it('refuses an empty comment and one over the limit with a sentence, and sends a good one', async () => {
    const { transport } = await setup({ commentOnPost: () => ok({ at: AT }) });
    const panel = await section();
    const add = await within(panel).findByRole('button', { name: 'Add comment' });
    const field = within(panel).getByLabelText('Comment');
    await fireEvent.input(field, { target: { value: '   ' } });
    await fireEvent.click(add);
    expect((await within(panel).findByRole('alert')).textContent).toMatch(/empty one is not sent/);
    await fireEvent.input(field, { target: { value: 'x'.repeat(1001) } });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(panel.textContent).toContain('1001 / 1000 characters (1 too many)');
    await fireEvent.click(add);
    expect(transport.callsOf('commentOnPost')).toEqual([]);
    await fireEvent.input(field, { target: { value: 'Looks good' } });
    await fireEvent.click(add);
    await waitFor(() =>
      expect(transport.callsOf('commentOnPost')).toEqual([{ id: 5, text: 'Looks good' }]),
    );
    await waitFor(() => expect((field as HTMLTextAreaElement).value).toBe(''));
  });

  it('holds Publish now of a scheduled post that waits for approval, saying why, and lets it go once approved', async () => {
    const wait =
      "This post waits for approval: it is in review. The team needs an approver's yes before a post goes out.";
    let answer = approval({ publishWait: wait });
    const { transport, dialog } = await setup(
      { getPostApproval: () => ok(answer), approvePost: () => ok(step({ state: 'approved' })) },
      TEAM,
      'scheduled',
    );
    const panel = await section();
    await within(panel).findByText(/In review/);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'More' }));
    const held = within(dialog).getByRole('menuitem', { name: 'Publish now' });
    expect(held.getAttribute('aria-disabled')).toBe('true');
    const reason = document.getElementById(held.getAttribute('aria-describedby')!);
    expect(reason?.textContent).toBe(`Publish now: ${wait}`);
    await fireEvent.click(held);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(transport.callsOf('queuePost')).toEqual([]);
    await fireEvent.keyDown(held, { key: 'Escape' });

    answer = approval({ state: 'approved', publishWait: null });
    await fireEvent.click(within(panel).getByRole('button', { name: 'Approve' }));
    await within(panel).findByText(/Approved/);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'More' }));
    const free = within(dialog).getByRole('menuitem', { name: 'Publish now' });
    expect(free.getAttribute('aria-disabled')).toBeNull();
    await fireEvent.click(free);
    expect(
      await screen.findByRole('alertdialog', { name: /^Publish now instead of at / }),
    ).toBeTruthy();
  });

  it('shows no approval in a workspace of one', async () => {
    const { transport, dialog } = await setup({}, null);
    expect(within(dialog).queryByRole('region', { name: 'Approval' })).toBeNull();
    expect(transport.callsOf('getPostApproval')).toEqual([]);
  });
});
