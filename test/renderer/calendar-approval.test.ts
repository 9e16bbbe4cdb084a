// A team workspace's calendar: each chip out of draft shows its approval state by a sign and, for
// screen readers, in words; a filter by approval state, which reads every post of the range (the
// state is the team's, not the store's); none of it in a workspace of one.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Status } from '../../shared/domain';
import type { TeamStatus } from '../../shared/team';
import CalendarScreen from '../../renderer/src/screens/CalendarScreen.svelte';
import { shellContext } from '../../renderer/src/lib/context';
import { ok } from './fake-transport';
import { post, shellWith, stubJsdom, TEAM } from './post-editor-fixtures';

async function setup(team: TeamStatus | null) {
  const today = Date.now();
  const { shell, transport } = await shellWith({
    getCalendar: () =>
      ok({
        posts: [
          post({ id: 1, scheduledAt: today, text: 'Winter menu' }),
          post({ id: 2, scheduledAt: today + 60_000, text: 'Opening hours' }),
          post({ id: 3, scheduledAt: today + 120_000, text: 'Still a draft' }),
        ],
        hidden: {},
        drafts: [],
        freeSlots: [],
        bots: [],
        approvals: team ? { 1: 'in_review', 2: 'changes_requested' } : {},
      }),
  });
  shell.status = { online: true, paused: null, team } as Status;
  render(CalendarScreen, { context: shellContext(shell) });
  return { transport };
}

const chip = (name: RegExp) => screen.findByRole('button', { name });

beforeAll(stubJsdom);
afterEach(cleanup);

describe('approval on the calendar', () => {
  it('marks each chip out of draft by a sign and, for screen readers, in words', async () => {
    await setup(TEAM);
    const inReview = await chip(/Winter menu/);
    expect(inReview.textContent).toContain('◔');
    expect(inReview.textContent).toContain('(In review)');
    expect((await chip(/Opening hours/)).textContent).toContain('(Changes requested)');
    expect((await chip(/Still a draft/)).textContent).not.toMatch(/In review|Changes requested/);
  });

  it('filters by approval state, reading every post of the range', async () => {
    const { transport } = await setup(TEAM);
    await chip(/Winter menu/);
    const filter = screen.getByRole('combobox', { name: 'Approval' });
    await fireEvent.change(filter, { target: { value: 'changes_requested' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: /Winter menu/ })).toBeNull());
    expect(await chip(/Opening hours/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Still a draft/ })).toBeNull();
    const asked = transport.callsOf('getCalendar') as { perDay?: number }[];
    expect(asked.at(-1)?.perDay).toBeUndefined();
    await fireEvent.change(filter, { target: { value: 'draft' } });
    expect(await chip(/Still a draft/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /Opening hours/ })).toBeNull());
  });

  it('shows no approval filter in a workspace of one', async () => {
    await setup(null);
    await chip(/Winter menu/);
    expect(screen.queryByRole('combobox', { name: 'Approval' })).toBeNull();
  });
});
