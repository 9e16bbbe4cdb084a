// `check`: how the configured platform speaks, in a few read requests (Node, CLI).
import type { Command } from 'commander';
import { describeConnection } from '../../../shared/connection';
import { checkConnection } from '../../core/connection';
import { globalOptions } from '../options';
import { CliError, createOutput } from '../output';

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'Test the token and report how the platform speaks: rate-limit headers, its clock, lists, ids, errors (at most 5 read requests)',
    )
    .addHelpText(
      'after',
      '\nNeeds --api-base and --token (or their environment variables). Exits 1 when the token is refused.\nWith --json: {"token":{…},"rate_limit":{"reset","skew_ms","limit",…},"lists":{"envelope","pagination"},"ids" (number, string or mixed),"id_types":{"bots","posts"},…}.',
    )
    .action(async (_options: unknown, command: Command) => {
      const global = await globalOptions(command);
      if (!global.apiBase || !global.token)
        throw new CliError(
          'check needs --api-base and --token (or PRESSROOM_API_BASE and PRESSROOM_API_TOKEN)',
          2,
        );
      const output = createOutput(global.json);
      output.progress(`Checking ${global.apiBase} …`);
      const report = await checkConnection({ apiBase: global.apiBase, token: global.token });
      output.result(report, describeConnection(report).join('\n'));
      if (!report.token.accepted) process.exitCode = 1;
    });
}
