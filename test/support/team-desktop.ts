// A desktop of a test team for the vitest tests: its own workspace file, joined to the team,
// publishing to a test platform.
import { PRIORITY } from '../../shared/domain';
import type { Workspace } from '../../main/core/workspace';
import type { TestPlatform } from './platform';
import type { TestTeam } from './team';
import { joinedTeamFile } from './team';
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
