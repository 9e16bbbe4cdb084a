// A team server killed -9 in the middle of writes and started again keeps every update it
// acknowledged, and the desktop that kept writing catches up on reconnect.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import * as Y from 'yjs';
import { postsMap } from '../../shared/team-doc';
import { openTeamDb } from '../../main/team/db';
import { TeamMembers } from '../../main/team/members';
import { TeamConnection } from '../../main/team-client/connection';
import { until, writePost } from '../support/team';

const children: ChildProcess[] = [];
const connections: TeamConnection[] = [];
afterEach(() => {
  for (const connection of connections.splice(0)) connection.close();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function serve(dataDir: string, port = 0): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/team-server-child.ts'], {
    env: { ...process.env, TEAM_DATA: dataDir, TEAM_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(String(chunk).trim()));
    child.once('exit', () => reject(new Error('the team server child exited')));
  });
  return { child, url };
}

it('keeps every acknowledged update after kill -9 mid-write, and takes the rest on reconnect', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'prt-'));
  const setup = openTeamDb(dataDir);
  const { teamId, token } = new TeamMembers(setup).createTeam('Crash', 'Owner');
  setup.close();
  const first = await serve(dataDir);
  const port = Number(new URL(first.url).port);
  const doc = new Y.Doc();
  const writer = new TeamConnection({ link: { url: first.url, team: teamId }, token, doc });
  connections.push(writer);
  await writer.whenSynced();

  const acknowledged: string[] = [];
  for (let i = 0; i < 30; i++) {
    const uuid = randomUUID();
    writePost(doc, uuid, `acked ${i}`);
    acknowledged.push(uuid);
  }
  await until(() => writer.unsyncedChanges === 0, 5000, 'the server to acknowledge');

  // Writes go on while the server is killed at an arbitrary moment among them.
  const later: string[] = [];
  const writing = setInterval(() => {
    const uuid = randomUUID();
    writePost(doc, uuid, 'in flight');
    later.push(uuid);
  }, 2);
  await new Promise((resolve) => setTimeout(resolve, 30 + Math.random() * 50));
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  clearInterval(writing);

  const second = await serve(dataDir, port);
  const reader = new TeamConnection({
    link: { url: second.url, team: teamId },
    token,
    doc: new Y.Doc(),
  });
  connections.push(reader);
  await reader.whenSynced();
  const readerDoc = (reader as unknown as { options: { doc: Y.Doc } }).options.doc;
  for (const uuid of acknowledged) expect(postsMap(readerDoc).has(uuid)).toBe(true);
  // The writer reconnects by itself and sends what the dead server never stored.
  await until(
    () => later.every((uuid) => postsMap(readerDoc).has(uuid)),
    8000,
    'the writer to catch up',
  );
});
