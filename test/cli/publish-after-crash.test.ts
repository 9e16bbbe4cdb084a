// `publish --until-empty` right after a publisher died (issue 26, case 11): a process that is gone
// or a zombie holds nothing, so it publishes everything still due and exits 0.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testWorkspace } from '../support/workspace';
import { WorkspaceStore } from '../../main/store';
import { runCli } from '../support/cli';
import { startTestPlatform } from '../support/platform';
import { startZombie } from '../support/processes';
import { call } from '../../main/core/operations';

describe('publish --until-empty after a crash', () => {
  it.runIf(process.platform === 'linux')(
    'takes the lease of a killed publisher not yet reaped, and publishes all',
    async () => {
      const platform = await startTestPlatform({ seed: 'demo' });
      const dbFile = join(mkdtempSync(join(tmpdir(), 'pressroom-crashed-')), 'workspace.sqlite');
      const setup = testWorkspace({ dbFile });
      for (let i = 0; i < 5; i++)
        call(setup, 'addPost', { text: `Left behind ${i}`, botId: 'bot_1', mode: 'publish_now' });
      setup.close();
      // The killed publisher's lease, beaten a moment ago: its process is a zombie now.
      const killed = await startZombie();
      const store = WorkspaceStore.open(dbFile);
      expect(store.lease.take('killed publisher', 30_000, killed.pid)).toMatchObject({ ok: true });
      store.close();

      const run = await runCli(['publish', '--until-empty', '--json'], {
        PRESSROOM_DB: dbFile,
        PRESSROOM_API_BASE: platform.server.baseUrl,
        PRESSROOM_API_TOKEN: platform.server.token,
      });
      killed.end();
      expect(run.stderr).not.toContain('Paused');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ published: 5, failed: 0 });
    },
  );
});
