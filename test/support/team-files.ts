// A workspace file joined to a team, its member token sealed beside it (vitest-free, so
// bench:team uses it too).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTeamLink } from '../../shared/team';
import type { TeamLink } from '../../shared/team';
import { FileSecretStore } from '../../main/core/account';
import { teamSecretFolder } from '../../main/core/team';
import { WorkspaceStore } from '../../main/store';
import { TeamWorkspace } from '../../main/team-client/workspace';

/** A new workspace file joined to the team of `link`, its member token sealed beside it. */
export function joinedWorkspaceFile(link: TeamLink, token: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'prp-')), 'workspace.sqlite');
  const store = WorkspaceStore.open(file);
  TeamWorkspace.join(store, formatTeamLink(link), token).close();
  store.close();
  new FileSecretStore(teamSecretFolder(file)).write(token);
  return file;
}
