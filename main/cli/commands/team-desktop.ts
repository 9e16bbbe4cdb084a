// `team join|status|invite|members|revoke` (Node, CLI): a desktop workspace in its team. The
// member token is read from PRESSROOM_TEAM_TOKEN or stdin and kept sealed beside the workspace
// file (the platform token's way, docs/security.md), never in SQLite or on the command line.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { TEAM_ROLES, teamPublishingSentence, teamStateSentence } from '../../../shared/team';
import type { TeamMember, TeamRole, TeamStatus } from '../../../shared/team';
import { FileSecretStore } from '../../core/account';
import { InvalidInput, NotAllowed } from '../../core/errors';
import { joinTeam, teamSecretFolder } from '../../core/team';
import { WorkspaceStore } from '../../store';
import { TeamStore } from '../../store/team';
import { askTeamServer } from '../../team-client/membership';
import { TeamWorkspace } from '../../team-client/workspace';
import { createPrivateFolder } from '../../sqlite/private-files';
import { CliError, createOutput } from '../output';
import { globalOptions } from '../options';
import { defaultWorkspaceFile, withWorkspace } from '../workspace';
import { call } from '../../core/operations';

async function workspaceFile(command: Command): Promise<string> {
  const file = (await globalOptions(command)).db ?? defaultWorkspaceFile();
  createPrivateFolder(dirname(file));
  return file;
}

/** The member token, sealed in a folder of its own beside the workspace file. */
function teamSecret(file: string): FileSecretStore {
  return new FileSecretStore(teamSecretFolder(file));
}

function tokenFromEnvironment(): string {
  const token =
    process.env.PRESSROOM_TEAM_TOKEN ?? readFileSync(0, 'utf8').split(/\r?\n/)[0]?.trim();
  if (!token) throw new CliError('Give the member token in PRESSROOM_TEAM_TOKEN or on stdin.');
  return token;
}

function linkedOrFail(file: string): { link: { url: string; team: string }; token: string } {
  const store = WorkspaceStore.open(file);
  try {
    const link = new TeamStore(store.db, Date.now).link();
    const token = teamSecret(file).read();
    if (!link || !token)
      throw new CliError('This workspace is not in a team; join one with: team join LINK');
    return { link: { url: link.url, team: link.team }, token };
  } finally {
    store.close();
  }
}

function describeStatus(status: TeamStatus): string {
  const when = (at: number | null) => (at === null ? 'never' : new Date(at).toISOString());
  return [
    `Team ${status.team} at ${status.url}: ${teamStateSentence(status, when)}`,
    `${status.waiting} change(s) waiting to sync; last synced ${when(status.lastSyncedAt)}; ${status.present.length} other desktop(s) here`,
    teamPublishingSentence(status),
  ].join('\n');
}

function describeMember(member: TeamMember): string {
  return `${member.id}  ${member.role.padEnd(6)}  ${member.name}${member.revokedAt ? '  (revoked)' : ''}`;
}

/** Opens the team workspace, lets it sync for up to `waitMs`, and answers its status. */
async function syncOnce(file: string, token: string, waitMs: number): Promise<TeamStatus> {
  const store = WorkspaceStore.open(file);
  const workspace = TeamWorkspace.open(store, token);
  if (!workspace) {
    store.close();
    throw new CliError('This workspace is not in a team; join one with: team join LINK');
  }
  try {
    await workspace.connection.whenSynced(waitMs).catch(() => undefined);
    workspace.pushLocalChanges();
    const started = Date.now();
    while (
      workspace.connection.connected &&
      workspace.connection.unsyncedChanges > 0 &&
      Date.now() - started < waitMs
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    return workspace.status();
  } finally {
    workspace.close();
    store.close();
  }
}

export function registerTeamDesktop(team: Command): void {
  team
    .command('join <link>')
    .description('Join this workspace to a team (token in PRESSROOM_TEAM_TOKEN or on stdin)')
    .action(async (link: string, _options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const file = await workspaceFile(command);
      const token = tokenFromEnvironment();
      // Settings → Team's join: the token is checked with the team server before the file is
      // touched, so a refusal (a token, another protocol) leaves it out of any team.
      const store = WorkspaceStore.open(file);
      try {
        await joinTeam(store, file, link, token);
      } catch (error) {
        if (error instanceof InvalidInput || error instanceof NotAllowed)
          throw new CliError(error.message);
        throw error;
      } finally {
        store.close();
      }
      const status = await syncOnce(file, token, 10_000);
      output.result(status, describeStatus(status));
    });

  team
    .command('status')
    .description(
      'Sync with the team server once and say: connected / offline since … / changes waiting',
    )
    .action(async (_options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const file = await workspaceFile(command);
      const { token } = linkedOrFail(file);
      const status = await syncOnce(file, token, 3000);
      output.result(status, describeStatus(status));
    });

  team
    .command('invite')
    .description('Invite a member (owner only); prints their token once')
    .requiredOption('--name <name>', "the member's name")
    .option('--role <role>', `one of ${TEAM_ROLES.join(', ')}`, 'editor')
    .action(async (options: { name: string; role: string }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      if (!TEAM_ROLES.includes(options.role as TeamRole))
        throw new CliError(`--role is one of ${TEAM_ROLES.join(', ')}`);
      const { link, token } = linkedOrFail(await workspaceFile(command));
      const answer = await askTeamServer(link, token, {
        kind: 'invite',
        name: options.name,
        role: options.role as TeamRole,
      });
      if (!answer.ok) throw new CliError(answer.error);
      output.result(
        answer.value,
        `${describeMember(answer.value.member)}\nToken (shown once): ${answer.value.token}`,
      );
    });

  team
    .command('members')
    .description("The team's members and their roles")
    .action(async (_options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const { link, token } = linkedOrFail(await workspaceFile(command));
      const answer = await askTeamServer(link, token, { kind: 'members' });
      if (!answer.ok) throw new CliError(answer.error);
      output.result(answer.value, answer.value.members.map(describeMember).join('\n'));
    });

  team
    .command('revoke <member>')
    .description("Revoke a member's token (owner only); their desktops are cut off within 5 s")
    .action(async (member: string, _options: unknown, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const { link, token } = linkedOrFail(await workspaceFile(command));
      const answer = await askTeamServer(link, token, { kind: 'revoke', member });
      if (!answer.ok) throw new CliError(answer.error);
      output.result(answer.value, `Revoked: ${describeMember(answer.value.member)}`);
    });
  registerApprovalCommands(team);
}

/** `team approval on|off` (the owner's setting) and `team log`. */
function registerApprovalCommands(team: Command): void {
  team
    .command('approval <on|off>')
    .description("Whether team posts need an approver's yes before they go out (owner only)")
    .option('--bot <id...>', 'only the posts of these bots')
    .action(async (switched: string, options: { bot?: string[] }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      if (switched !== 'on' && switched !== 'off') throw new CliError('Say on or off.');
      const { link, token } = linkedOrFail(await workspaceFile(command));
      const required = switched === 'on';
      const bots = required && options.bot ? options.bot : null;
      const answer = await askTeamServer(link, token, { kind: 'set_approval', required, bots });
      if (!answer.ok) throw new CliError(answer.error);
      const which = bots ? `Posts of ${bots.join(', ')}` : 'Every post';
      output.result(
        answer.value,
        required ? `${which} now needs approval before it goes out.` : 'No approval needed.',
      );
    });

  team
    .command('log')
    .description("The team's audit log: who did what to which post, oldest first")
    .option('--member <id>', "only this member's entries")
    .option('--csv', 'as CSV')
    .action(async (options: { member?: string; csv?: boolean }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      const log = await withWorkspace(command, (pressroom) =>
        call(pressroom, 'teamLog', {
          format: options.csv ? 'csv' : 'json',
          ...(options.member ? { member: options.member } : {}),
        }),
      );
      if (log.csv !== null && !output.json) return void process.stdout.write(`${log.csv}\r\n`);
      output.result(
        log.entries,
        log.entries
          .map(
            (entry) =>
              `${new Date(entry.at).toISOString()}  ${entry.name.padEnd(12)} ${entry.action}${entry.post ? ` ${entry.post}` : ''}${entry.detail ? `  ${entry.detail}` : ''}`,
          )
          .join('\n') || 'Nothing in the log yet.',
      );
    });
}
