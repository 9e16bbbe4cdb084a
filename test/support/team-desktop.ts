// A desktop of a test team for the vitest tests: its own workspace file, joined to the team,
// publishing to a test platform.
import { PRIORITY } from '../../shared/domain';
import type { Workspace } from '../../main/core/workspace';
import { readWholeList } from '../../main/platform/client';
import type { TestPlatform } from './platform';
import type { TestTeam } from './team';
import { joinedTeamFile, until } from './team';
import { testWorkspace } from './workspace';
import type { TestWorkspaceOptions } from './workspace';

/** A desktop: its own workspace file, joined to the team, publishing to `platform`. */
export function teamDesktop(
  team: TestTeam,
  platform: TestPlatform,
  token: string,
  options: TestWorkspaceOptions = {},
): Workspace {
  return testWorkspace({
    dbFile: joinedTeamFile(team, token),
    platform,
    plan: 'enterprise',
    ...options,
  });
}

/** A post due now (or at `scheduledAt`), shared with the team, and this desktop's outbox item. */
export function duePost(
  pressroom: Workspace,
  text: string,
  scheduledAt = Date.now() - 1000,
): number {
  const post = pressroom.store.posts.create({
    botId: 'bot_1',
    text,
    mediaUrls: [],
    scheduledAt,
    zone: 'UTC',
    status: 'scheduled',
  });
  pressroom.team!.pushLocalChanges();
  pressroom.store.outbox.enqueue({
    kind: 'create_post',
    postId: post.id,
    priority: PRIORITY.due,
    dueAt: Date.now() - 1000,
  });
  return post.id;
}

/** The post `text` on `desktop` once the team mirrored it there with an outbox item; its local id. */
export async function queuedOn(desktop: Workspace, text: string): Promise<number> {
  const idOf = () =>
    (
      desktop.store.db.prepare('SELECT id FROM posts WHERE text = ?').get(text) as
        { id: number } | undefined
    )?.id;
  await until(
    () => {
      const id = idOf();
      return id !== undefined && desktop.store.outbox.latestForPost(id) !== undefined;
    },
    3000,
    `“${text}” in this desktop's outbox`,
  );
  return idOf()!;
}

/** How many posts of bot_1 with `text` the platform has. */
export async function postsOnPlatform(platform: TestPlatform, text: string): Promise<number> {
  const list = await readWholeList((request) =>
    platform.client.listPosts({ ...request, per_page: 200, bot_id: 'bot_1' }),
  );
  return list.items.filter((post) => post.text === text).length;
}
