// Runs a command from its bundle (Node): `node main/app/launch.mjs cli|start [arguments]`, which
// is what `npm run cli` and `npm start` do. Plain JavaScript, so it starts without tsx. It runs
// the current build in out/node when every source that build was made from is unchanged, byte
// for byte; otherwise it builds first (main/app/build.ts, loaded through tsx), so it never runs
// old code.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const [entry, ...args] = process.argv.slice(2);
if (entry !== 'cli' && entry !== 'start') {
  process.stderr.write('usage: node main/app/launch.mjs cli|start [arguments]\n');
  process.exit(2);
}

/**
 * The current build's manifest when each of its sources still hashes as recorded, else null (no
 * build yet, a source changed or is gone, or anything unreadable).
 */
function currentBuild() {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'out/node/manifest.json'), 'utf8'));
    const unchanged = Object.entries(manifest.sources).every(
      ([file, hash]) =>
        createHash('sha256')
          .update(readFileSync(join(root, file)))
          .digest('hex') === hash,
    );
    return unchanged && existsSync(join(root, 'out/node', manifest.build, `${entry}.js`))
      ? manifest
      : null;
  } catch {
    return null;
  }
}

let manifest = currentBuild();
if (!manifest) {
  // A person at a terminal is told why the start pauses; piped output stays the command's own
  // (its first stdout line and its one-line errors are a contract scripts and tests read).
  if (process.stderr.isTTY)
    process.stderr.write(
      'Building Pressroom first (after an install or an edit; a second or two)…\n',
    );
  const { tsImport } = await import('tsx/esm/api');
  const { buildCommands } = await tsImport('./build.ts', import.meta.url);
  manifest = await buildCommands(root);
}
// The command reads its arguments as if it had been started directly.
process.argv = [process.argv[0], process.argv[1], ...args];
await import(pathToFileURL(join(root, 'out/node', manifest.build, `${entry}.js`)).href);
