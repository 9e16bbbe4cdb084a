// A session whose demo workspace is a test's reference server, or an offline one, closed after
// each test.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { FileSecretStore } from '../../main/core/account';
import { invoke } from '../../main/core/operations';
import { Session } from '../../main/core/session';
import type { OperationName } from '../../shared/contract';
import type { CallResult, OperationResults } from '../../shared/answers';
import { startTestPlatform } from './platform';
import type { TestPlatform } from './platform';

const open: Session[] = [];
// Registered after the platform module's hook, so sessions close before their servers do.
afterEach(async () => {
  await Promise.all(open.splice(0).map((session) => session.close()));
});

/** Opens a session over an offline workspace in memory, in a new folder: no platform, no queue. */
export async function openOfflineSession(): Promise<Session> {
  const folder = mkdtempSync(join(tmpdir(), 'pressroom-offline-'));
  const session = await Session.open({
    folder,
    secrets: new FileSecretStore(folder),
    dbFile: ':memory:',
    watch: false,
  });
  open.push(session);
  return session;
}

/**
 * Opens a session in `folder` (a new one unless given) whose demo workspace is `platform` (a new
 * demo-seeded one unless given); it does not watch unless asked to.
 */
export async function openDemoSession(
  options: {
    platform?: TestPlatform;
    folder?: string;
    watch?: boolean;
    pickFolder?: (title: string) => Promise<string | null>;
    /** Let the page connect to a platform on loopback, as a test's is (default true). */
    allowLocalPlatform?: boolean;
    confirmAccountSwitch?: (from: string, to: string) => Promise<boolean>;
  } = {},
): Promise<{ session: Session; folder: string; platform: TestPlatform }> {
  const folder = options.folder ?? mkdtempSync(join(tmpdir(), 'prs-'));
  // As the app's demo platform: it serves the web space the demo's pictures are published from.
  const mediaFolder = join(folder, 'demo-media');
  const platform = options.platform ?? (await startTestPlatform({ seed: 'demo', mediaFolder }));
  const session = await Session.open({
    folder,
    secrets: new FileSecretStore(folder),
    demo: async () => ({
      apiBase: platform.server.baseUrl,
      token: platform.server.token,
      mediaHost: { folder: mediaFolder, publicBaseUrl: `${platform.server.origin}/demo-media/` },
      close: async () => undefined,
    }),
    watch: options.watch ?? false,
    allowLocalPlatform: options.allowLocalPlatform ?? true,
    ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
    ...(options.confirmAccountSwitch ? { confirmAccountSwitch: options.confirmAccountSwitch } : {}),
  });
  open.push(session);
  return { session, folder, platform };
}

/**
 * The operations as the renderer calls them, through `invoke`: `call` answers the CallResult,
 * `value` the value or a throw naming the operation and its error.
 */
export function operationsOf(session: Session) {
  async function call<K extends OperationName>(
    operation: K,
    input: unknown = {},
  ): Promise<CallResult<OperationResults[K]>> {
    return (await invoke(session, operation, input)) as CallResult<OperationResults[K]>;
  }
  async function value<K extends OperationName>(
    operation: K,
    input: unknown = {},
  ): Promise<OperationResults[K]> {
    const result = await call(operation, input);
    if (!result.ok) throw new Error(`${operation}: ${result.error.message}`);
    return result.value;
  }
  return { call, value };
}
