// The Review screen: what waits for my approval and what was sent back to me, approve and send
// back by key and by button, a post approved after its time, and a workspace not in a team.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReviewResults, ReviewStep } from '../../shared/review';
import type { TeamLogEntry } from '../../shared/team';
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
    teamLog: () => ok({ entries: [], csv: null }),
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

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const LOG: TeamLogEntry[] = [
  {
    seq: 1,
    at: Date.UTC(2026, 10, 27, 9),
    member: 'm_ana',
    name: 'Ana',
    action: 'draft→in_review',
    post: 'u1',
    detail: '',
  },
  {
    seq: 2,
    at: Date.UTC(2026, 10, 27, 10),
    member: 'm_bea',
    name: 'Bea',
    action: 'in_review→approved',
    post: 'u1',
    detail: '',
  },
];

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

  it('reloads when a post is sent to me for review', async () => {
    let waiting = lists().waitsForMe.slice(0, 1);
    const { transport, shell } = setup({ listReview: () => ok(lists({ waitsForMe: waiting })) });
    await shell.start(); // the shell follows the core's events from here
    const region = await screen.findByRole('region', { name: 'Waiting for my approval' });
    await within(region).findByText('Autumn sale');
    waiting = lists().waitsForMe;
    transport.emit({ type: 'review', kind: 'to_review', postId: 9, by: 'Ana' });
    expect(await within(region).findByText('New bread')).toBeTruthy();
    shell.stop();
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

  it('shows the team log, filters it by person, and exports it as CSV', async () => {
    const downloads: Blob[] = [];
    // jsdom has no Blob URLs and cannot navigate: the download's Blob is what the test reads.
    URL.createObjectURL = vi.fn((blob: Blob) => `blob:test/${downloads.push(blob)}`);
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const csv =
      'at,member,name,action,post_id,post_uuid,detail\r\n2026-11-27T10:00:00.000Z,m_bea,Bea,in_review→approved,7,u1,';
    const { transport } = setup({
      teamLog: (input) => {
        const { member } = input as { member?: string };
        const entries = LOG.filter((entry) => !member || entry.member === member);
        return ok({ entries, csv: (input as { format?: string }).format === 'csv' ? csv : null });
      },
    });
    const log = await screen.findByRole('region', { name: 'Team log' });
    const lines = () =>
      within(log)
        .queryAllByRole('listitem')
        .map((item) => item.textContent?.replace(/\s+/g, ' ').trim());
    await waitFor(() =>
      expect(lines()).toEqual([
        expect.stringMatching(/Bea: in_review→approved$/),
        expect.stringMatching(/Ana: draft→in_review$/),
      ]),
    );
    const person = within(log).getByLabelText('Person');
    expect(
      within(person)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Everyone', 'Ana', 'Bea']);
    await fireEvent.change(person, { target: { value: 'm_bea' } });
    await waitFor(() =>
      expect(lines()).toEqual([expect.stringMatching(/Bea: in_review→approved$/)]),
    );
    await fireEvent.click(within(log).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(await downloads[0]!.text()).toBe(csv);
    expect(callsOf(transport, 'teamLog').at(-1)).toEqual({
      format: 'csv',
      limit: 10_000,
      member: 'm_bea',
    });
    // Filtered, the list of people stays everyone's.
    expect(within(person).getAllByRole('option')).toHaveLength(3);
  });
});
