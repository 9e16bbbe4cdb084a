// Creating a team from the app: the team server's `POST /teams` takes only a server key its
// machine made (`team key`), bounds and checks what it reads, and never quotes a key back; the
// core creates the team, joins this workspace as its owner and seals the owner's token.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../main/core/account';
import { call, invokeFromRenderer } from '../../main/core/operations';
import { Session } from '../../main/core/session';
import { teamSecretFolder } from '../../main/core/team';
import { openTeamDb } from '../../main/team/db';
import { TeamServerKeys } from '../../main/team/server-keys';
import { createTeamOn } from '../../main/team-client/create';
import { TEAM_PROTOCOL } from '../../shared/team';
import { startTestTeam, until } from '../support/team';
import type { TestTeam } from '../support/team';

let team: TestTeam | undefined;
afterEach(async () => {
  await team?.close();
  team = undefined;
});

function serverKey(dataDir: string): string {
  const db = openTeamDb(dataDir);
  try {
    return new TeamServerKeys(db).issue();
  } finally {
    db.close();
  }
}

describe("the team server's POST /teams", () => {
  it('creates a team only for a server key it made, and refuses the rest with a sentence', async () => {
    team = await startTestTeam();
    const key = serverKey(team.dataDir);
    const base = `${team.server.url.replace(/^ws/, 'http')}/teams`;
    const endpoint = `${base}?protocol=${TEAM_PROTOCOL}`;
    const post = (body: string, authorization?: string) =>
      fetch(endpoint, {
        method: 'POST',
        headers: authorization ? { authorization } : {},
        body,
      });
    const body = JSON.stringify({ name: 'Shop', owner: 'Ana' });

    // Another protocol (or none) is refused before the key is looked at, and nothing is made.
    for (const other of [`${base}?protocol=${TEAM_PROTOCOL + 1}`, base]) {
      const refused = await fetch(other, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body,
      });
      expect(refused.status).toBe(409);
      expect((await refused.json()) as object).toEqual({
        error: expect.stringMatching(
          /^This team server speaks protocol 1, (older|and this desktop none)/,
        ),
        protocol: TEAM_PROTOCOL,
      });
    }
    expect(team.server.db.prepare('SELECT COUNT(*) AS n FROM teams').get()).toEqual({ n: 1 });
    expect((await post(body)).status).toBe(401);
    const sameLength = `prk_${'x'.repeat(key.length - 4)}`;
    const wrong = await post(body, `Bearer ${sameLength}`);
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain(sameLength);
    expect((await fetch(endpoint, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      405,
    );
    expect((await post('{', `Bearer ${key}`)).status).toBe(400);
    const blank = await post(JSON.stringify({ name: ' ', owner: 'Ana' }), `Bearer ${key}`);
    expect(blank.status).toBe(400);
    expect((await blank.json()) as object).toEqual({
      error: 'A team needs a name and its owner’s name (1–100 characters each).',
    });
    expect((await post('x'.repeat(5000), `Bearer ${key}`)).status).toBe(413);

    const created = await post(body, `Bearer ${key}`);
    expect(created.status).toBe(201);
    const { team: teamId, token } = (await created.json()) as { team: string; token: string };
    expect(teamId).toMatch(/^t_[0-9a-f]{16}$/);
    const owner = team.server.members.authenticate(token);
    expect(owner).toMatchObject({ teamId, name: 'Ana', role: 'owner' });
  });
});

describe('createTeamOn', () => {
  it('reads no more of an answer than a created team needs', async () => {
    const huge = createServer((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ team: 't_0123456789abcdef', token: 'x', pad: 'y'.repeat(5000) }),
      );
    });
    await new Promise<void>((resolve) => huge.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = huge.address() as AddressInfo;
      await expect(
        createTeamOn(`ws://127.0.0.1:${port}`, 'prk_key', { name: 'Shop', owner: 'Ana' }),
      ).rejects.toMatchObject({
        field: 'url',
        message: expect.stringContaining('did not create the team (HTTP 201)'),
      });
    } finally {
      await new Promise((resolve) => huge.close(resolve));
    }
  });
});

describe('creating a team from Settings → Team', () => {
  it('creates the team, joins this workspace as its owner, and seals the token', async () => {
    team = await startTestTeam();
    const key = serverKey(team.dataDir);
    const folder = mkdtempSync(join(tmpdir(), 'prs-'));
    const session = await Session.open({ folder, secrets: new FileSecretStore(folder) });
    try {
      const input = { url: team.server.url, serverKey: key, name: 'Shop', owner: 'Ana' };
      const badKey = await invokeFromRenderer(session, 'createTeam', { ...input, serverKey: 'no' });
      expect(!badKey.ok && badKey.error.issues?.[0]).toMatchObject({
        field: 'serverKey',
        message: expect.stringContaining('team key'),
      });
      const plainFar = await invokeFromRenderer(session, 'createTeam', {
        ...input,
        url: 'ws://team.example.com',
      });
      expect(!plainFar.ok && plainFar.error.issues?.[0]).toMatchObject({
        field: 'url',
        message: 'A team server beyond this computer is reached only over wss:// (TLS)',
      });
      expect(call(session.current, 'status').team).toBeNull();

      const created = await invokeFromRenderer(session, 'createTeam', input);
      expect(created.ok).toBe(true);
      expect(JSON.stringify(created)).not.toContain(key);
      await until(() => call(session.current, 'status').team?.state === 'connected', 5000, 'in');
      const file = join(folder, 'workspace.sqlite');
      const token = new FileSecretStore(teamSecretFolder(file)).read()!;
      expect(team.server.members.authenticate(token)).toMatchObject({ name: 'Ana', role: 'owner' });
      expect(JSON.stringify(created)).not.toContain(token);
      expect(readFileSync(file).includes(Buffer.from(token))).toBe(false);
      // The owner it made may invite.
      const invited = await call(session.current, 'inviteTeamMember', {
        name: 'Bea',
        role: 'editor',
      });
      expect(invited.member).toMatchObject({ name: 'Bea', role: 'editor' });
      const again = await invokeFromRenderer(session, 'createTeam', input);
      expect(again).toMatchObject({ ok: false, error: { kind: 'not_allowed' } });
    } finally {
      await session.close();
    }
  });
});
