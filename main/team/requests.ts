// The stateless requests a member sends on its control-document connection (Node, team server):
// each is parsed against shared/team.ts, checked against the member's role, applied in one
// database transaction, mirrored into the control document, and answered with a value or a
// sentence. Nothing here lives in the process between requests.
import { teamRequestSchema } from '../../shared/team';
import type { PostApproval, TeamAnswer, TeamRequest, TeamRefusal } from '../../shared/team';
import type { TeamApprovals } from './approvals';
import type { TeamAudit } from './audit';
import type { TeamComments } from './comments';
import type { TeamLeases, LeaseOutcome, PostFacts } from './lease';
import type { AuthenticatedMember, TeamMembers } from './members';

/** What requests reach beyond the database: the documents, and the connections to cut. */
export interface RequestEnvironment {
  members: TeamMembers;
  leases: TeamLeases;
  approvals: TeamApprovals;
  comments: TeamComments;
  audit: TeamAudit;
  postFacts(teamId: string, post: string): Promise<PostFacts | undefined>;
  /** Mirrors a post's entry (none: only the settings) and new audit entries into the control document. */
  /** Brings the control document up to the database: these posts, the settings, the log. */
  reflect(teamId: string, posts: readonly string[]): Promise<void>;
  cutRevoked(): void;
}

/** What a viewer may ask: reading, never changing. */
const READS: ReadonlySet<TeamRequest['kind']> = new Set(['members', 'me', 'approval', 'log']);

/** Log entries answered when the request names no limit. */
const LOG_DEFAULT = 1000;

/** The longest request read; a bigger one is refused unread. */
export const MAX_REQUEST_CHARS = 4096;

function refused(id: string, code: TeamRefusal, error: string): TeamAnswer {
  return { id, ok: false, code, error };
}

function answerOf<T>(id: string, outcome: LeaseOutcome<T>): TeamAnswer {
  return outcome.ok
    ? { id, ok: true, value: outcome.value }
    : refused(id, outcome.code, outcome.error);
}

function parse(payload: string): TeamRequest | TeamAnswer {
  if (payload.length > MAX_REQUEST_CHARS)
    return refused('?', 'malformed', `A request is at most ${MAX_REQUEST_CHARS} characters.`);
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return refused('?', 'malformed', 'A request is one JSON object.');
  }
  const parsed = teamRequestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const id = typeof (json as { id?: unknown })?.id === 'string' ? (json as { id: string }).id : '?';
  return refused(
    id.slice(0, 64),
    'malformed',
    `Malformed request: ${parsed.error.issues[0]?.message ?? ''}`,
  );
}

export async function handleTeamRequest(
  env: RequestEnvironment,
  member: AuthenticatedMember,
  payload: string,
): Promise<TeamAnswer> {
  const request = parse(payload);
  if ('ok' in request) return request;
  if (member.role === 'viewer' && !READS.has(request.kind))
    return refused(request.id, 'forbidden', 'A viewer can read the team workspace, not change it.');
  const answer = await apply(env, member, request);
  if (answer.ok && !READS.has(request.kind))
    await env.reflect(member.teamId, 'post' in request ? [request.post] : []);
  return answer;
}

async function apply(
  env: RequestEnvironment,
  member: AuthenticatedMember,
  request: TeamRequest,
): Promise<TeamAnswer> {
  const { id } = request;
  switch (request.kind) {
    case 'claim': {
      const facts = await env.postFacts(member.teamId, request.post);
      return answerOf(
        id,
        env.leases.claim(
          member,
          { post: request.post, device: request.device, asked: request.now === true },
          facts,
          (known) => env.approvals.publishBlock(member.teamId, request.post, known),
        ),
      );
    }
    case 'renew':
      return answerOf(id, env.leases.renew(member, request.post, request.epoch));
    case 'published':
      return answerOf(
        id,
        env.leases.published(member, request.post, request.epoch, request.remoteId),
      );
    case 'release':
      return answerOf(id, env.leases.release(member, request.post, request.epoch));
    default:
      return applyReview(env, member, request);
  }
}

async function applyReview(
  env: RequestEnvironment,
  member: AuthenticatedMember,
  request: Exclude<TeamRequest, { kind: 'claim' | 'renew' | 'published' | 'release' }>,
): Promise<TeamAnswer> {
  const { id } = request;
  switch (request.kind) {
    case 'transition': {
      const facts = await env.postFacts(member.teamId, request.post);
      return answerOf(id, env.approvals.transition(member, request, facts));
    }
    case 'comment': {
      const facts = await env.postFacts(member.teamId, request.post);
      const exists = facts !== undefined && facts.deletedAt === null;
      return answerOf(id, env.comments.comment(member, request.post, request.text, exists));
    }
    case 'approval': {
      const row = env.approvals.row(member.teamId, request.post);
      const value: PostApproval = {
        state: row?.state ?? 'draft',
        author: row?.author ?? null,
        comments: env.comments.of(member.teamId, request.post),
        history: env.audit.log(member.teamId, {
          post: request.post,
          statesOnly: true,
          limit: LOG_DEFAULT,
        }),
      };
      return { id, ok: true, value };
    }
    case 'set_approval':
      return answerOf(id, env.approvals.setSetting(member, request));
    case 'log': {
      const filter = { limit: request.limit ?? LOG_DEFAULT, member: request.member };
      return { id, ok: true, value: { entries: env.audit.log(member.teamId, filter) } };
    }
    case 'me': {
      const { teamId: _team, ...me } = member;
      return { id, ok: true, value: { member: me } };
    }
    default:
      return applyMembership(env, member, request);
  }
}

function applyMembership(
  env: RequestEnvironment,
  member: AuthenticatedMember,
  request: Extract<TeamRequest, { kind: 'invite' | 'members' | 'revoke' }>,
): TeamAnswer {
  const { id } = request;
  if (request.kind === 'members')
    return { id, ok: true, value: { members: env.members.list(member.teamId) } };
  if (member.role !== 'owner')
    return refused(id, 'forbidden', 'Only the team owner can invite or revoke members.');
  if (request.kind === 'invite')
    return { id, ok: true, value: env.members.invite(member.teamId, request.name, request.role) };
  if (request.member === member.id)
    return refused(id, 'forbidden', 'The owner cannot revoke their own token.');
  const revoked = env.members.revoke(member.teamId, request.member);
  if (!revoked) return refused(id, 'not_found', `No member ${request.member} in this team.`);
  env.cutRevoked();
  return { id, ok: true, value: { member: revoked } };
}
