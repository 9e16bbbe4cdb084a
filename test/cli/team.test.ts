// The team commands as a user runs them: serve, create, key, join, invite, members, revoke, status;
// and approvals: the owner's switch, submit, request changes with a comment, approve, the log.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openTeamDb } from '../../main/team/db';
import { TeamServerKeys } from '../../main/team/server-keys';
import { runCli, startTeamCli } from '../support/cli';

const children: { kill: (signal?: NodeJS.Signals) => boolean }[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
}, 60_000);

/** `team invite` run on the owner's workspace: the new member and their token. */
async function invite(
  owner: string,
  name: string,
  role: string,
): Promise<{ member: { id: string }; token: string }> {
  const invited = await runCli([
    '--db',
    owner,
    '--json',
    'team',
    'invite',
    '--name',
    name,
    '--role',
    role,
  ]);
  return JSON.parse(invited.stdout) as { member: { id: string }; token: string };
}

it('serves a team, creates it, joins two workspaces, invites, lists, revokes and reports status', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prc-'));
  const data = join(dir, 'server');
  expect((await runCli(['team', 'serve', '--data', data, '--host', '0.0.0.0'])).stderr).toMatch(
    /only over TLS/,
  );
  const { child, link, token } = await startTeamCli(data);
  children.push(child);
  expect(link).toMatch(/^ws:\/\/127\.0\.0\.1:\d+#t_[0-9a-f]{16}$/);

  const owner = join(dir, 'owner.sqlite');
  const joined = await runCli(['--db', owner, '--json', 'team', 'join', link], {
    PRESSROOM_TEAM_TOKEN: token,
  });
  expect(JSON.parse(joined.stdout)).toMatchObject({ state: 'connected', waiting: 0 });
  expect(joined.stdout).not.toContain(token);

  const bea = await invite(owner, 'Bea', 'editor');
  const second = join(dir, 'bea.sqlite');
  await runCli(['--db', second, 'team', 'join', link], {}, `${bea.token}\n`);
  const members = await runCli(['--db', owner, 'team', 'members']);
  expect(members.stdout).toMatch(/owner\s+Owner/);
  expect(members.stdout).toMatch(/editor\s+Bea/);

  const revoked = await runCli(['--db', owner, 'team', 'revoke', bea.member.id]);
  expect(revoked.stdout).toMatch(/Revoked/);
  const refused = await runCli(['--db', second, '--json', 'team', 'status']);
  expect(JSON.parse(refused.stdout)).toMatchObject({ state: 'refused', publishes: false });

  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('close', resolve));
  const offline = await runCli(['--db', owner, 'team', 'status']);
  expect(offline.stdout).toMatch(/offline since/);
  expect(offline.stdout).toMatch(/does not publish team posts/);
}, 60_000);

it('requires approval, submits, requests changes with a comment, approves, and logs each step', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prc-'));
  const data = join(dir, 'server');
  const { child, link, token } = await startTeamCli(data);
  children.push(child);
  const owner = join(dir, 'owner.sqlite');
  await runCli(['--db', owner, 'team', 'join', link], { PRESSROOM_TEAM_TOKEN: token });
  const join2 = async (name: string, role: string) => {
    const file = join(dir, `${name}.sqlite`);
    const { token: theirs } = await invite(owner, name, role);
    await runCli(['--db', file, 'team', 'join', link], { PRESSROOM_TEAM_TOKEN: theirs });
    return file;
  };
  const ana = await join2('Ana', 'editor');
  const bea = await join2('Bea', 'approver');

  expect((await runCli(['--db', ana, 'team', 'approval', 'on'])).stderr).toMatch(
    /Only the team owner can change whether posts need approval/,
  );
  expect((await runCli(['--db', owner, 'team', 'approval', 'on'])).stdout).toMatch(
    /Every post now needs approval/,
  );
  const added = await runCli(['--db', ana, '--json', 'posts', 'add', '--text', 'Winter sale']);
  const { id } = JSON.parse(added.stdout) as { id: number };
  expect((await runCli(['--db', ana, 'posts', 'submit', String(id)])).stdout).toMatch(
    /Sent for review/,
  );
  const waiting = await runCli(['--db', bea, '--json', 'posts', 'list', '--state', 'in_review']);
  const [item] = JSON.parse(waiting.stdout) as { postId: number; text: string }[];
  expect(item).toMatchObject({ text: 'Winter sale' });
  const onBea = String(item!.postId);
  expect((await runCli(['--db', bea, 'posts', 'request-changes', onBea])).stderr).toMatch(
    /give --comment/,
  );
  expect(
    (await runCli(['--db', bea, 'posts', 'request-changes', onBea, '--comment', 'Add the dates.']))
      .stdout,
  ).toMatch(/Sent back to its author/);
  expect((await runCli(['--db', ana, 'posts', 'submit', String(id)])).stdout).toMatch(
    /Sent for review/,
  );
  expect((await runCli(['--db', bea, 'posts', 'approve', onBea])).stdout).toMatch(/^Approved/);

  const log = await runCli(['--db', owner, '--json', 'team', 'log']);
  const actions = (JSON.parse(log.stdout) as { name: string; action: string }[]).map(
    (entry) => `${entry.name} ${entry.action}`,
  );
  expect(actions).toEqual([
    'Owner approval setting',
    'Ana edit', // she wrote the post
    'Ana draft→in_review',
    'Bea in_review→changes_requested',
    'Ana changes_requested→in_review',
    'Bea in_review→approved',
  ]);
}, 120_000);

it('makes a server key, shown once and kept only as its hash', async () => {
  const data = join(mkdtempSync(join(tmpdir(), 'prc-')), 'server');
  const made = await runCli(['--json', 'team', 'key', '--data', data]);
  const { key } = JSON.parse(made.stdout) as { key: string };
  expect(key).toMatch(/^prk_[\w-]{43}$/);
  const words = await runCli(['team', 'key', '--data', data]);
  const second = /Server key \(shown once; keep it secret\): (\S+)/.exec(words.stdout)?.[1];
  expect(second).toBeDefined();
  expect(second).not.toBe(key);
  const db = openTeamDb(data);
  try {
    const keys = new TeamServerKeys(db);
    expect(keys.holds(key) && keys.holds(second!)).toBe(true);
    expect(keys.holds(`${key}x`)).toBe(false);
  } finally {
    db.close();
  }
  expect(readFileSync(join(data, 'team.sqlite')).includes(Buffer.from(key))).toBe(false);
});
