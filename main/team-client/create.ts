// Creating a team on a team server from the app (Node): `POST /teams` with a server key the
// server's machine made (`team key`). The answer's owner token goes straight to the join, which
// seals it; the server's own words are never quoted back (the address came from the page).
import { z } from 'zod';
import {
  formatTeamLink,
  parseTeamServer,
  TEAM_PROTOCOL,
  teamCreatedSchema,
  teamProtocolSentence,
} from '../../shared/team';
import type { TeamCreate } from '../../shared/team';
import { TeamRefused } from './connection';

/** A team server of another protocol refuses `POST /teams` saying which it speaks. */
const protocolAnswerSchema = z.object({ protocol: z.int().positive() });

export class TeamCreateRefused extends Error {
  constructor(
    readonly field: 'url' | 'serverKey',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Creates the team; its link and the owner's token, or a refusal that names the field at fault
 * (TeamRefused, with nothing created, when the server speaks another protocol).
 */
export async function createTeamOn(
  address: string,
  serverKey: string,
  team: TeamCreate,
): Promise<{ link: string; token: string }> {
  const server = parseTeamServer(address);
  if (typeof server === 'string') throw new TeamCreateRefused('url', server);
  const endpoint = `${server.url.replace(/^ws/, 'http')}/teams?protocol=${TEAM_PROTOCOL}`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${serverKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(team),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new TeamCreateRefused('url', `No team server answered at ${server.url}.`);
  }
  if (response.status === 401)
    throw new TeamCreateRefused(
      'serverKey',
      'The team server did not take this server key: `pressroom team key` on its machine makes one.',
    );
  const answer = await smallJson(response);
  const spoken = protocolAnswerSchema.safeParse(answer);
  if (spoken.success && spoken.data.protocol !== TEAM_PROTOCOL)
    throw new TeamRefused(teamProtocolSentence(spoken.data.protocol, TEAM_PROTOCOL), true);
  const created = response.status === 201 ? teamCreatedSchema.safeParse(answer) : null;
  if (!created?.success)
    throw new TeamCreateRefused(
      'url',
      `The server at ${server.url} did not create the team (HTTP ${response.status}); is it a Pressroom team server of this version?`,
    );
  return {
    link: formatTeamLink({ url: server.url, team: created.data.team }),
    token: created.data.token,
  };
}

/** An answer's JSON when it is as small as a created team's (a server could send any size), else null. */
async function smallJson(response: Response): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > 1024) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
