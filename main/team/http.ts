// The team server's one HTTP request (Node, team server): `POST /teams?protocol=N` creates a team
// for the holder of a server key (server-keys.ts), so an owner can start one from the app, when
// its desktop speaks this server's protocol. Everything else on this port is the WebSocket of the
// documents.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TEAM_PROTOCOL, teamCreateSchema, teamProtocolSentence } from '../../shared/team';
import { desktopProtocol } from './hooks';
import type { TeamMembers } from './members';
import type { TeamServerKeys } from './server-keys';

/** A name and an owner's name fit in far less. */
const MAX_BODY_BYTES = 4096;

export interface TeamHttp {
  members: TeamMembers;
  keys: TeamServerKeys;
}

export async function answerHttp(
  request: IncomingMessage,
  response: ServerResponse,
  http: TeamHttp,
): Promise<void> {
  const reply = (status: number, body: object): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const url = new URL(request.url ?? '/', 'http://team');
  if (url.pathname !== '/teams') {
    response
      .writeHead(426, { 'content-type': 'text/plain' })
      .end('A Pressroom team server speaks WebSocket.\n');
    return;
  }
  if (request.method !== 'POST') return reply(405, { error: 'Only POST creates a team here.' });
  // Before anything is read or made: a team its creator's desktop could not join is of no use.
  const protocol = desktopProtocol(url.searchParams.get('protocol'));
  if (protocol !== TEAM_PROTOCOL)
    return reply(409, {
      error: teamProtocolSentence(TEAM_PROTOCOL, protocol),
      protocol: TEAM_PROTOCOL,
    });
  const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  if (!http.keys.holds(key))
    return reply(401, {
      error:
        'This server key is not one of this team server’s: `pressroom team key` on its machine makes one.',
    });
  const text = await readBody(request);
  if (text === undefined)
    return reply(413, { error: `The request is over ${MAX_BODY_BYTES} bytes.` });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return reply(400, { error: 'The request is not JSON.' });
  }
  const input = teamCreateSchema.safeParse(json);
  if (!input.success)
    return reply(400, {
      error: 'A team needs a name and its owner’s name (1–100 characters each).',
    });
  const created = http.members.createTeam(input.data.name, input.data.owner);
  reply(201, { team: created.teamId, token: created.token });
}

/** The body as text, or undefined past the limit (the rest is not read). */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
