// The team server (Node, headless): Hocuspocus over a WebSocket server of our own, so frames are
// bounded (ws maxPayload), floods are cut, TLS is ours to add, and the hooks below hold no state
// between requests: members, documents, leases and the audit log are in the database under DIR.
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Hocuspocus } from '@hocuspocus/server';
import type { Connection, Document } from '@hocuspocus/server';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { isLoopbackHost } from '../../shared/team';
import { TeamApprovals } from './approvals';
import { TeamAudit } from './audit';
import { TeamComments } from './comments';
import { TeamControl } from './control';
import { answerHttp } from './http';
import type { TeamHttp } from './http';
import { TeamServerKeys } from './server-keys';
import { openTeamDb } from './db';
import type { TeamDb } from './db';
import { TeamDocuments } from './documents';
import { recordEdits } from './edits';
import { TeamLeases } from './lease';
import { TeamMembers } from './members';
import { authenticate, postFactsIn, type MemberContext } from './hooks';
import { handleTeamRequest } from './requests';
// Before any document is made: each binds Document.handleUpdate when constructed.
import './no-echo';
import type { RequestEnvironment } from './requests';

export interface TeamLimits {
  /** The largest WebSocket frame read; a bigger one closes the connection (1009). */
  maxFrameBytes: number;
  /** Messages a connection may send in one second before it is closed (1008). */
  maxMessagesPerSecond: number;
}

export const DEFAULT_TEAM_LIMITS: TeamLimits = {
  maxFrameBytes: 8 * 1024 * 1024,
  maxMessagesPerSecond: 1000,
};

export interface TeamServerOptions {
  dataDir: string;
  port: number;
  host?: string;
  tls?: { cert: string | Buffer; key: string | Buffer };
  limits?: Partial<TeamLimits>;
  leaseMs?: number;
  /** How often revoked tokens are looked for (a revocation made by another process). */
  revocationCheckMs?: number;
  now?: () => number;
}

export interface RunningTeamServer {
  /** ws:// or wss:// address to put in team links. */
  url: string;
  port: number;
  db: TeamDb;
  members: TeamMembers;
  close(): Promise<void>;
}

export class TeamServerRefused extends Error {}

export function checkTeamHost(host: string, tls: boolean): void {
  if (!isLoopbackHost(host) && !tls)
    throw new TeamServerRefused(
      `The team server serves ${host} (beyond this computer) only over TLS: give --tls-cert and --tls-key, or keep --host 127.0.0.1 behind a TLS reverse proxy (docs/team.md).`,
    );
}

export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  const host = options.host ?? '127.0.0.1';
  checkTeamHost(host, options.tls !== undefined);
  const limits = { ...DEFAULT_TEAM_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const db = openTeamDb(options.dataDir);
  const members = new TeamMembers(db, now);
  const leases = new TeamLeases(db, now, options.leaseMs ?? 30_000);
  const approvals = new TeamApprovals(db, now);
  const control = new TeamControl(db, now, leases, approvals, members);
  const audit = new TeamAudit(db, now);
  const documents = new TeamDocuments(db);

  const hocuspocus: Hocuspocus = new Hocuspocus({
    quiet: true,
    // Our own check below closes a revoked member's sockets; Hocuspocus's ping catches dead ones.
    timeout: 10_000,
    onAuthenticate: async (payload) => authenticate(members, payload),
    onLoadDocument: async ({ documentName, document }) => {
      const [team, kind] = documentName.split('/');
      // The control document is kept too, though the database is its truth: a desktop holds
      // what earlier server processes wrote, and only a history that goes on from it replaces
      // those entries; one written afresh would stand beside them (Yjs keeping either).
      documents.attach(documentName, document);
      if (kind === 'control' && team) control.fill(team, document);
      else recordEdits(document, audit, environment.reflect);
    },
    onStoreDocument: async ({ documentName, document }) => {
      documents.compact(documentName, document);
    },
    onStateless: ({ connection, payload }) => answerRequest(environment, connection, payload),
    onChange: async ({ documentName, document, context }) => {
      const [team, kind] = documentName.split('/');
      if (kind !== 'data' || !team) return;
      // An edit to an approved post puts it back in review, whoever made it (docs/team.md).
      const member = (context as Partial<MemberContext> | undefined)?.member;
      const edited = approvals.resetEdited(
        team,
        member,
        (post) => postFactsIn(document, post)?.fingerprint,
      );
      if (edited.length > 0)
        await environment.reflect(team, edited).catch((error: unknown) => {
          console.error('Team control document not updated:', error);
        });
    },
  });
  const withDocument = documentOpener(hocuspocus);
  const cutRevoked = () => cutRevokedIn(hocuspocus, members);
  const environment: RequestEnvironment = {
    members,
    leases,
    approvals,
    comments: new TeamComments(db, now),
    audit: new TeamAudit(db, now),
    postFacts: (team, post) =>
      withDocument(`${team}/data`, (document) => postFactsIn(document, post)),
    reflect: (team, posts) =>
      withDocument(`${team}/control`, (document) => control.reflect(team, document, posts)),
    cutRevoked,
  };

  const { http, sockets, port } = await listen(options, host, limits, hocuspocus, {
    members,
    keys: new TeamServerKeys(db, now),
  });
  const revocationTimer = setInterval(cutRevoked, options.revocationCheckMs ?? 1000);
  revocationTimer.unref();
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${options.tls ? 'wss' : 'ws'}://${shownHost}:${port}`,
    port,
    db,
    members,
    async close() {
      clearInterval(revocationTimer);
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      // Stores and unloads every document before the database closes.
      await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
      for (const document of [...hocuspocus.documents.values()])
        await hocuspocus.unloadDocument(document);
      db.close();
    },
  };
}

/** A stateless request answered: a hook that threw would be an unhandled rejection. */
async function answerRequest(
  environment: RequestEnvironment,
  connection: Connection,
  payload: string,
): Promise<void> {
  const member = (connection.context as MemberContext).member;
  try {
    const answer = await handleTeamRequest(environment, member, payload);
    connection.sendStateless(JSON.stringify(answer));
  } catch (error) {
    console.error('Team request failed:', error);
    connection.sendStateless(
      JSON.stringify({
        id: '?',
        ok: false,
        code: 'malformed',
        error: 'The team server could not apply this request.',
      }),
    );
  }
}

/** Runs `work` on a document the server opens for itself, and lets it go after. */
function documentOpener(hocuspocus: Hocuspocus) {
  return async <T>(name: string, work: (document: Document) => T): Promise<T> => {
    const direct = await hocuspocus.openDirectConnection(name, {});
    try {
      if (!direct.document) throw new Error(`The team document ${name} could not be opened`);
      return work(direct.document);
    } finally {
      await direct.disconnect();
    }
  };
}

/** Closes every open connection of a member whose token was revoked (by any process). */
function cutRevokedIn(hocuspocus: Hocuspocus, members: TeamMembers): void {
  const open: { connection: Connection; member: string }[] = [];
  for (const document of hocuspocus.documents.values())
    for (const connection of document.getConnections()) {
      const member = (connection.context as MemberContext | undefined)?.member;
      if (member) open.push({ connection, member: member.id });
    }
  const revoked = members.revokedAmong([...new Set(open.map((entry) => entry.member))]);
  for (const entry of open)
    if (revoked.has(entry.member)) entry.connection.webSocket.close(4403, 'Access revoked');
}

/** The HTTP(S) server whose WebSocket upgrades go to Hocuspocus, bounded per frame and rate. */
async function listen(
  options: TeamServerOptions,
  host: string,
  limits: TeamLimits,
  hocuspocus: Hocuspocus,
  teamHttp: TeamHttp,
) {
  const http: HttpServer = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key })
    : createHttpServer();
  // A request's body comes at once or not at all (a slow sender holds nothing for long).
  http.requestTimeout = 10_000;
  http.on('request', (request, response) => {
    answerHttp(request, response, teamHttp).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  const sockets = new WebSocketServer({ server: http, maxPayload: limits.maxFrameBytes });
  sockets.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    limitRate(socket, limits.maxMessagesPerSecond);
    socket.on('error', () => socket.terminate());
    hocuspocus.handleConnection(socket, request);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  return { http, sockets, port: (http.address() as AddressInfo).port };
}

/** Closes a socket that sends more than `perSecond` messages in a second. */
function limitRate(socket: WebSocket, perSecond: number): void {
  let windowStart = Date.now();
  let count = 0;
  socket.on('message', () => {
    const at = Date.now();
    if (at - windowStart >= 1000) {
      windowStart = at;
      count = 0;
    }
    count += 1;
    if (count === perSecond + 1) socket.close(1008, `More than ${perSecond} messages a second`);
  });
}
