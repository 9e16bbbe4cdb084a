// The team commands as a user runs them: serve, create, join, invite, members, revoke, status.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli, startTeamCli } from '../support/cli';

const children: { kill: (signal?: NodeJS.Signals) => boolean }[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
}, 60_000);

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

  const invited = await runCli([
    '--db',
    owner,
    '--json',
    'team',
    'invite',
    '--name',
    'Bea',
    '--role',
    'editor',
  ]);
  const bea = JSON.parse(invited.stdout) as { member: { id: string }; token: string };
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
