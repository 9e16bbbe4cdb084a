// Settings → Team's state (browser): this desktop's state in its team, the members and their
// roles, inviting one (their token shown once, here only, until dismissed) and revoking one.
import type { CallResult } from '../../../shared/answers';
import type { OperationInput, OperationName } from '../../../shared/contract';
import type { TeamMember, TeamOverview, TeamRole } from '../../../shared/team';
import { coalesce } from '../lib/coalesce';
import { checkInput, formErrors, noErrors, type FormErrors } from './forms';
import type { Shell } from './shell.svelte';

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner: invites and revokes members, decides whether posts need approval',
  approver: 'Approver: approves posts or sends them back',
  editor: 'Editor: writes posts and submits them for review',
  viewer: 'Viewer: reads only',
};

const INVITE_FIELDS = ['name', 'role'] as const;
const JOIN_FIELDS = ['link', 'token'] as const;
const CREATE_FIELDS = ['url', 'serverKey', 'name', 'owner'] as const;

/** One form's errors and busy flag, and its sending: the core's checks here first, then the call. */
class FormRun<F extends string> {
  errors = $state.raw<FormErrors<F>>(noErrors());
  busy = $state(false);

  constructor(private readonly fields: readonly F[]) {}

  /** The call's value, or undefined when the input or the core refused it (errors then shown). */
  async submit<K extends OperationName, T>(
    operation: K,
    input: OperationInput<K>,
    send: () => Promise<CallResult<T>>,
  ): Promise<T | undefined> {
    const problems = await checkInput(operation, input, this.fields);
    this.errors = problems ?? noErrors();
    if (problems) return undefined;
    this.busy = true;
    const result = await send();
    this.busy = false;
    if (result.ok) return result.value;
    this.errors = formErrors(result.error, this.fields);
    return undefined;
  }
}

export class TeamState {
  overview = $state.raw<TeamOverview | null>(null);
  loadError = $state<string | null>(null);
  draft = $state<{ name: string; role: TeamRole }>({ name: '', role: 'editor' });
  readonly inviteForm = new FormRun(INVITE_FIELDS);
  /** The member just invited and their token: the only time it is shown. */
  invited = $state.raw<{ member: TeamMember; token: string } | null>(null);
  revokeError = $state<string | null>(null);
  /** The join form; the token is typed into a password field and dropped once joined. */
  joining = $state({ link: '', token: '' });
  readonly joinForm = new FormRun(JOIN_FIELDS);
  /** The create form; the server key is typed into a password field and dropped once created. */
  creating = $state({ url: '', serverKey: '', name: '', owner: '' });
  readonly createForm = new FormRun(CREATE_FIELDS);

  constructor(private readonly shell: Shell) {}

  readonly load = coalesce(async () => {
    const result = await this.shell.api.getTeam({});
    this.loadError = result.ok ? null : result.error.message;
    if (result.ok) this.overview = result.value;
  });

  async invite(): Promise<void> {
    const input = { name: this.draft.name.trim(), role: this.draft.role };
    const invited = await this.inviteForm.submit('inviteTeamMember', input, () =>
      this.shell.api.inviteTeamMember(input),
    );
    if (!invited) return;
    this.invited = invited;
    this.draft = { name: '', role: 'editor' };
    await this.load();
  }

  async join(): Promise<void> {
    const input = { link: this.joining.link.trim(), token: this.joining.token.trim() };
    const joined = await this.joinForm.submit('joinTeam', input, () =>
      this.shell.api.joinTeam(input),
    );
    if (joined === undefined) return;
    this.joining = { link: '', token: '' };
    await Promise.all([this.load(), this.shell.refreshStatus()]);
  }

  async create(): Promise<void> {
    const input = {
      url: this.creating.url.trim(),
      serverKey: this.creating.serverKey.trim(),
      name: this.creating.name.trim(),
      owner: this.creating.owner.trim(),
    };
    const created = await this.createForm.submit('createTeam', input, () =>
      this.shell.api.createTeam(input),
    );
    if (created === undefined) return;
    this.creating = { url: '', serverKey: '', name: '', owner: '' };
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
