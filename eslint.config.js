// Lint rules, including the rooms' import allow-list that keeps dependencies pointing one way:
// renderer → shared ← main; inside main: app/host/cli → core → (csv, sync, queue) → (store,
// platform), the store → sqlite; and inside a room the layers docs/architecture.md names ("Rooms").
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { roomsRule } from './eslint-rooms.js';

/** What lies below the core, which the core and the entry points may import. */
const belowCore = [
  'main/csv/**',
  'main/sync/**',
  'main/queue/**',
  'main/store/**',
  'main/platform/**',
  'main/sqlite/**',
  'main/team-client/**',
];
/** The core's own plumbing, below its services: they are handed these, these know no service. */
const corePlumbing = [
  'main/core/errors',
  'main/core/events',
  'main/core/governed-client',
  'main/core/input',
  'main/core/outbox',
  'main/core/private-files',
  'main/core/publishing-lease',
  'main/core/queue-rows',
];
/**
 * The store's tables a core service may be handed, each as its own slice: never the whole
 * WorkspaceStore, and never the outbox, whose writes the outbox's owner (core/outbox.ts) makes.
 */
const storeForServices = [
  'main/store/cache',
  'main/store/catalog',
  'main/store/imports',
  'main/store/media',
  'main/store/slots',
  'main/store/posts',
  'main/store/products',
  'main/store/schedules',
  'main/store/settings',
  'main/store/transaction',
  'main/store/webhooks',
];
/** Node's own modules, for the rooms that run in Node. */
const node = ['node:*'];
const svelteUi = ['svelte', 'temporal-polyfill', '@event-calendar/*', 'chart.js'];

/**
 * Every room, most specific first (a file is in the first room whose `files` match it): what it
 * `may` import (globs over project paths, no extension), what it may import `typesOnly`, which
 * `packages`, and `why`, the message an import outside the list gets. Nothing else is allowed.
 */
export const ROOMS = [
  {
    name: 'shared/',
    files: ['shared/**'],
    may: ['shared/**'],
    packages: ['zod', 'temporal-polyfill', 'yjs'],
    why: 'shared/ is pure and runs in every process; it imports nothing from main/ or renderer/ and no Node built-ins (yjs is pure too: the shape of the team document, shared/team-doc.ts, is read alike by the team server and the desktops).',
  },
  {
    name: 'renderer/src/lib/',
    files: ['renderer/src/lib/**'],
    may: ['renderer/src/lib/**', 'shared/**'],
    typesOnly: ['renderer/src/state/**'],
    packages: ['svelte'],
    why: 'lib/ (the contract client, transports, file reading) sits below state and components and talks to the core only through shared/; it may name a state class as a type, never import its code.',
  },
  {
    name: 'renderer/src/state/',
    files: ['renderer/src/state/**'],
    may: ['renderer/src/state/**', 'renderer/src/lib/**', 'shared/**'],
    packages: svelteUi,
    why: 'state sits below components and screens (a component reads its state, state never imports a component) and talks to the core only through shared/.',
  },
  {
    name: 'renderer/src/components/',
    files: ['renderer/src/components/**'],
    may: [
      'renderer/src/components/**',
      'renderer/src/state/**',
      'renderer/src/lib/**',
      'shared/**',
    ],
    packages: svelteUi,
    why: 'components sit below screens and talk to the core only through shared/.',
  },
  {
    name: 'renderer/src/ (screens, App)',
    files: ['renderer/src/**'],
    may: ['renderer/src/**', 'shared/**'],
    packages: svelteUi,
    why: 'the renderer talks to the core only through the contract in shared/.',
  },
  {
    name: 'main/sqlite/',
    files: ['main/sqlite/**'],
    may: ['main/sqlite/**'],
    packages: [...node, 'better-sqlite3'],
    why: 'sqlite/ opens a SQLite file for the store and the reference server alike, so it imports nothing else of Pressroom.',
  },
  {
    name: 'main/platform/normalize/',
    files: ['main/platform/normalize/**'],
    except: ['main/platform/normalize/index.ts'],
    may: ['main/platform/normalize/fields', 'main/platform/wire', 'shared/**'],
    packages: ['zod', 'temporal-polyfill'],
    why: "normalize/ reads answers below the client: a resource's reader uses only fields.ts and ../wire, never another resource's reader or the client.",
  },
  {
    name: 'main/platform/',
    files: ['main/platform/**'],
    may: ['main/platform/**', 'shared/**'],
    packages: [...node, 'zod', 'temporal-polyfill', 'iconv-lite', 'lossless-json', 'undici'],
    why: 'the platform client depends on nothing else in main/.',
  },
  {
    name: 'main/reference-server/data/',
    files: ['main/reference-server/data/**'],
    may: [
      'main/reference-server/data/sql',
      'main/reference-server/ids',
      'main/reference-server/db',
      'main/platform/wire',
      'shared/**',
    ],
    packages: [...node, 'better-sqlite3'],
    why: "the reference server's data layer sits below its HTTP layer: a data/ file knows the shared statement cache, ids and the database, nothing above them.",
  },
  {
    name: 'main/reference-server/',
    files: ['main/reference-server/**'],
    may: [
      'main/reference-server/**',
      'main/platform/wire',
      'main/platform/webhook-signature',
      'main/sqlite/**',
      'shared/**',
    ],
    packages: [...node, 'zod', 'better-sqlite3'],
    why: 'the reference server stands alone; it shares only main/platform/wire.ts (and the webhook signature) and main/sqlite/, so it never leans on the client it tests.',
  },
  {
    name: 'main/team/',
    files: ['main/team/**'],
    may: ['main/team/**', 'main/sqlite/**', 'shared/**'],
    packages: [...node, '@hocuspocus/server', 'yjs', 'ws', 'zod', 'better-sqlite3'],
    why: 'the team server stands alone: it shares only shared/team*.ts with the desktops and main/sqlite/ for its file, so it runs headless on a machine with no workspace.',
  },
  {
    name: 'main/team-client/',
    files: ['main/team-client/**'],
    may: ['main/team-client/**', 'main/store/**', 'main/queue/**', 'main/platform/**', 'shared/**'],
    packages: [...node, '@hocuspocus/provider', 'yjs', 'ws', 'zod'],
    why: "a desktop's team side sits below the core, beside queue and sync: it reaches the workspace through the store, answers the publisher's gate (queue/publish-gate.ts), and reaches the team server only over the wire (shared/team.ts).",
  },
  {
    name: 'main/store/',
    files: ['main/store/**'],
    may: ['main/store/**', 'main/sqlite/**', 'shared/**'],
    packages: [...node, 'zod', 'better-sqlite3'],
    why: 'the store is the bottom of the workspace: it holds what queue, sync and csv write, and knows none of them or the platform.',
  },
  {
    name: 'main/queue/',
    files: ['main/queue/**'],
    may: ['main/queue/**', 'main/store/**', 'main/platform/**', 'shared/**'],
    packages: [...node, 'node-cron'],
    why: 'the queue sits below the core, over the store and the platform client.',
  },
  {
    name: 'main/sync/',
    files: ['main/sync/**'],
    may: [
      'main/sync/**',
      'main/store/**',
      'main/platform/**',
      'main/queue/retry',
      'main/queue/lookup',
      'shared/**',
    ],
    packages: node,
    why: 'pull sync sits below the core, over the store, the platform client and the governor.',
  },
  {
    name: 'main/csv/',
    files: ['main/csv/**'],
    may: ['main/csv/**', 'main/store/**', 'main/sqlite/**', 'shared/**'],
    packages: [...node, 'papaparse', 'iconv-lite', 'chardet', 'temporal-polyfill'],
    why: 'CSV reading and writing sits below the core, over the store.',
  },
  {
    name: 'main/core/services/',
    files: ['main/core/services/**'],
    may: [
      ...corePlumbing,
      ...belowCore.filter((room) => room !== 'main/store/**'),
      ...storeForServices,
      'shared/**',
    ],
    typesOnly: ['main/core/services/*'],
    packages: [...node, 'zod'],
    why: "a core service sits below the workspace (workspace.ts), the operation table and the session, over the core's plumbing; it holds another service's class as a type, handed in by workspace.ts, and never builds one; it is handed the store's tables it uses one by one, never the WorkspaceStore, and writes the outbox only through its owner (core/outbox.ts).",
  },
  {
    name: "the core's plumbing",
    files: corePlumbing.map((path) => `${path}.ts`),
    may: [...corePlumbing, ...belowCore, 'shared/**'],
    packages: [...node, 'zod'],
    why: "the core's plumbing (events, governed client, lease, input checks, errors) sits below its services and knows none of them.",
  },
  {
    name: 'main/core/',
    files: ['main/core/**'],
    may: ['main/core/**', ...belowCore, 'shared/**'],
    packages: [...node, 'zod', 'temporal-polyfill'],
    why: 'the core sits below app, host and CLI.',
  },
  {
    name: 'main/host/',
    files: ['main/host/**'],
    may: ['main/host/**', 'main/core/*', 'main/reference-server/**', ...belowCore, 'shared/**'],
    typesOnly: ['main/core/services/**'],
    packages: node,
    why: 'the web host reaches a core service through the workspace (pressroom.posts) or the operation table, never builds one; it does not import the other entry points.',
  },
  {
    name: 'main/app/',
    files: ['main/app/**'],
    may: ['main/app/**', 'main/host/**', 'main/core/*', ...belowCore, 'shared/**'],
    typesOnly: ['main/core/services/**'],
    packages: [...node, 'electron', 'electron-updater', 'zod', 'vite', 'tsx'],
    why: 'the Electron shell reaches a core service through the workspace or the operation table, and the page only through the contract in shared/; it does not import the CLI.',
  },
  {
    name: 'main/cli/',
    files: ['main/cli/**'],
    may: [
      'main/cli/**',
      'main/app/**',
      'main/host/**',
      'main/core/*',
      'main/reference-server/**',
      'main/team/**',
      ...belowCore,
      'shared/**',
      'package.json',
    ],
    typesOnly: ['main/core/services/**'],
    packages: [...node, 'commander', 'zod'],
    why: 'the CLI reaches a core service through the workspace or the operation table, never builds one.',
  },
];

/** The folders whose every file is in a room. */
const ROOM_ROOTS = ['main/**', 'shared/**', 'renderer/src/**'];

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
  {
    files: ['main/**', 'shared/**', 'renderer/src/**'],
    plugins: { rooms: { rules: { 'allowed-imports': roomsRule(ROOMS, ROOM_ROOTS) } } },
    rules: { 'rooms/allowed-imports': 'error' },
  },
  {
    // A function a reader takes in at once (#29): longer ones become named steps.
    files: ['main/**/*.ts', 'renderer/src/**/*.ts', 'renderer/src/**/*.svelte'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
);
