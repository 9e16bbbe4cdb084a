// The event a desktop notification is made from: a post sent to me for review (an approver) or
// sent back to me (its author) by someone else, live; never my own moves, never what the first sync
// after connecting replays.
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/answers';
import type { ApprovalState } from '../../shared/team';
import { call } from '../../main/core/operations';
import type { Workspace } from '../../main/core/workspace';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { startTestTeam, until } from '../support/team';
import type { TestTeam } from '../support/team';
import { teamDesktop } from '../support/team-desktop';

let team: TestTeam | undefined;
const desktops: Workspace[] = [];
afterEach(async () => {
  for (const desktop of desktops.splice(0)) desktop.close();
  await team?.close();
  team = undefined;
});

interface Desk {
  workspace: Workspace;
  /** The review events this desktop's core emitted. */
  notices: CoreEvent[];
}

async function desk(platform: TestPlatform, token: string): Promise<Desk> {
  const workspace = teamDesktop(team!, platform, token);
  desktops.push(workspace);
  const notices: CoreEvent[] = [];
  workspace.subscribe((event) => {
    if (event.type === 'review') notices.push(event);
  });
  await workspace.team!.connection.whenSynced();
  await call(workspace, 'listReview', {}); // who this desktop is, learned before anything moves
  return { workspace, notices };
}

async function idOn(on: Desk, text: string): Promise<number> {
  const find = () => on.workspace.store.posts.list({}).find((row) => row.text === text);
  await until(() => find() !== undefined, 3000, text);
  return find()!.id;
}

async function seen(on: Desk, id: number, state: ApprovalState): Promise<void> {
  const { team: side } = on.workspace;
  await until(
    () => side!.review.entry(side!.postUuid(id)!)?.approval === state,
    3000,
    `${state} on the desktop`,
  );
}

/** Long enough for a notice that should not come to have come (the member is already known). */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('review notices', () => {
  it('tell the approver of a post sent for review and the author of one sent back, not the one who moved it', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const ana = await desk(platform, team.invite('editor', 'Ana'));
    const bea = await desk(platform, team.invite('approver', 'Bea'));
    const post = await call(ana.workspace, 'addPost', {
      text: 'Cider at the market',
      mode: 'draft',
      botId: 'bot_1',
    });
    const onBea = await idOn(bea, 'Cider at the market');

    await call(ana.workspace, 'submitPost', { id: post.id });
    await until(() => bea.notices.length === 1, 3000, 'the notice to Bea');
    expect(bea.notices).toEqual([{ type: 'review', kind: 'to_review', postId: onBea, by: 'Ana' }]);

    await call(bea.workspace, 'requestChanges', { id: onBea, comment: 'Which market?' });
    await until(() => ana.notices.length === 1, 3000, 'the notice to Ana');
    expect(ana.notices).toEqual([
      { type: 'review', kind: 'sent_back', postId: post.id, by: 'Bea' },
    ]);

    // The approval goes back to Ana's desktop with no notice: only what needs her is told.
    await call(ana.workspace, 'submitPost', { id: post.id });
    await until(() => bea.notices.length === 2, 3000, 'the second notice to Bea');
    await call(bea.workspace, 'approvePost', { id: onBea });
    await seen(ana, post.id, 'approved');
    await quiet();
    expect(ana.notices).toHaveLength(1);
    expect(bea.notices).toHaveLength(2);
  });

  it('tells no one of their own moves, and nothing of what was there before connecting', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const bea = await desk(platform, team.invite('approver', 'Bea'));
    const post = await call(bea.workspace, 'addPost', {
      text: 'Written and sent by an approver',
      mode: 'draft',
      botId: 'bot_1',
    });
    await call(bea.workspace, 'submitPost', { id: post.id });
    await seen(bea, post.id, 'in_review');

    // Cy joins with the post already in review: it is on the Review screen, not a notification.
    const cy = await desk(platform, team.invite('approver', 'Cy'));
    const onCy = await idOn(cy, 'Written and sent by an approver');
    await seen(cy, onCy, 'in_review');
    await quiet();
    expect(bea.notices).toEqual([]);
    expect(cy.notices).toEqual([]);

    // Sent again after a withdrawal, while Cy is here: now it is news to Cy, still not to Bea.
    await call(bea.workspace, 'requestChanges', { id: post.id, comment: 'One more look.' });
    await call(bea.workspace, 'submitPost', { id: post.id });
    await until(() => cy.notices.length === 1, 3000, 'the notice to Cy');
    expect(cy.notices).toEqual([{ type: 'review', kind: 'to_review', postId: onCy, by: 'Bea' }]);
    await quiet();
    expect(bea.notices).toEqual([]);
  });
});
