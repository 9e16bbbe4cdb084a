// A desktop of a test team for the vitest tests: its own workspace file, joined to the team,
// publishing to a test platform.
import type { Workspace } from '../../main/core/workspace';
import type { TestPlatform } from './platform';
import type { TestTeam } from './team';
import { joinedWorkspaceFile } from './team-files';
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
    dbFile: joinedWorkspaceFile({ url: team.server.url, team: team.teamId }, token),
    platform,
    plan: 'enterprise',
    ...options,
  });
}
