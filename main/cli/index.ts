// Entry point of the CLI (Node): `npm run -s cli -- <command> [options]`.
import { CommanderError } from 'commander';
import { describeFailure } from './output';
import { buildProgram } from './program';

try {
  const program = await buildProgram(process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed help, the version or a usage error already.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    const failure = describeFailure(error);
    process.stderr.write(`pressroom: ${failure.message}\n`);
    process.exitCode = failure.exitCode;
  }
}
