// The stateless requests a member sends on its control-document connection (Node, team server):
// each is parsed against shared/team.ts, checked against the member's role, applied in one
// database transaction, mirrored into the control document, and answered with a value or a
// sentence. Nothing here lives in the process between requests.
import { teamRequestSchema } from '../../shared/team';
import type { TeamAnswer, TeamRequest, TeamRefusal } from '../../shared/team';
import type { TeamApprovals } from './approvals';
import type { TeamLeases, LeaseOutcome, PostFacts } from './lease';
import type { AuthenticatedMember, TeamMembers } from './members';

/** What requests reach beyond the database: the documents, and the connections to cut. */
export interface RequestEnvironment {
  members: TeamMembers;
  leases: TeamLeases;
  approvals: TeamApprovals;
  postFacts(teamId: string, post: string): Promise<PostFacts | undefined>;
  reflect(teamId: string, post: string): Promise<void>;
  cutRevoked(): void;
}

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
  if (member.role === 'viewer')
    return refused(request.id, 'forbidden', 'A viewer can read the team workspace, not change it.');
  const answer = await apply(env, member, request);
  if (answer.ok && 'post' in request) await env.reflect(member.teamId, request.post);
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
      return answerOf(id, env.leases.claim(member, request.post, request.device, facts));
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
    case 'transition':
      return answerOf(id, env.approvals.transition(member, request.post, request.from, request.to));
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
