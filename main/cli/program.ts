// The CLI's command tree (Node, CLI). Each command lives in commands/ and registers itself here.
import { Command } from 'commander';
// Bundled in at build time, so the version printed is the one this code was built as.
import packageJson from '../../package.json' with { type: 'json' };
import { registerCheck } from './commands/check';
import { registerExport, registerImport } from './commands/import';
import { registerPlatform } from './commands/platform';
import { registerPosts } from './commands/posts';
import { registerQueue } from './commands/queue';
import { registerMedia } from './commands/media';
import { registerSchedule } from './commands/schedule';
import { registerServe } from './commands/serve';
import { registerTeam } from './commands/team';
import { addGlobalOptions } from './options';

export function buildProgram(): Command {
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
  registerPlatform(program);
  registerPosts(program);
  registerQueue(program);
  registerSchedule(program);
  registerMedia(program);
  registerImport(program);
  registerExport(program);
  registerServe(program);
  registerCheck(program);
  registerTeam(program);
  return program;
}
