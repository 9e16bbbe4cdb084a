// A workspace for a test: in memory unless given a file, connected to a test platform when given
// one, and closed after each test (registered after the platform's hook, so before its server).
import { afterEach } from 'vitest';
import { Workspace } from '../../main/core/workspace';
import type { WorkspaceConfig } from '../../main/core/workspace';
import type { TestPlatform } from './platform';
import './platform';

const open: Workspace[] = [];
afterEach(() => {
  for (const workspace of open.splice(0)) workspace.close();
});

export type TestWorkspaceOptions = Partial<WorkspaceConfig> & {
  /** The platform it publishes to, by the platform's base URL and token. */
  platform?: TestPlatform;
};

export function testWorkspace(options: TestWorkspaceOptions = {}): Workspace {
  const { platform, ...config } = options;
  const workspace = new Workspace({
    dbFile: ':memory:',
    ...(platform ? { apiBase: platform.server.baseUrl, token: platform.server.token } : {}),
    ...config,
  });
  open.push(workspace);
  return workspace;
}
