// Faults a team must survive: a desktop killed -9 with edits the server never saw keeps them in
// its own file and hands them over when it starts again; an owner's desktop killed -9 while it
// shares a workspace shares it whole and once; desktops whose clocks are 10 minutes apart publish
// a post once, when the team server's clock says it is due.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { formatTeamLink } from '../../shared/team';
import { postsMap, productsMap } from '../../shared/team-doc';
import { call } from '../../main/core/operations';
import type { Workspace } from '../../main/core/workspace';
import { WorkspaceStore } from '../../main/store';
import { TeamStore } from '../../main/store/team';
import { TeamRequestUnknown } from '../../main/team-client/connection';
import { startTeamServer } from '../../main/team/server';
import { startTestPlatform } from '../support/platform';
import type { TestPlatform } from '../support/platform';
import { startTestTeam, until } from '../support/team';
import { teamDesktop } from '../support/team-desktop';
import { fillRows, joinedWorkspaceFile } from '../support/team-files';
import type { TestTeam } from '../support/team';
import { testWorkspace } from '../support/workspace';

let team: TestTeam | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await team?.close();
  team = undefined;
});

function hasPost(desktop: Workspace, text: string): boolean {
  return desktop.store.db.prepare('SELECT 1 FROM posts WHERE text = ?').get(text) !== undefined;
}

/** Runs the desktop of `file` in a child process that adds `text` offline, and waits until it did. */
async function editInChild(file: string, text: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/team-desktop-child.ts'], {
    env: { ...process.env, DESKTOP_FILE: file, POST_TEXT: text },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', () => reject(new Error('the desktop child exited')));
  });
  return child;
}

describe('team faults', () => {
  it('ends a request still waiting for its answer, unknown, when its connection closes', async () => {
    team = await startTestTeam();
    const connection = team.connect(team.ownerToken);
    await connection.whenSynced();
    const asked = connection.request({ kind: 'me' });
    connection.close();
    // Ended by the close, not by its timeout (whose timer would hold a closing CLI process open).
    await expect(asked).rejects.toThrow(
      new TeamRequestUnknown('The connection to the team server closed before its answer came.'),
    );
  });

  it('keeps the unsynced edits of a desktop killed -9, and they reach the others when it restarts', async () => {
    const platform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const fileA = joinedWorkspaceFile({ url: team.server.url, team: team.teamId }, team.ownerToken);
    const other = teamDesktop(team, platform, team.invite('editor'));
    await other.team!.connection.whenSynced();
    const { dataDir } = team;
    const { port } = team.server;
    await team.server.close(); // the edit below can reach no one

    const child = await editInChild(fileA, 'Typed just before the crash');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const store = WorkspaceStore.open(fileA);
    expect(
      store.db.prepare('SELECT 1 FROM posts WHERE text = ?').get('Typed just before the crash'),
    ).toBeDefined();
    store.close();

    const again = await startTeamServer({ dataDir, port });
    try {
      const restarted = testWorkspace({ dbFile: fileA, platform, plan: 'enterprise' });
      await until(
        () => hasPost(other, 'Typed just before the crash'),
        8000,
        'the edit to reach the other desktop',
      );
      expect(restarted.team!.status().state).toBe('connected');
    } finally {
      other.close();
      await again.close();
      team = undefined; // its first server is closed already
    }
  });

  it('shares a workspace whole and once when the owner’s desktop is killed -9 mid-share', async () => {
    team = await startTestTeam();
    const link = formatTeamLink({ url: team.server.url, team: team.teamId });
    const file = join(mkdtempSync(join(tmpdir(), 'prp-')), 'workspace.sqlite');
    const store = WorkspaceStore.open(file);
    const [posts, products] = [1000, 2000];
    fillRows(store, posts, products);
    store.close();
    /** Runs the owner's desktop until it says `step`, then `afterMs` more, and kills it -9. */
    const shareUntil = async (step: 'opening' | 'pushed' | 'shared', afterMs: number) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/support/team-share-child.ts'],
        {
          env: {
            ...process.env,
            DESKTOP_FILE: file,
            TEAM_LINK: link,
            TEAM_TOKEN: team!.ownerToken,
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      children.push(child);
      let said = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          said += String(chunk);
          if (said.split('\n').includes(step)) resolve();
        });
        child.once('exit', () => reject(new Error(`the desktop child exited before ${step}`)));
      });
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      return said;
    };
    // Killed while it joins and pushes every row into its document, then while it sends them.
    expect(await shareUntil('opening', 50)).not.toContain('pushed');
    expect(await shareUntil('pushed', 0)).not.toContain('shared');
    await shareUntil('pushed', 100);
    await shareUntil('shared', 0);

    // The server has each row once, under the UUID the file gave it; the file gained no row.
    const doc = new Y.Doc();
    await team.connect(team.ownerToken, doc).whenSynced();
    const check = WorkspaceStore.open(file);
    try {
      const uuids = (table: string) =>
        (
          check.db.prepare(`SELECT uuid FROM ${table} ORDER BY uuid`).all() as { uuid: string }[]
        ).map((row) => row.uuid);
      expect(uuids('posts')).toHaveLength(posts);
      expect(uuids('products')).toHaveLength(products);
      expect([...postsMap(doc).keys()].sort()).toEqual(uuids('posts'));
      expect([...productsMap(doc).keys()].sort()).toEqual(uuids('products'));
    } finally {
      check.close();
    }
  }, 60_000);

  it('publishes once, at the team server’s time, from desktops whose clocks are 10 minutes apart', async () => {
    const platform: TestPlatform = await startTestPlatform({ seed: 'demo' });
    team = await startTestTeam();
    const minutes10 = 10 * 60_000;
    const ahead = teamDesktop(team, platform, team.ownerToken, {
      now: () => Date.now() + minutes10,
    });
    const behind = teamDesktop(team, platform, team.invite('editor'), {
      now: () => Date.now() - minutes10,
    });
    await Promise.all([ahead.team!.connection.whenSynced(), behind.team!.connection.whenSynced()]);
    const dueAt = Date.now() + 1500; // the team server's clock is this computer's real one
    const text = 'Skewed clocks';
    call(behind, 'addPost', {
      text,
      botId: 'bot_1',
      at: new Date(dueAt).toISOString(),
      mode: 'schedule',
    });
    await until(() => hasPost(ahead, text), 3000, 'the post on the desktop ahead');
    const idOn = (desktop: Workspace) =>
      (desktop.store.db.prepare('SELECT id FROM posts WHERE text = ?').get(text) as { id: number })
        .id;

    // The desktop ahead finds it due at once; the server refuses it until its own clock agrees.
    await ahead.queue.publishDue();
    const early = await platform.client.listPosts({ per_page: 200, bot_id: 'bot_1' });
    expect(early.items.filter((post) => post.text === text)).toHaveLength(0);
    expect(ahead.store.outbox.latestForPost(idOn(ahead))!.lastError).toMatch(/team server's clock/);

    const settled = () =>
      [ahead, behind].every(
        (desktop) => desktop.store.posts.get(idOn(desktop))!.status === 'published',
      );
    const started = Date.now();
    while (!settled() && Date.now() - started < 15_000) {
      await Promise.all([ahead.queue.publishDue(), behind.queue.publishDue()]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(settled()).toBe(true);
    const page = await platform.client.listPosts({ per_page: 200, bot_id: 'bot_1' });
    const sent = page.items.filter((post) => post.text === text);
    expect(sent).toHaveLength(1);
    expect(Date.parse(sent[0]!.created_at!)).toBeGreaterThanOrEqual(dueAt);
    // The desktop that did not send records the time the team server gave, not its own clock's.
    const uuid = new TeamStore(ahead.store.db, Date.now).uuidOfPost(idOn(ahead))!;
    const result = ahead.team!.resultOf(uuid)!;
    expect(result.at).toBeGreaterThanOrEqual(dueAt);
    const unsent = [ahead, behind].filter(
      (desktop) => desktop.store.outbox.latestForPost(idOn(desktop))!.attempts === 0,
    );
    expect(unsent).toHaveLength(1);
    expect(unsent[0]!.store.posts.get(idOn(unsent[0]!))!.publishedAt).toBe(result.at);
  });
});
