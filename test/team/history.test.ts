// A post whose text two people changed at once shows both people in its history: the team server
// writes each member's edits to its audit log (by its own clock), and getPostTeamHistory reads
// them, with the members' names, on every desktop.
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../main/core/operations';
import type { Workspace } from '../../main/core/workspace';
import { startTestPlatform } from '../support/platform';
import { startTestTeam, until } from '../support/team';
import { teamDesktop } from '../support/team-desktop';
import type { TestTeam } from '../support/team';
import { testWorkspace } from '../support/workspace';

let team: TestTeam | undefined;
afterEach(async () => {
  await team?.close();
  team = undefined;
});

function idOf(desktop: Workspace, text: string): number | undefined {
  const row = desktop.store.db.prepare('SELECT id FROM posts WHERE text = ?').get(text) as
    { id: number } | undefined;
  return row?.id;
}

describe('a team post’s history', () => {
  it('names both people who typed into a post at once, on both desktops', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const ann = teamDesktop(team, platform, team.ownerToken);
    const bea = teamDesktop(team, platform, team.invite('editor', 'Bea'));
    await Promise.all([ann.team!.connection.whenSynced(), bea.team!.connection.whenSynced()]);
    const onAnn = call(ann, 'addPost', { text: 'Spring sale', botId: 'bot_1', mode: 'draft' }).id;
    await until(() => idOf(bea, 'Spring sale') !== undefined, 3000, 'the draft on Bea’s desktop');
    const onBea = idOf(bea, 'Spring sale')!;

    // Both type before either has seen the other's change.
    call(ann, 'updatePost', { id: onAnn, text: 'Spring sale: 20% off' });
    call(bea, 'updatePost', { id: onBea, text: 'Big spring sale' });

    const textOf = (desktop: Workspace, id: number) => desktop.store.posts.get(id)!.text;
    await until(
      () => textOf(ann, onAnn) === textOf(bea, onBea) && textOf(ann, onAnn).includes('20%'),
      3000,
      'the texts to merge',
    );
    expect(textOf(ann, onAnn)).toContain('Big');
    const editors = (desktop: Workspace, id: number) =>
      call(desktop, 'getPostTeamHistory', { postId: id })
        .filter((entry) => entry.what === 'changed the text')
        .map((entry) => entry.who);
    await until(
      () => editors(ann, onAnn).length === 2 && editors(bea, onBea).length === 2,
      3000,
      'both edits in the history',
    );
    expect(editors(ann, onAnn).sort()).toEqual(['Bea', 'Owner']);
    expect(editors(bea, onBea).sort()).toEqual(['Bea', 'Owner']);
    const history = call(bea, 'getPostTeamHistory', { postId: onBea });
    expect(history[0]).toMatchObject({ who: 'Owner', what: 'created the post' });
    for (const entry of history) expect(entry.at).toBeGreaterThan(0);
  });

  it('is empty for a post of a workspace of one', () => {
    const alone = testWorkspace();
    const id = call(alone, 'addPost', { text: 'Mine only', mode: 'draft' }).id;
    expect(call(alone, 'getPostTeamHistory', { postId: id })).toEqual([]);
  });
});
