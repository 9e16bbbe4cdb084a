// Lint rules, including the import boundaries that keep dependencies pointing one way:
// renderer → shared ← main, and inside main: app/host/cli → core → (store, queue, platform).
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'http', 'https', 'crypto', 'child_process'];

/** One boundary: files matching `files` may not import anything matching `forbidden`. */
function boundary(files, forbidden, why) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: forbidden, message: `Import boundary: ${why}` }] },
      ],
    },
  };
}

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
  boundary(
    ['main/core/**'],
    ['**/app/**', '**/cli/**', '**/host/**'],
    'the core sits below app, host and CLI.',
  ),
  boundary(
    ['main/host/**', 'main/app/**'],
    ['**/cli/**'],
    'entry points do not import each other.',
  ),
);
