// Creating a team on a team server from the app (Node): `POST /teams` with a server key the
// server's machine made (`team key`). The answer's owner token goes straight to the join, which
// seals it; the server's own words are never quoted back (the address came from the page).
import { formatTeamLink, parseTeamServer, teamCreatedSchema } from '../../shared/team';
import type { TeamCreate } from '../../shared/team';

export class TeamCreateRefused extends Error {
  constructor(
    readonly field: 'url' | 'serverKey',
    message: string,
  ) {
    super(message);
  }
}

/** Creates the team; its link and the owner's token, or a refusal that names the field at fault. */
export async function createTeamOn(
  address: string,
  serverKey: string,
  team: TeamCreate,
): Promise<{ link: string; token: string }> {
  const server = parseTeamServer(address);
  if (typeof server === 'string') throw new TeamCreateRefused('url', server);
  const endpoint = `${server.url.replace(/^ws/, 'http')}/teams`;
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
  const created =
    response.status === 201
      ? teamCreatedSchema.safeParse(await response.json().catch(() => null))
      : null;
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
