// The team as the app shows it (Node, main process): this desktop's state, the members, invites
// and revocations asked of the team server over the workspace's own connection, and which post
// this desktop edits (Yjs awareness). The member token never leaves the main process; only an
// invite's new token is answered, once.
import type { CheckedInput } from '../../../shared/contract';
import type {
  TeamAnswers,
  TeamMember,
  TeamOverview,
  TeamRequestBody,
  TeamStatus,
} from '../../../shared/team';
import { TeamRequestUnknown } from '../../team-client/connection';
import type { TeamWorkspace } from '../../team-client/workspace';
import { NotAllowed } from '../errors';

export class TeamService {
  constructor(private readonly team: TeamWorkspace | undefined) {}

  status(): TeamStatus | null {
    return this.team?.status() ?? null;
  }

  async getTeam(): Promise<TeamOverview> {
    const status = this.status();
    if (!this.team || !status) return { status: null, members: null, membersProblem: null };
    if (status.state !== 'connected')
      return {
        status,
        members: null,
        membersProblem: 'The members are listed while the team server can be reached.',
      };
    try {
      const { members } = await this.ask('members', { kind: 'members' });
      return { status, members, membersProblem: null };
    } catch (error) {
      if (!(error instanceof NotAllowed)) throw error;
      return { status, members: null, membersProblem: error.message };
    }
  }

  inviteTeamMember(input: CheckedInput<'inviteTeamMember'>): Promise<TeamAnswers['invite']> {
    return this.ask('invite', { kind: 'invite', name: input.name, role: input.role });
  }

  async revokeTeamMember(input: CheckedInput<'revokeTeamMember'>): Promise<TeamMember> {
    return (await this.ask('revoke', { kind: 'revoke', member: input.member })).member;
  }

  setEditingPost(input: CheckedInput<'setEditingPost'>): null {
    this.team?.setEditingPost(input.postId);
    return null;
  }

  /** One request to the team server; a refusal or no answer is a sentence for the user. */
  private async ask<K extends 'invite' | 'members' | 'revoke'>(
    kind: K,
    body: Extract<TeamRequestBody, { kind: K }>,
  ): Promise<TeamAnswers[K]> {
    if (!this.team) throw new NotAllowed('This workspace is not in a team.');
    const { connection } = this.team;
    if (!connection.connected || connection.refusal)
      throw new NotAllowed(connection.refusal ?? 'The team server cannot be reached now.');
    let answer;
    try {
      answer = await connection.request<K>(body);
    } catch (error) {
      if (!(error instanceof TeamRequestUnknown)) throw error;
      // An invite or revocation may have happened: the members list says, before asking again.
      throw new NotAllowed(
        `${error.message} It may still have been done: look at the members before asking again.`,
      );
    }
    if (!answer.ok) throw new NotAllowed(answer.error);
    return answer.value;
  }
}
