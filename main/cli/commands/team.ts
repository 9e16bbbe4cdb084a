// `team serve|create|key` (the team server's machine) and `team join|invite|members|revoke|status`
// (a desktop's workspace) (Node, CLI). Tokens are printed once and read from the environment or
// stdin, never from the command line.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { formatTeamLink, parseTeamLink } from '../../../shared/team';
import { waitForStopSignal } from '../../core/lifecycle';
import { openTeamDb } from '../../team/db';
import { TeamMembers } from '../../team/members';
import { startTeamServer } from '../../team/server';
import { TeamServerKeys } from '../../team/server-keys';
import { createPrivateFolder } from '../../sqlite/private-files';
import { CliError, createOutput } from '../output';
import { globalOptions, intOption } from '../options';
import { registerTeamDesktop } from './team-desktop';

interface ServeOptions {
  port: number;
  data: string;
  host: string;
  tlsCert?: string;
  tlsKey?: string;
}

export function registerTeam(program: Command): void {
  const team = program
    .command('team')
    .description('Share a workspace with a team through a team server (docs/team.md)');

  team
    .command('serve')
    .description('Run the team server (headless) until stopped')
    .requiredOption('--data <dir>', "the team server's data folder (its SQLite file lives here)")
    .option('--port <n>', 'port to listen on', intOption('--port', 0, 65535), 4646)
    .option('--host <host>', 'address to listen on; beyond 127.0.0.1 only with TLS', '127.0.0.1')
    .option('--tls-cert <file>', 'TLS certificate (PEM), to serve wss:// beyond this computer')
    .option('--tls-key <file>', 'TLS private key (PEM)')
    .action(async (options: ServeOptions, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      if (Boolean(options.tlsCert) !== Boolean(options.tlsKey))
        throw new CliError('Give both --tls-cert and --tls-key, or neither.');
      createPrivateFolder(options.data);
      const server = await startTeamServer({
        dataDir: options.data,
        port: options.port,
        host: options.host,
        ...(options.tlsCert && options.tlsKey
          ? { tls: { cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey) } }
          : {}),
      }).catch((error: unknown) => {
        throw new CliError(error instanceof Error ? error.message : String(error));
      });
      output.result({ url: server.url }, `The team server is at ${server.url} (Ctrl-C stops it)`);
      await waitForStopSignal();
      await server.close();
    });

  team
    .command('create')
    .description(
      'Create a team on the team server’s data folder; prints its link and the owner’s token once',
    )
    .requiredOption('--data <dir>', "the team server's data folder")
    .requiredOption(
      '--url <url>',
      'the address desktops reach the server at, e.g. wss://team.example.com',
    )
    .requiredOption('--name <name>', "the team's name")
    .option('--owner <name>', "the owner's name", 'Owner')
    .action(
      async (
        options: { data: string; url: string; name: string; owner: string },
        command: Command,
      ) => {
        const output = createOutput((await globalOptions(command)).json);
        createPrivateFolder(options.data);
        const db = openTeamDb(options.data);
        try {
          const created = new TeamMembers(db).createTeam(options.name, options.owner);
          const link = formatTeamLink({
            url: options.url.replace(/\/$/, ''),
            team: created.teamId,
          });
          const parsed = parseTeamLink(link);
          if (typeof parsed === 'string') throw new CliError(parsed);
          output.result(
            { team: created.teamId, link, owner: created.member, token: created.token },
            [
              `Team ${options.name} (${created.teamId}) created.`,
              `Link: ${link}`,
              `Owner token (shown once; keep it secret): ${created.token}`,
              'Join from the owner’s workspace: PRESSROOM_TEAM_TOKEN=… pressroom team join LINK',
            ].join('\n'),
          );
        } finally {
          db.close();
        }
      },
    );

  registerServerKey(team);
  registerTeamDesktop(team);
}

/** `team key`: on the server's machine, a key with which an owner creates a team from the app. */
function registerServerKey(team: Command): void {
  team
    .command('key')
    .description(
      'Make a server key, with which an owner creates a team from the app (Settings → Team); printed once',
    )
    .requiredOption('--data <dir>', "the team server's data folder")
    .action(async (options: { data: string }, command: Command) => {
      const output = createOutput((await globalOptions(command)).json);
      createPrivateFolder(options.data);
      const db = openTeamDb(options.data);
      try {
        const key = new TeamServerKeys(db).issue();
        output.result({ key }, `Server key (shown once; keep it secret): ${key}`);
      } finally {
        db.close();
      }
    });
}
