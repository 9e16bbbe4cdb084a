// Desktops sharing a team workspace, each its own workspace file: drafts seen within 2 s, offline
// edits merged on reconnect and kept across a restart, deletions as a deleted-at field.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTeamLink } from '../../shared/team';
import { postsMap } from '../../shared/team-doc';
import { WorkspaceStore } from '../../main/store';
import { TeamStore } from '../../main/store/team';
import { TeamWorkspace } from '../../main/team-client/workspace';
import { startTestTeam, until } from '../support/team';
import type { TestTeam } from '../support/team';

let team: TestTeam | undefined;
const opened: { workspace: TeamWorkspace; store: WorkspaceStore }[] = [];
afterEach(async () => {
  for (const { workspace, store } of opened.splice(0)) {
    workspace.close();
    store.close();
  }
  await team?.close();
  team = undefined;
});

function desktop(
  file: string,
  token: string,
  join = true,
): { workspace: TeamWorkspace; store: WorkspaceStore } {
  const store = WorkspaceStore.open(file);
  const link = formatTeamLink({ url: team!.server.url, team: team!.teamId });
  const workspace = join
    ? TeamWorkspace.join(store, link, token, { pushEveryMs: 20 })
    : TeamWorkspace.open(store, token, { pushEveryMs: 20 })!;
  const entry = { workspace, store };
  opened.push(entry);
  return entry;
}

function closeDesktop(entry: { workspace: TeamWorkspace; store: WorkspaceStore }): void {
  opened.splice(opened.indexOf(entry), 1);
  entry.workspace.close();
  entry.store.close();
}

const folder = () => mkdtempSync(join(tmpdir(), 'prd-'));
function postTexts(store: WorkspaceStore): string[] {
  return (store.db.prepare('SELECT text FROM posts ORDER BY text').all() as { text: string }[]).map(
    (row) => row.text,
  );
}

describe('team workspace on desktops', () => {
  it('shows a draft made on one of three desktops to the other two within 2 s, and an edit back', async () => {
    team = await startTestTeam();
    const dir = folder();
    const desktops = [
      desktop(join(dir, 'a.sqlite'), team.ownerToken),
      desktop(join(dir, 'b.sqlite'), team.invite('editor')),
      desktop(join(dir, 'c.sqlite'), team.invite('editor')),
    ];
    await Promise.all(desktops.map(({ workspace }) => workspace.connection.whenSynced()));
    const [a, b, c] = desktops as [
      (typeof desktops)[0],
      (typeof desktops)[0],
      (typeof desktops)[0],
    ];
    const post = a.store.posts.create({
      botId: 'shop',
      text: 'Spring sale',
      mediaUrls: [],
      scheduledAt: null,
      zone: 'UTC',
    });
    for (const other of [b, c]) {
      const took = await until(
        () => postTexts(other.store).includes('Spring sale'),
        2000,
        'the draft to arrive',
      );
      expect(took).toBeLessThan(2000);
    }
    const onB = b.store.db.prepare('SELECT id FROM posts WHERE text = ?').get('Spring sale') as {
      id: number;
    };
    b.store.posts.update(onB.id, { text: 'Spring sale: 20% off' });
    await until(
      () => a.store.posts.get(post.id)?.text === 'Spring sale: 20% off',
      2000,
      'the edit to come back',
    );
    await until(
      () => postTexts(c.store).includes('Spring sale: 20% off'),
      2000,
      'C to see the edit',
    );
  });

  it('merges edits made offline on two desktops when they reconnect, text character by character, and keeps them across a restart', async () => {
    team = await startTestTeam();
    const dir = folder();
    const a = desktop(join(dir, 'a.sqlite'), team.ownerToken);
    const bToken = team.invite('editor');
    let b = desktop(join(dir, 'b.sqlite'), bToken);
    await Promise.all([a.workspace.connection.whenSynced(), b.workspace.connection.whenSynced()]);
    const post = a.store.posts.create({
      botId: 'shop',
      text: 'Hello world',
      mediaUrls: [],
      scheduledAt: null,
      zone: 'UTC',
    });
    await until(() => postTexts(b.store).includes('Hello world'), 2000);
    const idOnB = (
      b.store.db.prepare('SELECT id FROM posts WHERE text = ?').get('Hello world') as { id: number }
    ).id;

    // The server goes away: both desktops edit the same post's text and each adds a draft.
    const dataDir = team.dataDir;
    await team.server.close();
    a.store.posts.update(post.id, { text: 'Hello brave world' });
    a.store.posts.create({
      botId: 'shop',
      text: 'Only on A',
      mediaUrls: [],
      scheduledAt: null,
      zone: 'UTC',
    });
    b.store.posts.update(idOnB, { text: 'Hello world!' });
    // B quits while offline and comes back (still offline): its edit is in its file.
    closeDesktop(b);
    b = desktop(join(dir, 'b.sqlite'), bToken, false);
    expect(postTexts(b.store)).toContain('Hello world!');

    const restarted = await startTestTeam({ dataDir, port: team.server.port });
    team = { ...restarted, teamId: team.teamId, ownerToken: team.ownerToken };
    await until(
      () =>
        a.workspace.status().state === 'connected' && b.workspace.status().state === 'connected',
      8000,
      'both to reconnect',
    );
    const merged = 'Hello brave world!';
    await until(
      () => postTexts(a.store).includes(merged) && postTexts(b.store).includes(merged),
      4000,
      'the merge',
    );
    await until(() => postTexts(b.store).includes('Only on A'), 2000);
  });

  it('shares a deletion as a deleted-at field, and says offline in its status when the server is gone', async () => {
    team = await startTestTeam();
    const dir = folder();
    const a = desktop(join(dir, 'a.sqlite'), team.ownerToken);
    const b = desktop(join(dir, 'b.sqlite'), team.invite('editor'));
    await Promise.all([a.workspace.connection.whenSynced(), b.workspace.connection.whenSynced()]);
    const post = a.store.posts.create({
      botId: 'shop',
      text: 'Short-lived',
      mediaUrls: [],
      scheduledAt: null,
      zone: 'UTC',
    });
    await until(() => postTexts(b.store).includes('Short-lived'), 2000);
    expect(a.store.posts.remove(post.id)).toBe(true);
    await until(() => !postTexts(b.store).includes('Short-lived'), 2000, 'the deletion to arrive');
    const record = [...postsMap(b.workspace.doc).values()][0]!;
    expect(typeof record.get('deletedAt')).toBe('number');
    expect(a.workspace.status()).toMatchObject({ state: 'connected', publishes: true });
    await team.server.close();
    await until(() => a.workspace.status().state === 'offline', 3000);
    expect(a.workspace.status()).toMatchObject({ state: 'offline', publishes: false });
    expect(a.workspace.status().offlineSince).not.toBeNull();
  });

  it('shares products and posting schedules, and a cleared schedule too', async () => {
    team = await startTestTeam();
    const dir = folder();
    const a = desktop(join(dir, 'a.sqlite'), team.ownerToken);
    const b = desktop(join(dir, 'b.sqlite'), team.invite('editor'));
    await Promise.all([a.workspace.connection.whenSynced(), b.workspace.connection.whenSynced()]);
    a.store.schedules.set('shop', [['09:00'], [], [], [], [], [], ['10:30']]);
    a.store.db
      .prepare(
        `INSERT INTO products (sku, name, price_minor, currency, status, created_at, updated_at)
         VALUES ('MUG-1', 'Mug', 1250, 'EUR', 'draft', ?, ?)`,
      )
      .run(Date.now(), Date.now());
    await until(
      () => b.store.schedules.get('shop')[0]?.[0] === '09:00',
      2000,
      'the schedule to arrive',
    );
    await until(
      () => b.store.db.prepare("SELECT 1 FROM products WHERE sku = 'MUG-1'").get() !== undefined,
      2000,
      'the product to arrive',
    );
    b.store.schedules.set('shop', [[], [], [], [], [], [], []]);
    await until(
      () => a.store.schedules.list().length === 0,
      2000,
      'the cleared schedule to arrive',
    );
  });

  it('shows who else is in the workspace and which post each edits', async () => {
    team = await startTestTeam();
    const dir = folder();
    const a = desktop(join(dir, 'a.sqlite'), team.ownerToken);
    const b = desktop(join(dir, 'b.sqlite'), team.invite('editor'));
    await Promise.all([a.workspace.connection.whenSynced(), b.workspace.connection.whenSynced()]);
    await until(() => a.workspace.status().present.length === 1, 2000, 'A to see B');
    b.workspace.setEditing('3f2a0c1e-0000-4000-8000-000000000001');
    await until(
      () => a.workspace.status().present[0]?.editing === '3f2a0c1e-0000-4000-8000-000000000001',
      2000,
      'A to see what B edits',
    );
    expect(a.workspace.status().present[0]!.device).toBe(b.workspace.device);
  });
});

describe('pushing local changes', () => {
  it('reads the rows only when something wrote to the file, and still pushes a write made by another process', async () => {
    team = await startTestTeam();
    const dir = folder();
    const a = desktop(join(dir, 'a.sqlite'), team.ownerToken);
    const b = desktop(join(dir, 'b.sqlite'), team.invite('editor'));
    await Promise.all([a, b].map(({ workspace }) => workspace.connection.whenSynced()));
    a.workspace.pushLocalChanges(); // whatever came in so far is pushed (or found unchanged)
    const reads = vi.spyOn(TeamStore.prototype, 'postsChangedSince');
    a.workspace.pushLocalChanges(); // nothing wrote since: as before each message and tick
    expect(reads).not.toHaveBeenCalled();

    // The CLI or an import in another process: another connection to the same file.
    const cli = new Database(join(dir, 'a.sqlite'));
    cli
      .prepare(
        `INSERT INTO posts (bot_id, text, media_urls, scheduled_at, zone, status, created_at, updated_at)
         VALUES ('bot_1', 'Written by the CLI', '[]', NULL, 'UTC', 'draft', ?, ?)`,
      )
      .run(Date.now(), Date.now());
    cli.close();
    await until(() => postTexts(b.store).includes('Written by the CLI'), 2000, 'the CLI’s post');
    expect(reads).toHaveBeenCalled();
    reads.mockRestore();
  });
});
