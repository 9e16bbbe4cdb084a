// Builds the desktop shell for Electron (Node, run by `npm start` and `npm run dist`): the main
// process and the preload bundled by Vite into out/main, next to the built renderer and the
// icons, which is the whole of what electron-builder packages (see electron-builder.yml).
//   out/main/index.js     the main process (ESM; packages stay external, in node_modules)
//   out/main/preload.cjs  the preload (one CommonJS file: a sandboxed preload cannot import)
//   out/renderer/         dist/renderer, built by `npm run build`
//   out/icons/            window and tray icons from build/
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const ICONS = ['icon.png', 'tray.png', 'trayTemplate.png', 'trayTemplate@2x.png'];

export interface ShellBuild {
  main: string;
  preload: string;
}

/** Bundles into `<root>/out`; the renderer must have been built into dist/renderer first. */
export async function buildShell(root = process.cwd()): Promise<ShellBuild> {
  const out = join(root, 'out');
  const renderer = join(root, 'dist', 'renderer');
  if (!existsSync(join(renderer, 'index.html')))
    throw new Error(`${renderer} is missing: run \`npm run build\` first`);
  const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
  const bundle = (entry: string, fileName: string, format: 'es' | 'cjs', emptyOutDir: boolean) =>
    build({
      configFile: false,
      root,
      logLevel: 'warn',
      // Packages are loaded from node_modules at run time, except in the preload (noExternal).
      ssr: format === 'cjs' ? { noExternal: true } : {},
      build: {
        ssr: resolve(root, entry),
        outDir: join(out, 'main'),
        emptyOutDir,
        target: 'node20',
        minify: false,
        sourcemap: true,
        rollupOptions: {
          external: ['electron', ...nodeBuiltins],
          output: { format, entryFileNames: fileName },
        },
      },
    });
  await bundle('main/app/main.ts', 'index.js', 'es', true);
  await bundle('main/app/preload.ts', 'preload.cjs', 'cjs', false);
  cpSync(renderer, join(out, 'renderer'), { recursive: true });
  mkdirSync(join(out, 'icons'), { recursive: true });
  for (const icon of ICONS) cpSync(join(root, 'build', icon), join(out, 'icons', icon));
  return { main: join(out, 'main', 'index.js'), preload: join(out, 'main', 'preload.cjs') };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const built = await buildShell();
  console.log(`Built the desktop shell: ${built.main}`);
}
