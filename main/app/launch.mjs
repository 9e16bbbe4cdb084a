// Runs a command from its bundle (Node): `node main/app/launch.mjs cli|start [arguments]`, which
// is what `npm run cli` and `npm start` do, and `launch.mjs build` (`npm run build`), which only
// brings the interface up to date. Plain JavaScript, so it starts without tsx. It runs the current
// build in out/node when every source that build was made from is unchanged, byte for byte;
// otherwise it builds first (main/app/build.ts, through tsx in a child process), so it never runs
// old code.
// `start` serves the interface, so it brings dist/renderer up to date by the same rule (`serve`
// does so itself, builds.mjs).
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { currentBuild, ensureInterface, runBuilder } from './builds.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [entry, ...args] = process.argv.slice(2);
if (entry !== 'cli' && entry !== 'start' && entry !== 'build') {
  process.stderr.write('usage: node main/app/launch.mjs cli|start|build [arguments]\n');
  process.exit(2);
}

// A person at a terminal is told why the start pauses; piped output stays the command's own
// (its first stdout line and its one-line errors are a contract scripts and tests read).
function sayBuilding(what) {
  if (process.stderr.isTTY || entry === 'build')
    process.stderr.write(`Building ${what} (after an install or an edit)…\n`);
}

if (entry === 'build') {
  if (!(await ensureInterface(root, { onBuild: () => sayBuilding("Pressroom's interface") })))
    process.stderr.write("Pressroom's interface is up to date (dist/renderer).\n");
  process.exit(0);
}

let manifest = currentBuild(
  root,
  'out/node/manifest.json',
  (current) => `out/node/${current.build}/${entry}.js`,
);
if (!manifest) {
  sayBuilding("Pressroom's commands");
  manifest = await runBuilder(root, 'buildCommands');
}
if (entry === 'start')
  await ensureInterface(root, { onBuild: () => sayBuilding("Pressroom's interface") });
// V8 keeps the bundle's compiled code for the next start (Node 22.1 on; absent on Node 20).
module.enableCompileCache?.();
// The command reads its arguments as if it had been started directly.
process.argv = [process.argv[0], process.argv[1], ...args];
await import(pathToFileURL(join(root, 'out/node', manifest.build, `${entry}.js`)).href);
