// The rooms' import allow-list as an ESLint rule (after VS Code's code-layering): every file of
// main/, shared/ and renderer/src/ is in a room, and a room names what it MAY import, so an edge
// nobody listed fails lint until someone decides it belongs (eslint.config.js holds the rooms).
import { dirname, relative, resolve } from 'node:path';

/**
 * A glob over a project path (no extension needed): `*` within a folder, `**` across folders,
 * and `dir/**` matches the folder itself too (its index).
 */
function globToRegExp(glob) {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\/\*\*$/, '(?:/.*)?')
    .replace(/\*\*/g, '.*')
    .replace(/(?<!\.)\*/g, '[^/]*');
  return new RegExp(`^${body}$`);
}

const matcher = (globs) => {
  const patterns = globs.map(globToRegExp);
  return (path) => patterns.some((pattern) => pattern.test(path));
};

/** A module as the project names it: `main/store/outbox` (no extension), or the package's name. */
function targetOf(specifier, fromFile, root) {
  if (!specifier.startsWith('.')) {
    const parts = specifier.split('/');
    return { package: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
  }
  const path = relative(root, resolve(dirname(fromFile), specifier)).replaceAll('\\', '/');
  return { path: path.replace(/\.(ts|js|mjs)$/, '') };
}

/** Prepares the rooms once: each with its file matcher and its allowances. */
export function compileRooms(rooms) {
  return rooms.map((room) => ({
    ...room,
    owns: matcher(room.files),
    ignored: matcher(room.except ?? []),
    allows: matcher(room.may ?? []),
    allowsTypes: matcher(room.typesOnly ?? []),
    allowsPackage: matcher(room.packages ?? []),
  }));
}

const isTypeOnly = (node) =>
  node.importKind === 'type' ||
  node.exportKind === 'type' ||
  (node.specifiers?.length > 0 &&
    node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

/** The rule, over `rooms` (first room whose files match a file is its room). */
export function roomsRule(rooms, roots) {
  const compiled = compileRooms(rooms);
  const inRoots = matcher(roots);
  return {
    meta: {
      type: 'problem',
      schema: [],
      docs: { description: 'Each room imports only what its allow-list names.' },
    },
    create(context) {
      const root = context.cwd;
      const file = relative(root, context.filename).replaceAll('\\', '/');
      if (!inRoots(file)) return {};
      const room = compiled.find((r) => r.owns(file) && !r.ignored(file));
      const check = (node, source) => {
        if (typeof source?.value !== 'string') return;
        if (!room) {
          context.report({
            node: source,
            message: `Import boundary: ${file} is in no room; add it to a room's files in eslint.config.js (docs/architecture.md, "Rooms").`,
          });
          return;
        }
        const target = targetOf(source.value, context.filename, root);
        const allowed = target.package
          ? room.allowsPackage(target.package)
          : room.allows(target.path) || (isTypeOnly(node) && room.allowsTypes(target.path));
        if (allowed) return;
        const what = target.package ?? target.path;
        const typesNote =
          target.path && room.allowsTypes(target.path) ? ' (only as a type: `import type`)' : '';
        context.report({
          node: source,
          message: `Import boundary: ${room.name} may not import ${what}${typesNote}. ${room.why} A new edge is added to the room's allow-list in eslint.config.js once decided.`,
        });
      };
      return {
        ImportDeclaration: (node) => check(node, node.source),
        ExportNamedDeclaration: (node) => node.source && check(node, node.source),
        ExportAllDeclaration: (node) => check(node, node.source),
        ImportExpression: (node) => check(node, node.source),
      };
    },
  };
}
