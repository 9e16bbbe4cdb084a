// Bundles the Node side with Vite (Node). Two builds share one bundler set-up:
//  - the desktop shell (run by `npm start` with Electron and by `npm run dist`), which is the whole
//    of what electron-builder packages (see electron-builder.yml):
//      out/main/index.js     the main process (ESM; packages stay external, in node_modules)
//      out/main/preload.cjs  the preload (one CommonJS file: a sandboxed preload cannot import)
//      out/renderer/         dist/renderer, built by `npm run build`
//      out/icons/            window and tray icons from build/
//  - the commands (`npm start` in the browser, `npm run cli`), which main/app/launch.mjs runs:
//      out/node/<build>/cli.js, start.js  one build per set of sources, never changed once written
//      out/node/manifest.json             the current build, with a hash of each of its sources
//    Node loads one bundle much faster than it loads a hundred TypeScript files through tsx, and a
//    build records the exact sources it read, so the launcher can tell when it is stale.
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import type { Plugin } from 'vite';
import { precompress } from '../host/static-files';

const ICONS = ['icon.png', 'tray.png', 'trayTemplate.png', 'trayTemplate@2x.png'];

export interface ShellBuild {
  main: string;
  preload: string;
}

/** The commands' entry points; main/app/launch.mjs runs them by these names. */
export const COMMAND_ENTRIES = { cli: 'main/cli/index.ts', start: 'main/app/start.ts' };

/** What launch.mjs reads: the build to run and, per source file, the SHA-256 it was built from. */
export interface CommandsManifest {
  build: string;
  sources: Record<string, string>;
}

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** One Vite build of Node code; packages are loaded from node_modules at run time unless inlined. */
function bundle(options: {
  root: string;
  input: string | Record<string, string>;
  outDir: string;
  format: 'es' | 'cjs';
  fileNames: string;
  emptyOutDir: boolean;
  /** Packages bundled in (true: all of them) instead of loaded from node_modules. */
  inline?: true | string[];
  plugins?: Plugin[];
  /** The commands build quietly: what they print is a contract (see launch.mjs). */
  logLevel?: 'warn' | 'error';
}) {
  return build({
    configFile: false,
    root: options.root,
    logLevel: options.logLevel ?? 'warn',
    plugins: options.plugins ?? [],
    ssr: options.inline ? { noExternal: options.inline } : {},
    build: {
      ssr: true,
      outDir: options.outDir,
      emptyOutDir: options.emptyOutDir,
      target: 'node20',
      minify: false,
      sourcemap: true,
      rollupOptions: {
        input: options.input,
        external: ['electron', ...nodeBuiltins],
        // See renderer/vite.config.ts: a note about a busy machine, not the sources.
        checks: { bundlerTimings: false },
        output: {
          format: options.format,
          entryFileNames: options.fileNames,
          chunkFileNames: 'chunks/[name]-[hash].js',
        },
      },
    },
  });
}

/** Bundles into `<root>/out`; the renderer must have been built into dist/renderer first. */
export async function buildShell(root = process.cwd()): Promise<ShellBuild> {
  const out = join(root, 'out');
  const renderer = join(root, 'dist', 'renderer');
  if (!existsSync(join(renderer, 'index.html')))
    throw new Error(`${renderer} is missing: run \`npm run build\` first`);
  const outDir = join(out, 'main');
  await bundle({
    root,
    input: resolve(root, 'main/app/main.ts'),
    outDir,
    format: 'es',
    fileNames: 'index.js',
    emptyOutDir: true,
  });
  await bundle({
    root,
    input: resolve(root, 'main/app/preload.ts'),
    outDir,
    format: 'cjs',
    fileNames: 'preload.cjs',
    emptyOutDir: false,
    inline: true,
  });
  // The web host's compressed copies (static-files.ts) are of no use behind app://.
  cpSync(renderer, join(out, 'renderer'), {
    recursive: true,
    filter: (source) => !/\.(br|gz)$/.test(source),
  });
  mkdirSync(join(out, 'icons'), { recursive: true });
  for (const icon of ICONS) cpSync(join(root, 'build', icon), join(out, 'icons', icon));
  return { main: join(out, 'main', 'index.js'), preload: join(out, 'main', 'preload.cjs') };
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Loads the project's own files itself, noting the hash of exactly the bytes it hands on: a file
 * edited during the build is then recorded as it was read, and the next launch sees the change.
 */
function recordSources(root: string, sources: Record<string, string>): Plugin {
  return {
    name: 'pressroom:record-sources',
    enforce: 'pre',
    load(id) {
      if (
        id.includes('\0') ||
        id.includes('?') ||
        !id.startsWith(root + sep) ||
        id.includes(`${sep}node_modules${sep}`)
      )
        return null;
      const content = readFileSync(id);
      sources[relative(root, id).split(sep).join('/')] = sha256(content);
      return content.toString('utf8');
    },
  };
}

/**
 * Packages the commands bundle in: Node then reads one file instead of each of their modules (zod
 * alone is over a hundred), and unused parts such as zod's locales are left out. Not
 * better-sqlite3 (a native addon), node-cron (it finds a file of its own next to its code) nor
 * Vite (start.ts loads it only to build the Electron shell).
 */
const INLINED_PACKAGES = ['zod', 'temporal-polyfill', 'commander', 'papaparse', 'iconv-lite'];

/** Where the renderer's build records its sources; launch.mjs and builds.mjs read it. */
export const RENDERER_MANIFEST = 'dist/renderer.json';

/** What the renderer's manifest holds: per source file, the SHA-256 it was built from. */
export interface RendererManifest {
  sources: Record<string, string>;
}

function hashFiles(root: string, files: string[], into: Record<string, string>): void {
  for (const file of files) into[file] = sha256(readFileSync(join(root, file)));
}

function filesUnder(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * Builds the renderer into dist/renderer and records every source it read, so the next start can
 * tell whether it is current. Quiet: Vite's warnings and errors show, its list of chunks does not.
 * The caller (builds.mjs) keeps two builds from running at once.
 */
export async function buildRenderer(projectRoot = process.cwd()): Promise<RendererManifest> {
  const root = resolve(projectRoot);
  const sources: Record<string, string> = {};
  // Read by Vite outside its module graph (the config, the page, public files), or deciding
  // how the sources are compiled (the build tools' versions).
  hashFiles(
    root,
    [
      'main/app/build.ts',
      // It writes the compressed copies.
      'main/host/static-files.ts',
      'renderer/vite.config.ts',
      'renderer/index.html',
      ...filesUnder(root, 'renderer/public'),
      ...['vite', 'svelte', '@sveltejs/vite-plugin-svelte'].map(
        (name) => `node_modules/${name}/package.json`,
      ),
    ],
    sources,
  );
  rmSync(join(root, RENDERER_MANIFEST), { force: true });
  await build({
    configFile: join(root, 'renderer/vite.config.ts'),
    logLevel: 'warn',
    plugins: [recordSources(root, sources)],
  });
  precompress(join(root, 'dist/renderer'));
  const manifest: RendererManifest = {
    sources: Object.fromEntries(Object.entries(sources).sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(join(root, RENDERER_MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** Builds kept besides the current one, for commands still running from them. */
const KEPT_BUILDS = 3;

/**
 * Bundles the commands into a new `<root>/out/node/<build>` and makes it the current one. Builds
 * running side by side (test workers after an edit) each write their own folder and swap the
 * manifest in one rename, so no command ever loads a half-written build.
 */
export async function buildCommands(projectRoot = process.cwd()): Promise<CommandsManifest> {
  const root = resolve(projectRoot);
  const out = join(root, 'out', 'node');
  const building = join(out, `.building-${randomBytes(6).toString('hex')}`);
  // This file decides what a build contains, and an upgrade of a package bundled in changes it,
  // so they are sources of every build too.
  const sources: Record<string, string> = {};
  for (const file of [
    'main/app/build.ts',
    ...INLINED_PACKAGES.map((name) => `node_modules/${name}/package.json`),
  ])
    sources[file] = sha256(readFileSync(join(root, file)));
  try {
    await bundle({
      root,
      input: Object.fromEntries(
        Object.entries(COMMAND_ENTRIES).map(([name, path]) => [name, resolve(root, path)]),
      ),
      outDir: building,
      format: 'es',
      fileNames: '[name].js',
      emptyOutDir: true,
      inline: INLINED_PACKAGES,
      plugins: [recordSources(root, sources)],
      logLevel: 'error',
    });
    const sorted = Object.fromEntries(
      Object.entries(sources).sort(([a], [b]) => a.localeCompare(b)),
    );
    const manifest: CommandsManifest = {
      build: sha256(Buffer.from(JSON.stringify(sorted))).slice(0, 16),
      sources: sorted,
    };
    const target = join(out, manifest.build);
    try {
      renameSync(building, target);
    } catch (error) {
      // Another process wrote the same build first; its copy is as good as ours.
      if (!existsSync(join(target, 'cli.js'))) throw error;
    }
    const next = join(out, `manifest-${randomBytes(6).toString('hex')}.json`);
    writeFileSync(next, JSON.stringify(manifest, null, 2));
    renameSync(next, join(out, 'manifest.json'));
    pruneBuilds(out, manifest.build);
    return manifest;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Removes all but the newest few builds (and any build left half-done over an hour ago). Another
 * launcher may be pruning at the same moment, so a folder may vanish between listing and removal.
 */
function pruneBuilds(out: string, current: string): void {
  const hourAgo = Date.now() - 3_600_000;
  const builds = readdirSync(out, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current)
    .flatMap((entry) => {
      const stat = statSync(join(out, entry.name), { throwIfNoEntry: false });
      if (!stat) return [];
      const unfinished = entry.name.startsWith('.building-');
      return [{ path: join(out, entry.name), unfinished, mtimeMs: stat.mtimeMs }];
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  const stale = [
    ...builds.filter((build) => !build.unfinished).slice(KEPT_BUILDS),
    ...builds.filter((build) => build.unfinished && build.mtimeMs < hourAgo),
  ];
  for (const build of stale) {
    try {
      rmSync(build.path, { recursive: true, force: true });
    } catch {
      // Still in use (Windows keeps a running command's files locked): a later build removes it.
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const built = await buildShell();
  console.log(`Built the desktop shell: ${built.main}`);
}
