// A desktop of a test team: its own workspace file, joined to the team, its member token sealed
// beside it, over a test platform. For the team tests that go through the outbox or the core.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIORITY } from '../../shared/domain';
import { formatTeamLink } from '../../shared/team';
import { FileSecretStore } from '../../main/core/account';
import type { Workspace } from '../../main/core/workspace';
import { teamSecretFolder } from '../../main/core/team';
import { WorkspaceStore } from '../../main/store';
import { TeamWorkspace } from '../../main/team-client/workspace';
import type { TestPlatform } from './platform';
import type { TestTeam } from './team';
import { testWorkspace } from './workspace';

export function teamDesktop(team: TestTeam, platform: TestPlatform, token: string): Workspace {
  const file = join(mkdtempSync(join(tmpdir(), 'prp-')), 'workspace.sqlite');
  const store = WorkspaceStore.open(file);
  TeamWorkspace.join(
    store,
    formatTeamLink({ url: team.server.url, team: team.teamId }),
    token,
  ).close();
  store.close();
  new FileSecretStore(teamSecretFolder(file)).write(token);
  return testWorkspace({ dbFile: file, platform, plan: 'enterprise' });
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
