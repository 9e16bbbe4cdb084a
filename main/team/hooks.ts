// What the team server's Hocuspocus hooks decide (Node, team server): who a connection is, what
// it may write, and what the server reads of a post before a claim.
import { createHash } from 'node:crypto';
import type { onAuthenticatePayload } from '@hocuspocus/server';
import type * as Y from 'yjs';
import { TEAM_PROTOCOL, teamDocuments, teamProtocolSentence } from '../../shared/team';
import { postsMap, readPostFields, readPostText } from '../../shared/team-doc';
import type { PostFacts } from './lease';
import type { AuthenticatedMember, TeamMembers } from './members';

export interface MemberContext {
  member: AuthenticatedMember;
}

/** Hocuspocus sends `reason` to the client as the permission-denied message. */
class Refusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export function authenticate(members: TeamMembers, payload: onAuthenticatePayload): MemberContext {
  const protocol = desktopProtocol(payload.requestParameters.get('protocol'));
  if (protocol !== TEAM_PROTOCOL) throw new Refusal(teamProtocolSentence(TEAM_PROTOCOL, protocol));
  const member = members.authenticate(payload.token);
  if (!member) throw new Refusal('This member token is unknown or was revoked.');
  const names = teamDocuments(member.teamId);
  if (payload.documentName !== names.data && payload.documentName !== names.control)
    throw new Refusal('This token belongs to another team.');
  // Refused by the server, whatever the client does: a viewer's updates are never applied, and
  // the control document is written by the server alone.
  payload.connectionConfig.readOnly =
    member.role === 'viewer' || payload.documentName === names.control;
  return { member };
}

/** The protocol a desktop (or a `POST /teams`) says it speaks, or null when it says none. */
export function desktopProtocol(said: string | null | undefined): number | null {
  return said && /^\d{1,6}$/.test(said) ? Number(said) : null;
}

export function postFactsIn(document: Y.Doc, post: string): PostFacts | undefined {
  const record = postsMap(document).get(post);
  if (!record) return undefined;
  const fields = readPostFields(record);
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([readPostText(record), fields.mediaUrls, fields.scheduledAt, fields.botId]),
    )
    .digest('base64url');
  return {
    scheduledAt: fields.scheduledAt,
    status: fields.status,
    deletedAt: fields.deletedAt,
    botId: fields.botId,
    fingerprint,
  };
}
