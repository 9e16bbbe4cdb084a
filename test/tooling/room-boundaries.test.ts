// The rooms' allow-list (eslint.config.js, issue #29): each room names what it may import, so a
// deliberate bad import in every room fails lint, an allowed one passes, and a file in a folder
// no room names fails too. Linted as text at a path in the room; no file is written.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOMS } from '../../eslint.config.js';

const RULE = 'rooms/allowed-imports';

/** Per room: a file in it, an import it may make, and one it may not (a new edge). */
const CASES: Record<string, { file: string; allowed: string; refused: string[] }> = {
  'shared/': {
    file: 'shared/example.ts',
    allowed: "import { LIMITS } from './limits';",
    refused: ["import { openWorkspaceDb } from '../main/store/db';", "import 'node:fs';"],
  },
  'renderer/src/lib/': {
    file: 'renderer/src/lib/example.ts',
    allowed: "import type { Shell } from '../state/shell.svelte';",
    refused: [
      "import { Shell } from '../state/shell.svelte';",
      "import Menu from '../components/common/Menu.svelte';",
    ],
  },
  'renderer/src/state/': {
    file: 'renderer/src/state/example.ts',
    allowed: "import { createApi } from '../lib/api';",
    refused: ["import Menu from '../components/common/Menu.svelte';"],
  },
  'renderer/src/components/': {
    file: 'renderer/src/components/posts/example.ts',
    allowed: "import { Shell } from '../../state/shell.svelte';",
    refused: ["import Queue from '../../screens/Queue.svelte';"],
  },
  'renderer/src/ (screens, App)': {
    file: 'renderer/src/screens/example.ts',
    allowed: "import Menu from '../components/common/Menu.svelte';",
    refused: ["import { Pressroom } from '../../../main/core/pressroom';", "import 'electron';"],
  },
  'main/sqlite/': {
    file: 'main/sqlite/example.ts',
    allowed: "import { openSqlite } from './open';",
    refused: ["import { WorkspaceStore } from '../store';"],
  },
  'main/platform/normalize/': {
    file: 'main/platform/normalize/example.ts',
    allowed: "import { text } from './fields';",
    refused: ["import { readPost } from './posts';", "import { request } from '../body';"],
  },
  'main/platform/': {
    file: 'main/platform/example.ts',
    allowed: "import { PLANS } from './wire';",
    refused: ["import { Publisher } from '../queue/publisher';"],
  },
  'main/reference-server/data/': {
    file: 'main/reference-server/data/example.ts',
    allowed: "import { Statements } from './sql';",
    refused: ["import { startPlatformServer } from '../server';"],
  },
  'main/reference-server/': {
    file: 'main/reference-server/example.ts',
    allowed: "import { PLANS } from '../platform/wire';",
    refused: [
      "import { createPlatformClient } from '../platform/client';",
      "import { WorkspaceStore } from '../store';",
    ],
  },
  'main/team/': {
    file: 'main/team/example.ts',
    allowed: "import { openMigratedDb } from '../sqlite/open';",
    refused: [
      "import { WorkspaceStore } from '../store';",
      "import { TeamConnection } from '../team-client/connection';",
    ],
  },
  'main/team-client/': {
    file: 'main/team-client/example.ts',
    allowed: "import { WorkspaceStore } from '../store';",
    refused: [
      "import { Pressroom } from '../core/pressroom';",
      "import { startTeamServer } from '../team/server';",
    ],
  },
  'main/store/': {
    file: 'main/store/example.ts',
    allowed: "import { openSqlite } from '../sqlite/open';",
    refused: ["import { Publisher } from '../queue/publisher';"],
  },
  'main/queue/': {
    file: 'main/queue/example.ts',
    allowed: "import { WorkspaceStore } from '../store';",
    refused: ["import { Pressroom } from '../core/pressroom';"],
  },
  'main/sync/': {
    file: 'main/sync/example.ts',
    allowed: "import type { RateGovernor } from '../platform/governor';",
    refused: ["import { importCsv } from '../csv/import';"],
  },
  'main/csv/': {
    // Never forbidden by the old deny-list: the allow-list refuses an edge nobody decided.
    file: 'main/csv/example.ts',
    allowed: "import { WorkspaceStore } from '../store';",
    refused: ["import { createPlatformClient } from '../platform/client';"],
  },
  'main/core/services/': {
    file: 'main/core/services/example.ts',
    allowed:
      "import type { PostsService } from './posts';\nimport type { Outbox } from '../outbox';\nimport type { PostsStore } from '../../store/posts';",
    refused: [
      "import { PostsService } from './posts';",
      "import { Pressroom } from '../pressroom';",
      "import { Session } from '../session';",
      // The outbox has one owner (core/outbox.ts); a service never reaches the table or the store.
      "import type { OutboxStore } from '../../store/outbox';",
      "import type { WorkspaceStore } from '../../store';",
    ],
  },
  "the core's plumbing": {
    file: 'main/core/events.ts',
    allowed: "import type { CoreEvent } from '../../shared/answers';",
    refused: ["import type { PostsService } from './services/posts';"],
  },
  'main/core/': {
    file: 'main/core/example.ts',
    allowed: "import { PostsService } from './services/posts';",
    refused: ["import { startShell } from '../app/shell';"],
  },
  'main/host/': {
    file: 'main/host/example.ts',
    allowed: "import { startPlatformServer } from '../reference-server/server';",
    refused: [
      "import { program } from '../cli/program';",
      "import { PostsService } from '../core/services/posts';",
    ],
  },
  'main/app/': {
    file: 'main/app/example.ts',
    allowed: "import { startWebHost } from '../host/web';",
    refused: [
      "import type { Transport } from '../../renderer/src/lib/api';",
      "import { program } from '../cli/program';",
    ],
  },
  'main/cli/': {
    file: 'main/cli/example.ts',
    allowed: "import type { PostsService } from '../core/services/posts';",
    refused: [
      "import { PostsService } from '../core/services/posts';",
      "import { createApi } from '../../renderer/src/lib/api';",
    ],
  },
};

const eslint = new ESLint();

async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\n`, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('the rooms are an allow-list', () => {
  it('has a case for every room in eslint.config.js', () => {
    expect(Object.keys(CASES).sort()).toEqual(ROOMS.map((room) => room.name).sort());
  });

  for (const [room, { file, allowed, refused }] of Object.entries(CASES)) {
    it(`${room}: an import its list names passes, a new edge fails`, async () => {
      expect(await boundaryErrors(file, allowed)).toEqual([]);
      for (const source of refused) {
        const errors = await boundaryErrors(file, source);
        expect(errors, source).toHaveLength(1);
        expect(errors[0]).toContain(`${room} may not import`);
      }
    }, 60_000);
  }

  it('refuses any import from a file in a folder no room names', async () => {
    const errors = await boundaryErrors('main/newroom/example.ts', "import { z } from 'zod';");
    expect(errors).toEqual([expect.stringContaining('main/newroom/example.ts is in no room')]);
  }, 60_000);

  it('leaves tests and tooling outside the rooms unchecked', async () => {
    expect(
      await boundaryErrors('test/example.test.ts', "import { Pressroom } from '../main/core';"),
    ).toEqual([]);
  }, 60_000);
});
