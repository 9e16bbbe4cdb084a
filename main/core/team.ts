// Opens a workspace's team side when it was joined to one (Node, main process): the team
// workspace and the gate its publisher asks before each shared post. The member token is sealed
// beside the workspace file (`team join` put it there).
import { existsSync } from 'node:fs';
import type { PublishGate } from '../queue/publish-gate';
import type { WorkspaceStore } from '../store';
import { TeamStore } from '../store/team';
import { TeamPublishGate, TokenlessTeamGate } from '../team-client/publish-gate';
import { TeamWorkspace } from '../team-client/workspace';
import { FileSecretStore } from './account';

export function teamSecretFolder(dbFile: string): string {
  return `${dbFile}.team`;
}

export function openTeamSide(
  store: WorkspaceStore,
  dbFile: string,
  now: () => number,
): { workspace?: TeamWorkspace; gate?: PublishGate } {
  const team = new TeamStore(store.db, now);
  if (!team.link()) return {};
  const folder = teamSecretFolder(dbFile);
  const token = existsSync(folder) ? new FileSecretStore(folder).read() : null;
  if (!token) return { gate: new TokenlessTeamGate(team) };
  const workspace = TeamWorkspace.open(store, token, { now });
  return workspace ? { workspace, gate: new TeamPublishGate(workspace, team) } : {};
}
