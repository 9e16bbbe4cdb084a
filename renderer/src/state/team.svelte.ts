// Settings → Team's state (browser): this desktop's state in its team, the members and their
// roles, inviting one (their token shown once, here only, until dismissed) and revoking one.
import type { TeamMember, TeamOverview, TeamRole } from '../../../shared/team';
import { coalesce } from '../lib/coalesce';
import { checkInput, formErrors, noErrors, type FormErrors } from './forms';
import type { Shell } from './shell.svelte';

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner: invites and revokes members',
  editor: 'Editor: writes and schedules posts',
  viewer: 'Viewer: reads only',
};

const INVITE_FIELDS = ['name', 'role'] as const;
type InviteField = (typeof INVITE_FIELDS)[number];
const JOIN_FIELDS = ['link', 'token'] as const;
type JoinField = (typeof JOIN_FIELDS)[number];

export class TeamState {
  overview = $state.raw<TeamOverview | null>(null);
  loadError = $state<string | null>(null);
  draft = $state<{ name: string; role: TeamRole }>({ name: '', role: 'editor' });
  inviteErrors = $state.raw<FormErrors<InviteField>>(noErrors());
  inviting = $state(false);
  /** The member just invited and their token: the only time it is shown. */
  invited = $state.raw<{ member: TeamMember; token: string } | null>(null);
  revokeError = $state<string | null>(null);
  /** The join form; the token is typed into a password field and dropped once joined. */
  joining = $state({ link: '', token: '' });
  joinErrors = $state.raw<FormErrors<JoinField>>(noErrors());
  joinBusy = $state(false);

  constructor(private readonly shell: Shell) {}

  readonly load = coalesce(async () => {
    const result = await this.shell.api.getTeam({});
    this.loadError = result.ok ? null : result.error.message;
    if (result.ok) this.overview = result.value;
  });

  async invite(): Promise<void> {
    const input = { name: this.draft.name.trim(), role: this.draft.role };
    const problems = await checkInput('inviteTeamMember', input, INVITE_FIELDS);
    this.inviteErrors = problems ?? noErrors();
    if (problems) return;
    this.inviting = true;
    const result = await this.shell.api.inviteTeamMember(input);
    this.inviting = false;
    if (!result.ok) {
      this.inviteErrors = formErrors(result.error, INVITE_FIELDS);
      return;
    }
    this.invited = result.value;
    this.draft = { name: '', role: 'editor' };
    await this.load();
  }

  async join(): Promise<void> {
    const input = { link: this.joining.link.trim(), token: this.joining.token.trim() };
    const problems = await checkInput('joinTeam', input, JOIN_FIELDS);
    this.joinErrors = problems ?? noErrors();
    if (problems) return;
    this.joinBusy = true;
    const result = await this.shell.api.joinTeam(input);
    this.joinBusy = false;
    if (!result.ok) {
      this.joinErrors = formErrors(result.error, JOIN_FIELDS);
      return;
    }
    this.joining = { link: '', token: '' };
    await Promise.all([this.load(), this.shell.refreshStatus()]);
  }

  /** Forgets the shown token: it cannot be shown again. */
  dismissInvite(): void {
    this.invited = null;
  }

  async revoke(member: TeamMember): Promise<void> {
    const result = await this.shell.api.revokeTeamMember({ member: member.id });
    this.revokeError = result.ok ? null : result.error.message;
    await this.load();
  }
}
