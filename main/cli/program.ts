// The CLI's command tree (Node, CLI). Each command lives in commands/ and registers itself here.
// A run loads only the modules of the commands its arguments name (all of them for help or a
// word that names none): the others pull in the whole core, and `serve` must print its URL
// before the core has loaded (issue #32: the commands bundle took 0.7 s to load).
import { Command } from 'commander';
// Bundled in at build time, so the version printed is the one this code was built as.
import packageJson from '../../package.json' with { type: 'json' };
import { addGlobalOptions } from './options';

type Register = (program: Command) => void;

/** Per top-level command, in the order help lists them: how to load what registers it. */
const COMMANDS: [name: string, load: () => Promise<Register>][] = [
  ['platform', async () => (await import('./commands/platform')).registerPlatform],
  ['posts', async () => (await import('./commands/posts')).registerPosts],
  ['publish', async () => (await import('./commands/queue')).registerQueue],
  ['schedule', async () => (await import('./commands/schedule')).registerSchedule],
  ['media', async () => (await import('./commands/media')).registerMedia],
  ['import', async () => (await import('./commands/import')).registerImport],
  ['export', async () => (await import('./commands/import')).registerExport],
  ['serve', async () => (await import('./commands/serve')).registerServe],
  ['check', async () => (await import('./commands/check')).registerCheck],
  ['team', async () => (await import('./commands/team')).registerTeam],
];
/** Commands registered by another command's module (queue.ts registers these beside publish). */
const REGISTERED_WITH: Record<string, string> = {
  sync: 'publish',
  status: 'publish',
  queue: 'publish',
};

/**
 * The commands `args` may run: every word that names one (a global option's value may look like
 * one; loading an extra command is harmless), or all when none is named.
 */
function commandsFor(args: readonly string[]): typeof COMMANDS {
  const named = new Set(args.map((word) => REGISTERED_WITH[word] ?? word));
  const chosen = COMMANDS.filter(([name]) => named.has(name));
  return chosen.length > 0 ? chosen : COMMANDS;
}

export async function buildProgram(args: readonly string[]): Promise<Command> {
  const program = addGlobalOptions(
    new Command('pressroom')
      .description(
        'Pressroom: draft, import, schedule and publish posts and products to the platform.',
      )
      .version(packageJson.version, '-V, --version', "print Pressroom's version")
      .showHelpAfterError('(add --help for usage)')
      // Errors reach index.ts instead of exiting, so exit codes are decided in one place.
      .exitOverride(),
  );
  const registers = await Promise.all(commandsFor(args).map(([, load]) => load()));
  for (const register of registers) register(program);
  return program;
}
