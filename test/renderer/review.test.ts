// The Review screen: what waits for my approval and what was sent back to me, approve and send
// back by key and by button, a post approved after its time, and a workspace not in a team.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewResults, ReviewStep } from '../../shared/review';
import ReviewScreen from '../../renderer/src/screens/ReviewScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { Shell } from '../../renderer/src/state/shell.svelte';
import { FakeTransport, ok } from './fake-transport';

const NOT_SHOWN = { ok: false as const, error: { kind: 'internal' as const, message: 'not here' } };

function lists(over: Partial<ReviewResults['listReview']> = {}): ReviewResults['listReview'] {
  return {
    waitsForMe: [
      { postId: 7, text: 'Autumn sale', state: 'in_review', since: Date.UTC(2026, 10, 27, 9) },
      { postId: 9, text: 'New bread', state: 'in_review', since: Date.UTC(2026, 10, 27, 10) },
    ],
    sentBackToMe: [
      {
        postId: 4,
        text: 'Opening hours',
        state: 'changes_requested',
        since: Date.UTC(2026, 10, 26),
      },
    ],
    inState: [],
    pending: [],
    ...over,
  };
}

const step = (over: Partial<ReviewStep> = {}): ReviewStep => ({
  state: 'approved',
  waitingToSync: false,
  pastDue: null,
  message: 'Approved.',
  ...over,
});

function setup(answers: ConstructorParameters<typeof FakeTransport>[0] = {}) {
  const transport = new FakeTransport({
    listReview: () => ok(lists()),
    getSettings: () => NOT_SHOWN,
    status: () => NOT_SHOWN,
    ...answers,
  });
  const shell = new Shell(transport);
  render(ReviewScreen, { context: shellContext(shell) });
  return { transport, shell };
}

const callsOf = (transport: FakeTransport, operation: string) =>
  transport.calls.filter((call) => call.operation === operation).map((call) => call.input);

afterEach(() => cleanup());

describe('the Review screen', () => {
  it('lists what waits for me and what was sent back to me, each state in a sign and words', async () => {
    setup();
    const waiting = await screen.findByRole('region', { name: 'Waiting for my approval' });
    const items = within(waiting).getAllByRole('listitem');
    expect(items.map((item) => item.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      expect.stringMatching(/^◔ In review Autumn sale since .*Approve Request changes$/),
      expect.stringMatching(/^◔ In review New bread since .*Approve Request changes$/),
    ]);
    const back = screen.getByRole('region', { name: 'Sent back to me' });
    expect(within(back).getByText('Changes requested')).toBeTruthy();
    expect(within(back).getByRole('button', { name: 'Open to edit' })).toBeTruthy();
  });

  it('approves the post in focus with A, and sends one back with R and a comment', async () => {
    const { transport, shell } = setup({
      approvePost: () => ok(step()),
      requestChanges: () => ok(step({ state: 'changes_requested', message: 'Sent back.' })),
    });
    const approve = await screen.findAllByRole('button', { name: 'Approve' });
    await fireEvent.keyDown(approve[1]!, { key: 'a' });
    await waitFor(() => expect(shell.notices.list.at(-1)?.text).toBe('Approved.'));
    expect(callsOf(transport, 'approvePost')).toEqual([{ id: 9 }]);

    const changes = screen.getAllByRole('button', { name: 'Request changes' });
    await fireEvent.keyDown(changes[0]!, { key: 'R' });
    const box = await screen.findByLabelText('What to change');
    await fireEvent.click(screen.getByRole('button', { name: 'Send back' }));
    expect(shell.notices.list.at(-1)?.text).toBe(
      'Say what to change: sending a post back needs a comment.',
    );
    expect(callsOf(transport, 'requestChanges')).toEqual([]);
    await fireEvent.input(box, { target: { value: 'Say until when.' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Send back' }));
    await waitFor(() => expect(shell.notices.list.at(-1)?.text).toBe('Sent back.'));
    expect(callsOf(transport, 'requestChanges')).toEqual([{ id: 7, comment: 'Say until when.' }]);
    expect(screen.queryByLabelText('What to change')).toBeNull();
  });

  it('offers to publish now a post approved after its time', async () => {
    const message =
      'Approved, but its time (2026-11-27 09:00 UTC) has passed: publish it now or pick a new time.';
    const { transport, shell } = setup({
      approvePost: () => ok(step({ pastDue: Date.UTC(2026, 10, 27, 9), message })),
      queuePost: () => ok({}),
    });
    const [approve] = await screen.findAllByRole('button', { name: 'Approve' });
    await fireEvent.click(approve!);
    await waitFor(() => expect(shell.notices.list.at(-1)?.text).toBe(message));
    const notice = shell.notices.list.at(-1)!;
    expect(notice.action?.label).toBe('Publish now');
    shell.notices.act(notice);
    await Promise.resolve();
    expect(callsOf(transport, 'queuePost')).toEqual([{ id: 7, mode: 'publish_now' }]);
  });

  it('says why when the workspace is not in a team, shows what waits to sync, and dismisses a refused step', async () => {
    setup({
      listReview: () => ({
        ok: false,
        error: { kind: 'not_allowed', message: 'This workspace is not in a team.' },
      }),
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This workspace is not in a team.',
    );
    cleanup();
    const waiting = {
      id: 1,
      postId: 7,
      from: 'draft' as const,
      to: 'in_review' as const,
      askedAt: 0,
      state: 'waiting' as const,
      reason: null,
    };
    const refused = {
      ...waiting,
      id: 2,
      postId: 9,
      to: 'approved' as const,
      state: 'refused' as const,
      reason: 'Only an approver can approve this post.',
    };
    let pending = [waiting, refused];
    const { transport } = setup({
      listReview: () => ok(lists({ pending })),
      dismissReviewStep: (input) => {
        pending = pending.filter((step) => step.id !== (input as { id: number }).id);
        return ok({ id: 2 });
      },
    });
    const asked = await screen.findByRole('region', { name: 'Asked here' });
    const lines = () =>
      within(asked)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.replace(/\s+/g, ' ').trim());
    expect(lines()).toEqual([
      'Post #7 → In review: waiting to sync',
      'Post #9 → Approved: refused: Only an approver can approve this post. Dismiss',
    ]);
    // Only a refused step can be dismissed: one waiting to sync may still be applied.
    expect(within(asked).getAllByRole('button')).toHaveLength(1);
    await fireEvent.click(
      within(asked).getByRole('button', { name: 'Dismiss: Post #9 → Approved' }),
    );
    await waitFor(() => expect(lines()).toEqual(['Post #7 → In review: waiting to sync']));
    expect(callsOf(transport, 'dismissReviewStep')).toEqual([{ id: 2 }]);
  });
});
