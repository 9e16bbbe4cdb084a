// Lint rules, including the import boundaries that keep dependencies pointing one way:
// renderer → shared ← main, inside main: app/host/cli → core → (store, queue, platform), and
// inside the core: workspace, operation table and session → services → the core's plumbing.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'http', 'https', 'crypto', 'child_process'];

/**
 * One boundary: files matching `files` may not import anything matching `forbidden`, and may
 * import what matches `typesOnly.group` for its types only (`typesOnly.why` says why).
 */
function boundary(files, forbidden, why, typesOnly = null) {
  const patterns = forbidden.length
    ? [{ group: forbidden, message: `Import boundary: ${why}` }]
    : [];
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
  boundary(
    ['renderer/src/**'],
    ['**/main/**', ...nodeBuiltins, 'better-sqlite3', 'electron'],
    'the renderer talks to the core only through the contract in shared/.',
  ),
  boundary(
    ['main/platform/**'],
    [
      '**/core/**',
      '**/store/**',
      '**/queue/**',
      '**/sync/**',
      '**/app/**',
      '**/cli/**',
      '**/host/**',
      '**/emulator/**',
    ],
    'the platform client depends on nothing else in main/.',
  ),
  boundary(
    ['main/emulator/**'],
    [
      '**/core/**',
      '**/store/**',
      '**/queue/**',
      '**/sync/**',
      '**/app/**',
      '**/cli/**',
      '**/host/**',
    ],
    'the reference server stands alone; it shares only main/platform/wire.ts and main/sqlite/.',
  ),
  boundary(
    ['main/store/**', 'main/queue/**', 'main/sync/**', 'main/csv/**'],
    ['**/core/**', '**/app/**', '**/cli/**', '**/host/**'],
    'store, queue, sync and csv sit below the core.',
  ),
  boundary(['main/core/**'], entryPoints, 'the core sits below app, host and CLI.'),
  boundary(
    ['main/core/services/**'],
    [...entryPoints, '**/pressroom', '**/service', '**/session'],
    'a core service sits below the workspace (pressroom.ts), the operation table and the session.',
    {
      group: ['./*'],
      why: "a core service holds another service's public class as a type, handed in by pressroom.ts; it never builds one or calls into its module.",
    },
  ),
  boundary(
    corePlumbing,
    [...entryPoints, '**/services/**', '**/pressroom', '**/service', '**/session'],
    "the core's plumbing (events, governed client, lease, input checks, errors) sits below its services and knows none of them.",
  ),
  boundary(
    ['main/host/**', 'main/app/**'],
    ['**/cli/**'],
    'entry points do not import each other.',
    coreServicesOnlyAsTypes,
  ),
  boundary(
    ['main/cli/**'],
    [],
    'the CLI may import the other entry points.',
    coreServicesOnlyAsTypes,
  ),
);
