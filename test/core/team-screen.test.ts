// The team as the app sees it through the one door: `status` carries the team side (the same
// answer as `team status --json`), Settings → Team's members, invite (token once) and revoke, and
// which post this desktop edits, seen by another desktop.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../main/core/account';
import { call, invokeFromRenderer } from '../../main/core/operations';
import { Session } from '../../main/core/session';
import { teamSecretFolder } from '../../main/core/team';
import { formatTeamLink } from '../../shared/team';
import { OperationFailed } from '../../main/core/errors';
import { teamPublishingSentence } from '../../shared/team';
import { joinedTeamFile, startTestTeam, until } from '../support/team';
import type { TestTeam } from '../support/team';
import { testWorkspace } from '../support/workspace';

let team: TestTeam | undefined;
afterEach(async () => {
  await team?.close();
  team = undefined;
});

describe('the team through the core', () => {
  it('has no team in the status of a workspace of one, and refuses team requests with a sentence', async () => {
    const workspace = testWorkspace();
    expect(call(workspace, 'status').team).toBeNull();
    expect(await call(workspace, 'getTeam')).toEqual({
      status: null,
      members: null,
      membersProblem: null,
    });
    await expect(
      call(workspace, 'inviteTeamMember', { name: 'Bea', role: 'editor' }),
    ).rejects.toThrow('This workspace is not in a team.');
    expect(call(workspace, 'setEditingPost', { postId: 1 })).toBeNull();
  });

  it('says connected, then offline since … and not publishing, from the same owner as team status', async () => {
    team = await startTestTeam();
    const workspace = testWorkspace({ dbFile: joinedTeamFile(team, team.ownerToken) });
    await until(() => call(workspace, 'status').team?.state === 'connected', 5000, 'connected');
    const connected = call(workspace, 'status').team!;
    expect(connected).toMatchObject({
      team: team.teamId,
      url: team.server.url,
      state: 'connected',
      offlineSince: null,
      publishes: true,
    });
    expect(connected.device).toMatch(/^d_/);
    expect(connected).toEqual({
      ...workspace.team!.status(),
      lastSyncedAt: connected.lastSyncedAt,
    });

    await team.server.close();
    await until(() => call(workspace, 'status').team?.state === 'offline', 5000, 'offline');
    const offline = call(workspace, 'status').team!;
    expect(offline.publishes).toBe(false);
    expect(offline.offlineSince).toEqual(expect.any(Number));
    expect(teamPublishingSentence(offline)).toMatch(/does not publish team posts until/);
    const overview = await call(workspace, 'getTeam');
    expect(overview.members).toBeNull();
    expect(overview.membersProblem).toMatch(/team server can be reached/);
    await expect(
      call(workspace, 'inviteTeamMember', { name: 'Bea', role: 'editor' }),
    ).rejects.toThrow(/cannot be reached/);
    team = undefined;
  });

  it('lists members with roles, invites with a token answered once, revokes, and refuses an editor', async () => {
    team = await startTestTeam();
    const owner = testWorkspace({ dbFile: joinedTeamFile(team, team.ownerToken) });
    await until(() => owner.team!.connection.connected, 5000, 'connected');
    const invited = await call(owner, 'inviteTeamMember', { name: 'Bea', role: 'editor' });
    expect(invited.member).toMatchObject({ name: 'Bea', role: 'editor', revokedAt: null });
    expect(invited.token.length).toBeGreaterThan(20);

    const overview = await call(owner, 'getTeam');
    expect(overview.members?.map((member) => [member.name, member.role])).toEqual([
      ['Owner', 'owner'],
      ['Bea', 'editor'],
    ]);
    expect(JSON.stringify(overview)).not.toContain(team.ownerToken);
    expect(JSON.stringify(overview)).not.toContain(invited.token);

    const bea = testWorkspace({ dbFile: joinedTeamFile(team, invited.token) });
    await until(() => bea.team!.connection.connected, 5000, 'Bea connected');
    const refused = await call(bea, 'inviteTeamMember', { name: 'Cy', role: 'owner' }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(OperationFailed);
    expect((refused as OperationFailed).error.kind).toBe('not_allowed');

    const revoked = await call(owner, 'revokeTeamMember', { member: invited.member.id });
    expect(revoked.revokedAt).toEqual(expect.any(Number));
    await until(() => call(bea, 'status').team?.state === 'refused', 8000, 'Bea cut off');
    expect(call(bea, 'status').team?.publishes).toBe(false);
  });

  it('tells the other desktops of a new post (their screens reload) and which post this one edits, by their own post id and the member’s name', async () => {
    team = await startTestTeam();
    const owner = testWorkspace({ dbFile: joinedTeamFile(team, team.ownerToken) });
    const bea = testWorkspace({ dbFile: joinedTeamFile(team, team.invite('editor', 'Bea')) });
    const told: string[] = [];
    bea.subscribe((event) => {
      if (event.type === 'changed') told.push(event.what);
    });
    const post = call(owner, 'addPost', { text: 'Rye is back', botId: 'shop', mode: 'draft' });
    const seen = () =>
      bea.store.db.prepare('SELECT id FROM posts').get() as { id: number } | undefined;
    await until(() => seen() !== undefined, 5000, 'the post on Bea’s desktop');
    // Bea's screens showing posts reload: her calendar shows it without her doing anything.
    expect(told).toContain('posts');

    call(owner, 'setEditingPost', { postId: post.id });
    const ownerDevice = call(owner, 'status').team!.device;
    await until(
      () => call(bea, 'status').team!.present.some((other) => other.editingPostId === seen()!.id),
      5000,
      'Bea sees who edits it',
    );
    // Named as the team server knows the member, once the owner's desktop learned who it is.
    await until(
      () => call(bea, 'status').team!.present[0]?.name === 'Owner',
      5000,
      'Bea sees the owner by name',
    );
    expect(call(bea, 'status').team!.present).toEqual([
      {
        device: ownerDevice,
        name: 'Owner',
        editing: expect.any(String),
        editingPostId: seen()!.id,
      },
    ]);
    call(owner, 'setEditingPost', { postId: null });
    await until(
      () => call(bea, 'status').team!.present.every((other) => other.editingPostId === null),
      5000,
      'the editor closed',
    );
  });
});

describe('joining from Settings → Team', () => {
  it('checks the token with the team server, seals it as team join does, and reopens in the team', async () => {
    team = await startTestTeam();
    const folder = mkdtempSync(join(tmpdir(), 'prs-'));
    const session = await Session.open({ folder, secrets: new FileSecretStore(folder) });
    try {
      const link = formatTeamLink({ url: team.server.url, team: team.teamId });
      const wrong = await invokeFromRenderer(session, 'joinTeam', { link, token: 'not-a-token' });
      expect(wrong).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(!wrong.ok && wrong.error.issues?.[0]?.field).toBe('token');
      expect(call(session.current, 'status').team).toBeNull();
      const badLink = await invokeFromRenderer(session, 'joinTeam', {
        link: 'https://x',
        token: 'a',
      });
      expect(!badLink.ok && badLink.error.issues?.[0]).toMatchObject({ field: 'link' });

      const token = team.invite('editor', 'Bea');
      const joined = await invokeFromRenderer(session, 'joinTeam', { link, token });
      expect(joined).toMatchObject({ ok: true, value: { team: team.teamId } });
      expect(JSON.stringify(joined)).not.toContain(token);
      await until(() => call(session.current, 'status').team?.state === 'connected', 5000, 'in');
      const file = join(folder, 'workspace.sqlite');
      expect(new FileSecretStore(teamSecretFolder(file)).read()).toBe(token);
      expect(readFileSync(file).includes(Buffer.from(token))).toBe(false);
      const again = await invokeFromRenderer(session, 'joinTeam', { link, token });
      expect(again).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    } finally {
      await session.close();
    }
  });
});
