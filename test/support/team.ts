// A team server in this process on 127.0.0.1 with a fresh data folder, and desktops' connections
// to it, for the team tests and the team bench.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import { postsMap } from '../../shared/team-doc';
import type { SharedPostFields } from '../../shared/team-doc';
import type { TeamRole } from '../../shared/team';
import { TeamConnection } from '../../main/team-client/connection';
import { startTeamServer } from '../../main/team/server';
import type { RunningTeamServer, TeamServerOptions } from '../../main/team/server';
import { joinedWorkspaceFile } from './team-files';

export interface TestTeam {
  server: RunningTeamServer;
  teamId: string;
  ownerToken: string;
  dataDir: string;
  invite(role: TeamRole, name?: string): string;
  connect(token: string, doc?: Y.Doc): TeamConnection;
  close(): Promise<void>;
}

export async function startTestTeam(options: Partial<TeamServerOptions> = {}): Promise<TestTeam> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'prt-'));
  const server = await startTeamServer({ port: 0, dataDir, ...options });
  const created = server.members.createTeam('Test team', 'Owner');
  const connections: TeamConnection[] = [];
  return {
    server,
    teamId: created.teamId,
    ownerToken: created.token,
    dataDir,
    invite: (role, name = role) => server.members.invite(created.teamId, name, role).token,
    connect(token, doc = new Y.Doc()) {
      const connection = new TeamConnection({
        link: { url: server.url, team: created.teamId },
        token,
        doc,
        requestTimeoutMs: 3000,
      });
      connections.push(connection);
      return connection;
    },
    async close() {
      for (const connection of connections) connection.close();
      await server.close();
    },
  };
}

/** Writes a post straight into a data document (what the desktop side does through its store). */
export function writePost(
  doc: Y.Doc,
  uuid: string,
  text: string,
  fields: Partial<SharedPostFields> = {},
): void {
  doc.transact(() => {
    const record = new Y.Map<unknown>();
    const body = new Y.Text();
    body.insert(0, text);
    record.set('text', body);
    const all: SharedPostFields = {
      botId: 'shop',
      mediaUrls: [],
      scheduledAt: null,
      zone: 'UTC',
      labels: [],
      status: 'draft',
      deletedAt: null,
      revision: 1,
      ...fields,
    };
    for (const [key, value] of Object.entries(all)) record.set(key, value);
    postsMap(doc).set(uuid, record);
  });
}

export async function until(
  check: () => boolean,
  timeoutMs = 5000,
  what = 'condition',
): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Date.now() - started;
}

/**
 * A workspace file joined to `team` with `token` as `team join` leaves it: the link in the file,
 * the token sealed beside it. Opening a Workspace on it opens its team side.
 */
export function joinedTeamFile(team: TestTeam, token: string): string {
  return joinedWorkspaceFile({ url: team.server.url, team: team.teamId }, token);
}
