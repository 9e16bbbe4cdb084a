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
import { fileStamp } from './builds.mjs';

const ICONS = ['icon.png', 'tray.png', 'trayTemplate.png', 'trayTemplate@2x.png'];

export interface ShellBuild {
  main: string;
  preload: string;
}

/** The commands' entry points; main/app/launch.mjs runs them by these names. */
export const COMMAND_ENTRIES = { cli: 'main/cli/index.ts', start: 'main/app/start.ts' };

/**
 * What launch.mjs reads: the build to run, per source file the SHA-256 it was built from, and the
 * stamps of those a launch may compare instead (builds.mjs).
 */
export interface CommandsManifest {
  build: string;
  sources: Record<string, string>;
  stamps: Record<string, string>;
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
 * The coarsest step of a file system's clock (FAT's two seconds): a file whose times are within
 * it of the build's start could be rewritten in the same step, size and all, so its stamp could
 * not tell; it is hashed at every launch instead.
 */
const CLOCK_STEP_MS = 2000;

/** Now by the clock of the file system `folder` is on, which stamps the sources, not this one's. */
function fileSystemNow(folder: string): number {
  mkdirSync(folder, { recursive: true });
  const probe = join(folder, `.clock-${randomBytes(6).toString('hex')}`);
  writeFileSync(probe, '');
  try {
    return statSync(probe).mtimeMs;
  } finally {
    rmSync(probe, { force: true });
  }
}

/**
 * What a build records of every source it read: the SHA-256 of the bytes it used and, where it
 * can be trusted, the file's stamp (builds.mjs), which a launch compares instead of hashing.
 */
class SourceRecord {
  private readonly hashes: Record<string, string> = {};
  private readonly fileStamps: Record<string, string> = {};
  private readonly startedAt: number;

  constructor(
    private readonly root: string,
    /** A folder on the sources' file system the build may write a probe into. */
    clockFolder: string,
  ) {
    this.startedAt = fileSystemNow(clockFolder);
  }

  /**
   * The file's bytes, recorded. Its stamp is taken before it is read: an edit in between leaves
   * an older stamp than the file's, so the next launch hashes it and finds what was built.
   */
  read(file: string): Buffer {
    const path = join(this.root, file);
    const stat = statSync(path);
    const content = readFileSync(path);
    this.hashes[file] = sha256(content);
    if (Math.max(stat.mtimeMs, stat.ctimeMs) < this.startedAt - CLOCK_STEP_MS)
      this.fileStamps[file] = fileStamp(stat);
    return content;
  }

  get sources(): Record<string, string> {
    return sortedByName(this.hashes);
  }

  get stamps(): Record<string, string> {
    return sortedByName(this.fileStamps);
  }

  /**
   * A Vite plugin that loads the project's own files through `read`: a file edited during the
   * build is then recorded as it was read, and the next launch sees the change.
   */
  plugin(): Plugin {
    return {
      name: 'pressroom:record-sources',
      enforce: 'pre',
      load: (id) => {
        if (
          id.includes('\0') ||
          id.includes('?') ||
          !id.startsWith(this.root + sep) ||
          id.includes(`${sep}node_modules${sep}`)
        )
          return null;
        return this.read(relative(this.root, id).split(sep).join('/')).toString('utf8');
      },
    };
  }
}

function sortedByName(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
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

/**
 * What the renderer's manifest holds: per source file, the SHA-256 it was built from, and the
 * stamps of those a launch may compare instead (builds.mjs).
 */
export interface RendererManifest {
  sources: Record<string, string>;
  stamps: Record<string, string>;
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
  const record = new SourceRecord(root, join(root, 'dist'));
  // Read by Vite outside its module graph (the config, the page, public files), or deciding
  // how the sources are compiled (the build tools' versions).
  for (const file of [
    'main/app/build.ts',
    // It writes the compressed copies.
    'main/host/static-files.ts',
    'renderer/vite.config.ts',
    'renderer/index.html',
    ...filesUnder(root, 'renderer/public'),
    ...['vite', 'svelte', '@sveltejs/vite-plugin-svelte'].map(
      (name) => `node_modules/${name}/package.json`,
    ),
  ])
    record.read(file);
  rmSync(join(root, RENDERER_MANIFEST), { force: true });
  await build({
    configFile: join(root, 'renderer/vite.config.ts'),
    logLevel: 'warn',
    plugins: [record.plugin()],
  });
  precompress(join(root, 'dist/renderer'));
  const manifest: RendererManifest = { sources: record.sources, stamps: record.stamps };
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
  const record = new SourceRecord(root, out);
  // This file decides what a build contains, and an upgrade of a package bundled in changes it,
  // so they are sources of every build too.
  for (const file of [
    'main/app/build.ts',
    ...INLINED_PACKAGES.map((name) => `node_modules/${name}/package.json`),
  ])
    record.read(file);
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
      plugins: [record.plugin()],
      logLevel: 'error',
    });
    const sources = record.sources;
    // Named by its sources' contents alone: the same sources make the same build.
    const manifest: CommandsManifest = {
      build: sha256(Buffer.from(JSON.stringify(sources))).slice(0, 16),
      sources,
      stamps: record.stamps,
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
