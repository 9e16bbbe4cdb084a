// The CLI's global options (Node, CLI): each can come from the command line or the environment,
// and each is validated before a command uses it.
import { readFileSync } from 'node:fs';
import { Option } from 'commander';
import type { Command } from 'commander';
import { summarizeIssues } from '../../shared/issues';
import type { GlobalOptions } from './global-schema';
import { CliError } from './output';

export type { GlobalOptions } from './global-schema';

export function addGlobalOptions(program: Command): Command {
  return program
    .addOption(new Option('--db <file>', "Pressroom's workspace database file").env('PRESSROOM_DB'))
    .addOption(
      new Option('--api-base <url>', 'Platform API base URL, ending in /api/v1').env(
        'PRESSROOM_API_BASE',
      ),
    )
    .addOption(
      new Option(
        '--token <token>',
        'Platform API token; "-" reads it from stdin (a token typed here is visible to every user in ps)',
      ).env('PRESSROOM_API_TOKEN'),
    )
    .addOption(
      new Option(
        '--plan <plan>',
        "the account's plan: the most requests sent per window, whatever the platform's headers say",
      )
        .choices(['free', 'pro', 'enterprise'])
        .env('PRESSROOM_PLAN'),
    )
    .option('--json', 'print the result as JSON on stdout', false);
}

const optionNames: Record<string, string> = {
  db: '--db',
  apiBase: '--api-base',
  token: '--token',
  plan: '--plan',
  json: '--json',
};

/** The token `--token -` read from stdin: its first line, read once however often asked. */
let stdinToken: string | undefined;
let warnedOfToken = false;

/**
 * The token as given: from stdin for "-"; typed on the command line, it is used, with a warning
 * that every user of the computer can read a process's arguments (ps) and the shell's history.
 */
function tokenOf(command: Command, token: unknown): unknown {
  if (token === '-')
    return (stdinToken ??= readFileSync(0, 'utf8').split(/\r?\n/)[0]?.trim() ?? '');
  if (typeof token === 'string' && command.getOptionValueSourceWithGlobals('token') === 'cli') {
    if (!warnedOfToken)
      process.stderr.write(
        'Warning: --token on the command line is visible to every user of this computer (ps) and stays in your shell history; set PRESSROOM_API_TOKEN or pipe it to --token - instead.\n',
      );
    warnedOfToken = true;
  }
  return token;
}

export async function globalOptions(command: Command): Promise<GlobalOptions> {
  const options = command.optsWithGlobals();
  // An empty environment variable means "not set", as in most shells' habits.
  const given = Object.fromEntries(
    Object.entries({ ...options, token: tokenOf(command, options.token) }).filter(
      ([, value]) => value !== '' && value !== undefined,
    ),
  );
  // Only --json (commander's boolean) given: nothing to check, and zod need not load (#32).
  if (Object.keys(given).every((name) => name === 'json') && typeof given.json === 'boolean')
    return { json: given.json };
  const parsed = (await import('./global-schema')).parseGlobalOptions(given);
  if ('options' in parsed) return parsed.options;
  const issues = parsed.issues.map((issue) => ({
    ...issue,
    field: optionNames[issue.field] ?? issue.field,
  }));
  throw new CliError(summarizeIssues(issues), 2);
}

/** A whole number option within bounds, with a message naming the option. */
export function intOption(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max) {
      throw new CliError(`${name} must be a whole number from ${min} to ${max}, not "${value}"`, 2);
    }
    return number;
  };
}
