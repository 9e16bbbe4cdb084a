// A team server of another version, met from the app's core: this test file's desktop speaks
// protocol 2 (TEAM_PROTOCOL mocked here), the team server a real one of protocol 1 in a child
// process. Joining and creating a team are refused with a sentence that says which side to update,
// as the form's own error (not the token's or the key's), and neither the workspace file nor the
// team server is changed by it. The other way round (a newer server, speaking this file's 2, met by
// a CLI of 1) is the last test here, and test/e2e/team-version.test.ts in Chromium.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSecretStore } from '../../main/core/account';
import { call, invokeFromRenderer } from '../../main/core/operations';
import { Session } from '../../main/core/session';
import { teamSecretFolder } from '../../main/core/team';
import { openTeamDb } from '../../main/team/db';
import { TeamMembers } from '../../main/team/members';
import { TeamServerKeys } from '../../main/team/server-keys';
import { WorkspaceStore } from '../../main/store';
import { TeamStore } from '../../main/store/team';
import type * as SharedTeam from '../../shared/team';
import { formatTeamLink, TEAM_PROTOCOL } from '../../shared/team';
import { runCli } from '../support/cli';
import { startTestTeam, until } from '../support/team';
import type { TestTeam } from '../support/team';
import { everyRow, joinedWorkspaceFile } from '../support/team-files';
import { testWorkspace } from '../support/workspace';

vi.mock('../../shared/team', async (original) => ({
  ...(await original<typeof SharedTeam>()),
  TEAM_PROTOCOL: 2,
}));

const children: ChildProcess[] = [];
const sessions: Session[] = [];
let team: TestTeam | undefined;
afterEach(async () => {
  await team?.close();
  team = undefined;
  for (const session of sessions.splice(0)) await session.close();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A team server of protocol 1 (the child imports the real shared/team), with a team and a key. */
async function olderServer(): Promise<{
  url: string;
  teamId: string;
  token: string;
  key: string;
  dataDir: string;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'prt-'));
  const setup = openTeamDb(dataDir);
  const { teamId, token } = new TeamMembers(setup).createTeam('Shop', 'Owner');
  const key = new TeamServerKeys(setup).issue();
  setup.close();
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/team-server-child.ts'], {
    env: { ...process.env, TEAM_DATA: dataDir, TEAM_PORT: '0' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(String(chunk).trim()));
    child.once('exit', () => reject(new Error('the team server child exited')));
  });
  return { url, teamId, token, key, dataDir };
}

async function workspaceOfOne(): Promise<{ session: Session; file: string; before: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'prs-'));
  const session = await Session.open({ folder, secrets: new FileSecretStore(folder) });
  sessions.push(session);
  call(session.current, 'addPost', { text: 'Rye is back', botId: 'bot_1', mode: 'draft' });
  const file = join(folder, 'workspace.sqlite');
  return { session, file, before: everyRow(file) };
}

const UPDATE_SERVER =
  'This team server speaks protocol 1, older than this desktop’s 2: update the team server';

/**
 * A call refused with the sentence naming the side to update, as the form's error (no field's),
 * leaving the workspace unjoined: no team, no sealed token, every row as before.
 */
function expectRefusedHere(
  answer: Awaited<ReturnType<typeof invokeFromRenderer>>,
  { session, file, before }: Awaited<ReturnType<typeof workspaceOfOne>>,
): void {
  expect(answer).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
  expect(!answer.ok && answer.error.message).toContain(UPDATE_SERVER);
  expect(!answer.ok && answer.error.issues).toBeUndefined();
  expect(call(session.current, 'status').team).toBeNull();
  expect(existsSync(teamSecretFolder(file))).toBe(false);
  expect(everyRow(file)).toBe(before);
}

describe('a team server of another version, from the app', () => {
  it('speaks protocol 2 on this side (the mock holds)', () => {
    expect(TEAM_PROTOCOL).toBe(2);
  });

  it('refuses a join as the form’s error, saying to update the team server, and changes nothing', async () => {
    const server = await olderServer();
    const { session, file, before } = await workspaceOfOne();
    const link = formatTeamLink({ url: server.url, team: server.teamId });

    const joined = await invokeFromRenderer(session, 'joinTeam', { link, token: server.token });

    expectRefusedHere(joined, { session, file, before });
  });

  it('refuses to create a team there, creating none on the server, and changes nothing here', async () => {
    const server = await olderServer();
    const { session, file, before } = await workspaceOfOne();

    const created = await invokeFromRenderer(session, 'createTeam', {
      url: server.url,
      serverKey: server.key,
      name: 'Second',
      owner: 'Ana',
    });

    expectRefusedHere(created, { session, file, before });
    const db = openTeamDb(server.dataDir);
    try {
      expect(db.prepare('SELECT name FROM teams').all()).toEqual([{ name: 'Shop' }]);
    } finally {
      db.close();
    }
  });

  it('tells a desktop joined before which side to update, publishes nothing, and keeps its moves waiting', async () => {
    const server = await olderServer();
    const file = joinedWorkspaceFile({ url: server.url, team: server.teamId }, server.token);
    const workspace = testWorkspace({ dbFile: file });
    const post = call(workspace, 'addPost', { text: 'Rye is back', botId: 'bot_1', mode: 'draft' });

    await until(() => call(workspace, 'status').team?.state === 'refused', 5000, 'refused');
    const status = call(workspace, 'status').team!;
    expect(status.refusal).toMatch(new RegExp(`^${UPDATE_SERVER}`));
    expect(status.publishes).toBe(false);
    // Not the member's doing: the move waits for the update instead of being refused for good.
    expect(await call(workspace, 'submitPost', { id: post.id })).toMatchObject({
      waitingToSync: true,
    });
    // Several ticks of the workspace, each of which sends waiting moves (or refuses them).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(workspace.team!.pending.all()).toEqual([
      expect.objectContaining({ to: 'in_review', state: 'waiting', reason: null }),
    ]);
  });

  it('refuses `team join` on the command line of an older desktop, leaving the file out of any team', async () => {
    // The other way round: the team server here speaks protocol 2, the CLI (its own process) 1.
    team = await startTestTeam();
    const file = join(mkdtempSync(join(tmpdir(), 'prc-')), 'workspace.sqlite');
    const link = formatTeamLink({ url: team.server.url, team: team.teamId });

    const joined = await runCli(['--db', file, 'team', 'join', link], {
      PRESSROOM_TEAM_TOKEN: team.ownerToken,
    });

    expect(joined.code).not.toBe(0);
    expect(joined.stderr).toContain(
      'This team server speaks protocol 2, newer than this desktop’s 1: update Pressroom on this desktop.',
    );
    expect(existsSync(teamSecretFolder(file))).toBe(false);
    const store = WorkspaceStore.open(file);
    try {
      expect(new TeamStore(store.db, Date.now).link()).toBeUndefined();
    } finally {
      store.close();
    }
  }, 30_000);
});
