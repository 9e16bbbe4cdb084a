// Asking the team server about members and the approval setting (Node): one connection for one
// request, for the CLI and Settings → Team, closed once answered.
import * as Y from 'yjs';
import type { TeamLink, TeamRequestBody } from '../../shared/team';
import { TeamConnection } from './connection';
import type { TeamRequestResult } from './connection';

export async function askTeamServer<K extends 'invite' | 'members' | 'revoke' | 'set_approval'>(
  link: TeamLink,
  token: string,
  body: Extract<TeamRequestBody, { kind: K }>,
): Promise<TeamRequestResult<K>> {
  const connection = new TeamConnection({ link, token, doc: new Y.Doc() });
  try {
    await connection.whenSynced();
    return await connection.request<K>(body);
  } finally {
    connection.close();
  }
}
