// Opens a workspace's team side when it was joined to one (Node, main process): the team
// workspace and the gate its publisher asks before each shared post. The member token is sealed
// beside the workspace file (`team join` put it there).
import { existsSync } from 'node:fs';
import { parseTeamLink } from '../../shared/team';
import type { PublishGate } from '../queue/publish-gate';
import type { WorkspaceStore } from '../store';
import { TeamStore } from '../store/team';
import { TeamPublishGate, TokenlessTeamGate } from '../team-client/publish-gate';
import type { PulledKind } from '../team-client/mirror';
import { TeamWorkspace } from '../team-client/workspace';
import { askTeamServer } from '../team-client/membership';
import { TeamRefused } from '../team-client/connection';
import { FileSecretStore } from './account';
import { InvalidInput, NotAllowed } from './errors';

export function teamSecretFolder(dbFile: string): string {
  return `${dbFile}.team`;
}

export function openTeamSide(
  store: WorkspaceStore,
  dbFile: string,
  now: () => number,
  onPulled: (what: PulledKind) => void,
): { workspace?: TeamWorkspace; gate?: PublishGate } {
  const team = new TeamStore(store.db, now);
  if (!team.link()) return {};
  const folder = teamSecretFolder(dbFile);
  const token = existsSync(folder) ? new FileSecretStore(folder).read() : null;
  if (!token) return { gate: new TokenlessTeamGate(team) };
  const workspace = TeamWorkspace.open(store, token, { now, onPulled });
  return workspace ? { workspace, gate: new TeamPublishGate(workspace, team) } : {};
}

/** Another protocol is neither the token's fault nor the link's (nor the key's): the whole form's. */
export function refusedForVersion(refusal: TeamRefused): NotAllowed {
  return new NotAllowed(`${refusal.message} This workspace was not changed.`);
}

/**
 * Settings → Team's join, leaving the file as `team join` does: the token is checked with the
 * team server first, then the link goes into the file and the token is sealed beside it. The
 * caller reopens the workspace, which then opens its team side.
 */
export async function joinTeam(
  store: WorkspaceStore,
  dbFile: string,
  linkText: string,
  token: string,
): Promise<void> {
  const link = parseTeamLink(linkText);
  if (typeof link === 'string') throw new InvalidInput([{ field: 'link', message: link }]);
  try {
    await askTeamServer(link, token, { kind: 'members' });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof TeamRefused && error.version) throw refusedForVersion(error);
    const field = error instanceof TeamRefused ? 'token' : 'link';
    throw new InvalidInput([{ field, message }]);
  }
  TeamWorkspace.join(store, linkText, token).close();
  new FileSecretStore(teamSecretFolder(dbFile)).write(token);
}
