// The CLI loads only the commands it runs (issue #32): `serve` prints its URL before the core's
// code has loaded (it took 0.7 s, all of it before the URL), and help still lists every command.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

/** The chunks `file` imports statically (an `import(…)` is left for later and not followed). */
function staticImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  return [...code.matchAll(/^import\b[^;]*?from\s*"(\.[^"]+)";?$|^import\s*"(\.[^"]+)";?$/gm)].map(
    (match) => join(dirname(file), (match[1] ?? match[2])!),
  );
}

/** Every source file whose code runs as soon as `entry` is loaded, from the chunks' source maps. */
function sourcesLoadedWith(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const sources = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // The bundler's own runtime chunk has no source map: it holds no source of ours.
    if (existsSync(`${file}.map`)) {
      const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
      for (const source of map.sources) sources.add(source.replace(/^(\.\.\/)+/, ''));
    }
    for (const imported of staticImports(file)) visit(imported);
  };
  for (const entry of entries) visit(entry);
  return sources;
}

describe('the commands bundle', () => {
  it("loads serve's path without the core, and the core once the URL is out", async () => {
    // Brings the build up to date (launch.mjs), then reads it.
    expect((await runCli(['--version'])).code).toBe(0);
    const { build } = JSON.parse(readFileSync('out/node/manifest.json', 'utf8')) as {
      build: string;
    };
    const cli = join('out/node', build, 'cli.js');
    const serveChunk = join(
      'out/node',
      build,
      /import\("(\.\/chunks\/serve-[^"]+\.js)"\)/.exec(readFileSync(cli, 'utf8'))![1]!,
    );
    const beforeUrl = sourcesLoadedWith([cli, serveChunk]);
    expect(beforeUrl).toContain('main/cli/commands/serve.ts');
    expect(beforeUrl).toContain('main/host/web.ts');
    for (const later of [
      'main/core/workspace.ts',
      'main/core/operations.ts',
      'main/host/user-session.ts',
      'shared/contract.ts',
      'main/cli/commands/posts.ts',
    ])
      expect(beforeUrl, later).not.toContain(later);
    // zod (~15-50 ms of a cold start) loads only when a global option is given to check.
    expect([...beforeUrl].filter((source) => source.includes('node_modules/zod/'))).toEqual([]);
    expect(beforeUrl).not.toContain('shared/validation.ts');
  });

  it('lists every command in help, and runs a command registered beside another', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['platform', 'posts', 'publish', 'sync', 'status', 'queue', 'schedule'])
      expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    for (const command of ['media', 'import', 'export', 'serve', 'check', 'team'])
      expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    // `status` lives in queue.ts beside `publish`.
    const status = await runCli(['status', '--help']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Usage: pressroom status');
    const unknown = await runCli(['publsh']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('publish');
  });
});
