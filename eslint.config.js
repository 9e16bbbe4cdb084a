// Lint rules, including the import boundaries that keep dependencies pointing one way:
// renderer → shared ← main; inside main: app/host/cli → core → (csv, sync, queue) → (store,
// platform), the store → sqlite; and inside a room the layers docs/architecture.md names ("Rooms").
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'http', 'https', 'crypto', 'child_process'];

/**
 * One boundary: files matching `files` may not import anything matching `forbidden` (a glob, or a
 * RegExp over the import as written, case-sensitive), and may import what matches
 * `typesOnly.group` for its types only (`typesOnly.why` says why). A later block replaces an
 * earlier one's `no-restricted-imports` for the files both match, so a boundary inside a room
 * names the room's boundary as `within` and keeps its patterns too.
 */
function boundary(files, forbidden, why, { typesOnly = null, within = null } = {}) {
  const message = `Import boundary: ${why}`;
  const patterns = within ? [...within.rules['no-restricted-imports'][1].patterns] : [];
  const globs = forbidden.filter((pattern) => typeof pattern === 'string');
  if (globs.length) patterns.push({ group: globs, message });
  for (const pattern of forbidden.filter((p) => p instanceof RegExp))
    patterns.push({ regex: pattern.source, caseSensitive: true, message });
  if (typesOnly)
    patterns.push({
      group: typesOnly.group,
      allowTypeImports: true,
      message: `Import boundary: ${typesOnly.why}`,
    });
  return { files, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

const entryPoints = ['**/app/**', '**/cli/**', '**/host/**'];
/** The core's own plumbing, below its services: they are handed these, these know no service. */
const corePlumbing = [
  'main/core/errors.ts',
  'main/core/events.ts',
  'main/core/governed-client.ts',
  'main/core/input.ts',
  'main/core/publishing-lease.ts',
  'main/core/queue-rows.ts',
];
const coreServicesOnlyAsTypes = {
  group: ['**/core/services/**'],
  why: 'entry points reach a core service through the workspace (pressroom.posts) or the operation table, never build one.',
};

const renderer = boundary(
  ['renderer/src/**'],
  ['**/main/**', ...nodeBuiltins, 'better-sqlite3', 'electron'],
  'the renderer talks to the core only through the contract in shared/.',
);
const platform = boundary(
  ['main/platform/**'],
  [
    '**/core/**',
    '**/store',
    '**/store/**',
    '**/queue/**',
    '**/sync/**',
    '**/csv/**',
    '**/app/**',
    '**/cli/**',
    '**/host/**',
    '**/emulator/**',
    '**/sqlite/**',
  ],
  'the platform client depends on nothing else in main/.',
);
const emulatorWhy =
  'the reference server stands alone; it shares only main/platform/wire.ts (and the webhook signature) and main/sqlite/, so it never leans on the client it tests.';
const emulator = boundary(
  ['main/emulator/**'],
  [
    '**/core/**',
    '**/store/**',
    '**/queue/**',
    '**/sync/**',
    '**/csv/**',
    '**/app/**',
    '**/cli/**',
    '**/host/**',
    '**/platform/**',
    '!**/platform/wire',
    '!**/platform/webhook-signature',
    // Folder indexes the globs above do not match (a glob on the folder would keep wire.ts out):
    // the client's, and the workspace store's from a subfolder (from the top, below).
    /\/platform$/,
    /^\.\.\/\.\.\/store$/,
  ],
  emulatorWhy,
);
const belowCore = boundary(
  ['main/store/**', 'main/queue/**', 'main/sync/**', 'main/csv/**'],
  ['**/core/**', '**/app/**', '**/cli/**', '**/host/**', '**/emulator/**'],
  'store, queue, sync and csv sit below the core.',
);
const core = boundary(['main/core/**'], entryPoints, 'the core sits below app, host and CLI.');
const teamServer = boundary(
  ['main/team/**'],
  [
    '**/core/**',
    '**/store',
    '**/store/**',
    '**/queue/**',
    '**/sync/**',
    '**/csv/**',
    '**/app/**',
    '**/cli/**',
    '**/host/**',
    '**/emulator/**',
    '**/platform/**',
    /\/platform$/,
    '**/team-client/**',
  ],
  'the team server stands alone: it shares only shared/team*.ts with the desktops and main/sqlite/ for its file, so it runs headless on a machine with no workspace.',
);
const teamClient = boundary(
  ['main/team-client/**'],
  [...entryPoints, '**/core/**', '**/sync/**', '**/csv/**', '**/emulator/**', '**/team/**'],
  "a desktop's team side sits below the core, beside queue and sync: it reaches the workspace through the store, answers the publisher's gate (queue/publish-gate.ts), and reaches the server only over the wire (shared/team.ts).",
);

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', 'release', 'test-results', '.svelte-kit'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    files: ['renderer/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // In a test a wrong guess about an element fails the test at once; `!` keeps tests short.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  boundary(
    ['shared/**'],
    ['**/main/**', '**/renderer/**', ...nodeBuiltins, 'better-sqlite3'],
    'shared/ is pure and runs in every process; it imports nothing from main/ or renderer/ and no Node built-ins.',
  ),
  renderer,
  boundary(
    ['renderer/src/lib/**'],
    ['**/components/**', '**/screens/**', '**/App.svelte'],
    'lib/ (the contract client, transports, file reading) sits below state and components; it is handed the state, never reaches into it.',
    {
      within: renderer,
      typesOnly: {
        group: ['**/state/**'],
        why: 'lib/ may name a state class as a type (the context hands out the Shell), never import its code.',
      },
    },
  ),
  boundary(
    ['renderer/src/state/**'],
    // Screens, the App and components; what both use (format, coalesce) is in lib/.
    [/^(\.\.\/)+(screens\/|App\.svelte$|components\/)/],
    'state sits below components and screens: a component reads its state, state never imports a component.',
    { within: renderer },
  ),
  platform,
  {
    ...boundary(
      ['main/platform/normalize/**'],
      [/^\.\/(?!fields$)/, /^\.\.\/(?!wire$)[^.]/],
      "normalize/ reads answers below the client: a resource's reader uses only fields.ts and ../wire, never another resource's reader or the client.",
      { within: platform },
    ),
    // The index gathers every reader's types for the rest of main/.
    ignores: ['main/platform/normalize/index.ts'],
  },
  emulator,
  // In a subfolder ../store is the room's own store, so only the top's files are told so.
  boundary(['main/emulator/*.ts'], [/^\.\.\/store$/], emulatorWhy, { within: emulator }),
  boundary(
    ['main/emulator/data/**'],
    // Of the room, only ./sql, ../ids and ../db: not the server, routes, admin, the store
    // holding the resources, or another resource's store.
    [/^\.\/(?!sql$)/, /^\.\.\/(?!(ids|db)$)[^.]/],
    "the reference server's data layer sits below its HTTP layer: a data/ file knows the shared statement cache, ids and the database, nothing above them.",
    { within: emulator },
  ),
  boundary(
    ['main/sqlite/**'],
    [/^\.\.\//],
    'sqlite/ opens a SQLite file for the store and the reference server alike, so it imports nothing else of Pressroom.',
  ),
  belowCore,
  boundary(
    ['main/store/**'],
    ['**/queue/**', '**/sync/**', '**/csv/**', '**/platform', '**/platform/**'],
    'the store is the bottom of the workspace: it holds what queue, sync and csv write, and knows none of them or the platform.',
    { within: belowCore },
  ),
  core,
  teamServer,
  teamClient,
  boundary(
    ['main/core/services/**'],
    ['**/pressroom', '**/service', '**/session'],
    'a core service sits below the workspace (pressroom.ts), the operation table and the session.',
    {
      within: core,
      typesOnly: {
        group: ['./*'],
        why: "a core service holds another service's public class as a type, handed in by pressroom.ts; it never builds one or calls into its module.",
      },
    },
  ),
  boundary(
    corePlumbing,
    ['**/services/**', '**/pressroom', '**/service', '**/session'],
    "the core's plumbing (events, governed client, lease, input checks, errors) sits below its services and knows none of them.",
    { within: core },
  ),
  boundary(
    ['main/host/**', 'main/app/**'],
    ['**/cli/**'],
    'entry points do not import each other.',
    {
      typesOnly: coreServicesOnlyAsTypes,
    },
  ),
  boundary(['main/cli/**'], [], 'the CLI may import the other entry points.', {
    typesOnly: coreServicesOnlyAsTypes,
  }),
);
