// What a desktop and the team server say to each other (pure): the link, the document names, the
// roles, and the stateless requests the server checks and applies (claim, renew, published,
// release, transition, invite, members, revoke), each with its answer. Both sides parse with
// these schemas, so a malformed request is refused with a sentence, never half-applied.
import { z } from 'zod';

/** Bumped when a change would let an older desktop and a newer server misread each other. */
export const TEAM_PROTOCOL = 1;

/**
 * Which side to update when a desktop and its team server speak different protocols. The server
 * refuses a desktop with it, and a desktop words a refusal it reads back the same way: every
 * version's refusal begins "This team server speaks protocol N".
 */
export function teamProtocolSentence(server: number, desktop: number | null): string {
  const start = `This team server speaks protocol ${server}`;
  if (desktop === null) return `${start}, and this desktop none: update Pressroom on this desktop.`;
  return server > desktop
    ? `${start}, newer than this desktop’s ${desktop}: update Pressroom on this desktop.`
    : `${start}, older than this desktop’s ${desktop}: update the team server (pressroom team serve on its machine).`;
}

/** The protocol a team server's refusal says it speaks, or null for a refusal of another kind. */
export function serverProtocolOf(refusal: string): number | null {
  const spoken = /^This team server speaks protocol (\d{1,6})\b/.exec(refusal);
  return spoken ? Number(spoken[1]) : null;
}

export const TEAM_ROLES = ['owner', 'approver', 'editor', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

import { APPROVAL_STATES } from './team-status';
import type { ApprovalState, TeamStatus } from './team-status';

export {
  APPROVAL_STATES,
  approvalWaitSentence,
  teamPublishingSentence,
  teamStateSentence,
} from './team-status';
export type { ApprovalState, TeamPresence, TeamStatus } from './team-status';

/** The longest comment on a post; longer ones are refused with a sentence. */
export const COMMENT_MAX_CHARS = 1000;

const TEAM_ID = /^t_[0-9a-f]{16}$/;
const uuid = z.uuid();
const requestId = z.string().min(1).max(64);

export interface TeamLink {
  /** The WebSocket address of the team server: ws:// on this computer, else wss://. */
  url: string;
  team: string;
}

/** A team link is the server's address with the team after `#`: `wss://team.example.com/#t_…`. */
export function formatTeamLink(link: TeamLink): string {
  return `${link.url}#${link.team}`;
}

export function parseTeamLink(text: string): TeamLink | string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'A team link looks like wss://team.example.com/#t_0123456789abcdef';
  }
  const team = url.hash.slice(1);
  if (!TEAM_ID.test(team)) return 'The team link has no team after # (t_ and 16 hex digits)';
  const problem = teamServerProblem(url);
  if (problem) return problem;
  url.hash = '';
  return { url: url.toString().replace(/\/$/, ''), team };
}

/** A team server's address (wss://…, or ws:// on this computer) without a team, or why not. */
export function parseTeamServer(text: string): string | { url: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'A team server’s address looks like wss://team.example.com';
  }
  const problem = teamServerProblem(url);
  if (problem) return problem;
  url.hash = '';
  return { url: url.toString().replace(/\/$/, '') };
}

function teamServerProblem(url: URL): string | null {
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    return 'A team server’s address starts with wss:// (or ws:// on this computer)';
  if (url.protocol === 'ws:' && !isLoopbackHost(url.hostname))
    return 'A team server beyond this computer is reached only over wss:// (TLS)';
  return null;
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

export function isTeamId(text: string): boolean {
  return TEAM_ID.test(text);
}

/** `POST /teams` on a team server, with one of its server keys: a new team and its owner. */
export const teamCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  owner: z.string().trim().min(1).max(100),
});
export type TeamCreate = z.infer<typeof teamCreateSchema>;

/** The answer to a created team: its id and the owner's token (shown nowhere else). */
export const teamCreatedSchema = z.object({
  team: z.string().regex(TEAM_ID),
  token: z.string().min(1).max(200),
});

export function teamDocuments(team: string): { data: string; control: string } {
  return { data: `${team}/data`, control: `${team}/control` };
}

/** The same on every desktop, so a post claimed again after a cut-off is sent with the same key. */
export function teamIdempotencyKey(uuid: string, revision: number): string {
  return `team-${uuid}-r${revision}`;
}

export const teamRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    id: requestId,
    kind: z.literal('claim'),
    post: uuid,
    device: z.string().min(1).max(100),
    /** The member asked to publish it now: before its time, or with none. */
    now: z.boolean().optional(),
  }),
  z.object({ id: requestId, kind: z.literal('renew'), post: uuid, epoch: z.int().positive() }),
  z.object({
    id: requestId,
    kind: z.literal('published'),
    post: uuid,
    epoch: z.int().positive(),
    remoteId: z.string().min(1).max(200),
  }),
  z.object({ id: requestId, kind: z.literal('release'), post: uuid, epoch: z.int().positive() }),
  z.object({
    id: requestId,
    kind: z.literal('transition'),
    post: uuid,
    from: z.enum(APPROVAL_STATES),
    to: z.enum(APPROVAL_STATES),
    /** Required when sending a post back; checked by the server with a sentence. */
    comment: z
      .string()
      .max(COMMENT_MAX_CHARS * 2)
      .optional(),
  }),
  z.object({
    id: requestId,
    kind: z.literal('comment'),
    post: uuid,
    text: z.string().max(COMMENT_MAX_CHARS * 2),
  }),
  z.object({ id: requestId, kind: z.literal('approval'), post: uuid }),
  z.object({
    id: requestId,
    kind: z.literal('set_approval'),
    required: z.boolean(),
    /** Only these bots' posts need approval; null: every bot's. */
    bots: z.array(z.string().min(1).max(100)).max(100).nullable(),
  }),
  z.object({
    id: requestId,
    kind: z.literal('log'),
    member: z.string().min(1).max(40).optional(),
    limit: z.int().positive().max(10_000).optional(),
  }),
  z.object({
    id: requestId,
    kind: z.literal('invite'),
    name: z.string().trim().min(1).max(100),
    role: z.enum(TEAM_ROLES),
  }),
  z.object({ id: requestId, kind: z.literal('members') }),
  z.object({ id: requestId, kind: z.literal('me') }),
  z.object({ id: requestId, kind: z.literal('revoke'), member: z.string().min(1).max(40) }),
]);
export type TeamRequest = z.infer<typeof teamRequestSchema>;
export type TeamRequestKind = TeamRequest['kind'];
/** A request as a desktop writes it, before the connection gives it an id. */
export type TeamRequestBody = TeamRequest extends infer R
  ? R extends TeamRequest
    ? Omit<R, 'id'>
    : never
  : never;

export interface TeamMember {
  id: string;
  name: string;
  role: TeamRole;
  createdAt: number;
  revokedAt: number | null;
}

/** Whether posts need an approver's yes before they go out, for every bot or only some. */
export interface ApprovalSetting {
  required: boolean;
  bots: string[] | null;
}

export interface PostComment {
  member: string;
  name: string;
  at: number;
  text: string;
}

/** One entry of the team's audit log, with the member's name beside the id. */
export interface TeamLogEntry {
  seq: number;
  at: number;
  member: string;
  name: string;
  action: string;
  post: string | null;
  detail: string;
}

export interface PostApproval {
  state: ApprovalState;
  /** Who first submitted the post for review: the one a request for changes goes back to. */
  author: string | null;
  comments: PostComment[];
  /** The post's entries in the audit log (its states, claims, results), oldest first. */
  history: TeamLogEntry[];
}

export interface LeaseGranted {
  epoch: number;
  /** How long the lease lasts unless renewed, counted on the desktop's own monotonic clock. */
  leaseMs: number;
  /** Set when an earlier holder's send may have happened: look the post up before sending. */
  earlierHolder: boolean;
  /**
   * How long before this answer, by the team server's clock, the post was first claimed: no
   * earlier holder can have sent before then (0 on a first claim).
   */
  firstClaimedMsAgo: number;
}

/** One line of a team post's history: who (a member's name), what they did, when (server time). */
export interface TeamHistoryEntry {
  who: string;
  what: string;
  at: number;
}

/** What each request kind answers when it succeeds. */
export interface TeamAnswers {
  claim: LeaseGranted;
  renew: { leaseMs: number };
  published: { remoteId: string };
  release: Record<string, never>;
  /** `pastDue`: approved after its time had passed, so the approver picks now or a new time. */
  transition: { state: ApprovalState; pastDue: number | null };
  comment: { comment: PostComment };
  approval: PostApproval;
  set_approval: ApprovalSetting;
  log: { entries: TeamLogEntry[] };
  invite: { member: TeamMember; token: string };
  members: { members: TeamMember[] };
  me: { member: TeamMember };
  revoke: { member: TeamMember };
}

export type TeamAnswer =
  | { id: string; ok: true; value: unknown }
  | { id: string; ok: false; error: string; code: TeamRefusal };

/** Why a request was refused: the client acts on the code, a person reads the sentence. */
export const TEAM_REFUSALS = [
  'malformed',
  'forbidden',
  'not_found',
  'not_due',
  'not_approved',
  'held',
  'published',
  'stale_epoch',
  'stale_state',
  'invalid',
] as const;
export type TeamRefusal = (typeof TEAM_REFUSALS)[number];

export const teamAnswerSchema = z.union([
  z.object({ id: requestId, ok: z.literal(true), value: z.unknown() }),
  z.object({
    id: requestId,
    ok: z.literal(false),
    error: z.string().max(1000),
    code: z.enum(TEAM_REFUSALS),
  }),
]);

/** Settings → Team: this desktop's state, and the members when the team server answered. */
export interface TeamOverview {
  /** Null for a workspace of one. */
  status: TeamStatus | null;
  members: TeamMember[] | null;
  /** Why the members could not be read (offline, refused), in a sentence; null when they were. */
  membersProblem: string | null;
}
