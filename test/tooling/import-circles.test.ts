// No import circle in main/, shared/ or renderer/src/ (issue #18). Every import counts, `import
// type` too: a circle of types still ties the modules' changes together, and both circles #18
// names run through one. ESLint's import-x/no-cycle skips type-only imports, so this is a test.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The folders whose TypeScript modules may not import each other in a circle. */
const ROOTS = ['main', 'shared', 'renderer/src'];

/** Imports that are no module of ours: components and assets, which the bundler reads. */
const NOT_MODULES = /\.(svelte|css|json|svg|png)$/;

type Graph = ReadonlyMap<string, readonly string[]>;

/** A path from the project's folder, with forward slashes on every system. */
const fromProject = (path: string) => relative(resolve('.'), path).replaceAll('\\', '/');

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /(?<!\.d)\.ts$/.test(entry.name))
    .map((entry) => fromProject(join(entry.parentPath, entry.name)));
}

/** The module names a source imports or re-exports, `import type` and `import()` included. */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/** Each file's imports of files in the graph, resolved as the compiler resolves them. */
function importGraph(files: string[]): Graph {
  const config = ts.readConfigFile('tsconfig.json', (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, resolve('.'));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const targets = importsOf(readFileSync(file, 'utf8')).flatMap((name) => {
        const resolved = ts.resolveModuleName(name, resolve(file), options, ts.sys).resolvedModule
          ?.resolvedFileName;
        const target = resolved === undefined ? undefined : fromProject(resolved);
        if (target !== undefined) return known.has(target) ? [target] : [];
        // An import nothing resolves would be an edge left out without a word.
        if (name.startsWith('.') && !NOT_MODULES.test(name))
          throw new Error(`${file} imports ${name}, which does not resolve`);
        return [];
      });
      return [file, targets];
    }),
  );
}

/** A group of files that import each other, and one path around it that names it. */
interface Circle {
  files: string[];
  path: string[];
}

/** Every circle, one per group of files that import each other. */
function circles(graph: Graph): Circle[] {
  // Tarjan's strongly connected components: each with more than one file holds a circle.
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file)!, order.get(target)!));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return groups.map((files) => ({ files, path: pathAround(graph, files) }));
}

/** The shortest path from the group's first file back to it, through the group. */
function pathAround(graph: Graph, group: string[]): string[] {
  const start = group[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (!cameFrom.has(start)) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!group.includes(target) || cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      queue.push(target);
    }
  }
  const back: string[] = [];
  for (let file = cameFrom.get(start)!; file !== start; file = cameFrom.get(file)!) back.push(file);
  return [start, ...back.reverse()];
}

function describeCircle({ files, path }: Circle): string {
  const others = files.filter((file) => !path.includes(file));
  return [...path, path[0]].join(' → ') + (others.length > 0 ? ` (with ${others.join(', ')})` : '');
}

describe('import circles', () => {
  it('counts every kind of import: type-only, re-exports and dynamic ones', () => {
    const source = [
      "import type { A } from './a';",
      "export * from './b';",
      "export type { C } from './c';",
      "const d = await import('./d');",
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a', './b', './c', './d']);
  });

  it('finds each circle once and names it as a path', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(circles(graph).map(describeCircle)).toEqual([
      'a.ts → b.ts → c.ts → a.ts',
      'e.ts → e.ts',
    ]);
  });

  const found = circles(importGraph(ROOTS.flatMap(typeScriptFiles)));

  it('finds none in main/, shared/ or renderer/src/', () => {
    expect(found.map(describeCircle)).toEqual([]);
  });
});
