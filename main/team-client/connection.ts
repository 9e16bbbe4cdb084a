// A desktop's connection to its team server (Node): one WebSocket carrying the team's data
// document (edited here, merged by Yjs) and its control document (written by the server only),
// and the stateless requests, each answered by id. An answer that does not come is unknown,
// never taken as a refusal: the caller decides what a lost answer means.
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import {
  serverProtocolOf,
  TEAM_PROTOCOL,
  teamAnswerSchema,
  teamDocuments,
  teamProtocolSentence,
} from '../../shared/team';
import type { TeamAnswer, TeamAnswers, TeamLink, TeamRequestBody } from '../../shared/team';

export interface TeamConnectionOptions {
  link: TeamLink;
  token: string;
  /** The data document, kept by the caller (persisted in the workspace file). */
  doc: Y.Doc;
  /** How long a request waits for its answer before it is unknown. */
  requestTimeoutMs?: number;
  /**
   * Runs before each message from the server is applied: an edit made here but not yet written
   * into the document would otherwise be diffed against text that already holds the others' edit,
   * and undo it.
   */
  beforeReceive?: () => void;
}

export class TeamRequestUnknown extends Error {}

/** The team server refused this desktop: its token, or (`version`) the protocol it speaks. */
export class TeamRefused extends Error {
  constructor(
    message: string,
    readonly version: boolean,
  ) {
    super(message);
  }
}

/**
 * The provider's socket class, with two listeners registered before the provider's own: ws reports
 * a socket closed while still connecting as an 'error' after the provider has let go of its
 * handlers (with no listener Node throws it; the provider learns of failures from 'close'), and
 * `beforeReceive` runs before each message is applied, so local changes are in the document first.
 */
function teamSocketClass(beforeReceive: () => void) {
  return class TeamSocket extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.on('error', () => undefined);
      this.on('message', beforeReceive);
    }
  };
}

export type TeamRequestResult<K extends keyof TeamAnswers> =
  | { ok: true; value: TeamAnswers[K] }
  | { ok: false; code: Extract<TeamAnswer, { ok: false }>['code']; error: string };

export class TeamConnection {
  readonly control = new Y.Doc();
  private readonly socket: HocuspocusProviderWebsocket;
  private readonly data: HocuspocusProvider;
  private readonly controlProvider: HocuspocusProvider;
  /** Requests sent and not answered yet; `undefined`: no answer will come (timed out, closed). */
  private readonly waiting = new Map<string, (answer: TeamAnswer | undefined) => void>();
  private closing = false;
  private nextId = 1;
  /** Why the server refused this desktop (a revoked token, another protocol), once it has. */
  refusal: string | null = null;
  /** The refusal is the protocol's: not the member's doing, and gone once a side is updated. */
  refusedForVersion = false;
  connected = false;
  lastSyncedAt: number | null = null;
  disconnectedAt: number | null = Date.now();

  constructor(private readonly options: TeamConnectionOptions) {
    const names = teamDocuments(options.link.team);
    this.socket = new HocuspocusProviderWebsocket({
      url: `${options.link.url}/?protocol=${TEAM_PROTOCOL}`,
      WebSocketPolyfill: teamSocketClass(options.beforeReceive ?? (() => undefined)),
      // Reconnect soon after a partition heals; the server's ping finds dead sockets.
      delay: 200,
      minDelay: 100,
      maxDelay: 2000,
      onStatus: ({ status }) => {
        const connected = status === 'connected';
        if (connected === this.connected) return;
        this.connected = connected;
        this.disconnectedAt = connected ? null : Date.now();
      },
    });
    const common = {
      websocketProvider: this.socket,
      token: options.token,
      onAuthenticationFailed: ({ reason }: { reason: string }) => this.refuse(reason),
    };
    this.data = new HocuspocusProvider({
      ...common,
      name: names.data,
      document: options.doc,
      onSynced: () => {
        this.lastSyncedAt = Date.now();
      },
    });
    this.controlProvider = new HocuspocusProvider({
      ...common,
      name: names.control,
      document: this.control,
      onStateless: ({ payload }) => this.receive(payload),
    });
    // Providers sharing one socket attach themselves only when asked to.
    this.data.attach();
    this.controlProvider.attach();
  }

  /** Edits made here not yet acknowledged by the server. */
  get unsyncedChanges(): number {
    return this.data.unsyncedChanges;
  }

  get awareness() {
    return this.data.awareness;
  }

  /**
   * The control document holds the server's state on this connection: a change now is live, not
   * what the first sync after (re)connecting replays (it is applied before this turns true).
   */
  get controlSynced(): boolean {
    return this.controlProvider.isSynced;
  }

  /**
   * Connected, both documents synced on this connection and every edit made here acknowledged:
   * the server holds all this desktop wrote, so it can judge what the desktop asked meanwhile.
   */
  get caughtUp(): boolean {
    return (
      this.connected &&
      this.data.isSynced &&
      this.controlProvider.isSynced &&
      this.data.unsyncedChanges === 0
    );
  }

  /** Resolves once both documents have synced with the server, or rejects on a refusal. */
  async whenSynced(timeoutMs = 10_000): Promise<void> {
    const started = Date.now();
    while (!(this.data.isSynced && this.controlProvider.isSynced)) {
      if (this.refusal)
        throw new TeamRefused(
          this.refusedForVersion
            ? this.refusal
            : `The team server refused this desktop: ${this.refusal}`,
          this.refusedForVersion,
        );
      if (Date.now() - started > timeoutMs)
        throw new Error(
          `The team server at ${this.options.link.url} did not answer in ${timeoutMs / 1000} s`,
        );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Sends a request and waits for its answer; throws TeamRequestUnknown when none comes. */
  async request<K extends keyof TeamAnswers>(
    body: Extract<TeamRequestBody, { kind: K }>,
  ): Promise<TeamRequestResult<K>> {
    if (!this.connected || this.refusal)
      throw new TeamRequestUnknown(this.refusal ?? 'The team server cannot be reached.');
    const id = `r${this.nextId++}`;
    const timeoutMs = this.options.requestTimeoutMs ?? 5000;
    const answer = await new Promise<TeamAnswer | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(id, (received) => {
        clearTimeout(timer);
        resolve(received);
      });
      this.controlProvider.sendStateless(JSON.stringify({ ...body, id }));
    });
    if (!answer)
      throw new TeamRequestUnknown(
        this.closing
          ? 'The connection to the team server closed before its answer came.'
          : `No answer from the team server in ${timeoutMs / 1000} s.`,
      );
    if (answer.ok) return { ok: true, value: answer.value as TeamAnswers[K] };
    return { ok: false, code: answer.code, error: answer.error };
  }

  /** A protocol refusal is worded here, from this desktop's side, whatever the server's words. */
  private refuse(reason: string): void {
    const server = serverProtocolOf(reason);
    this.refusedForVersion = server !== null && server !== TEAM_PROTOCOL;
    this.refusal =
      server !== null && this.refusedForVersion
        ? teamProtocolSentence(server, TEAM_PROTOCOL)
        : reason;
  }

  private receive(payload: string): void {
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      return;
    }
    const answer = teamAnswerSchema.safeParse(json);
    if (!answer.success) return;
    this.waiting.get(answer.data.id)?.(answer.data as TeamAnswer);
    this.waiting.delete(answer.data.id);
  }

  close(): void {
    // A request still waiting ends unknown now: its timer would hold a closing process open.
    this.closing = true;
    for (const answer of [...this.waiting.values()]) answer(undefined);
    this.waiting.clear();
    this.data.destroy();
    this.controlProvider.destroy();
    this.socket.destroy();
  }
}
