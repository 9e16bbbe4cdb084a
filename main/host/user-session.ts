// The one way to open the person's own session (Node): the desktop app, `npm start` in the
// browser and `serve` all open it here, over the user-data folder (private), its secret store
// and the demo workspace's embedded platform, so the three cannot drift apart.
import { FileSecretStore } from '../core/account';
import type { SecretStore } from '../core/account';
import { systemKeychain } from '../core/keychain';
import { userDataDir } from '../core/paths';
import { Session } from '../core/session';
import type { DemoPlatform, SessionOptions } from '../core/session';
import { ensurePrivateFolder } from '../sqlite/private-files';
import { startDemoPlatform } from './demo';

export interface UserSessionOptions extends Omit<SessionOptions, 'folder' | 'secrets' | 'demo'> {
  /** The user-data folder; core/paths.ts's by default (PRESSROOM_HOME overrides it). */
  folder?: string;
  /** Where tokens are kept; a file sealed by the system keychain by default. */
  secrets?: (folder: string) => SecretStore;
  /** The demo workspace's platform; the embedded reference server in the folder by default. */
  demo?: () => Promise<DemoPlatform>;
  /** Told the demo platform's token, which is as secret as any (the desktop log hides it). */
  onDemoToken?: (token: string) => void;
}

export async function openUserSession(
  options: UserSessionOptions = {},
): Promise<{ session: Session; folder: string }> {
  const { folder = userDataDir(), secrets, demo, onDemoToken, ...rest } = options;
  ensurePrivateFolder(folder);
  const startDemo = demo ?? (() => startDemoPlatform(folder));
  const session = await Session.open({
    ...rest,
    folder,
    secrets: secrets?.(folder) ?? new FileSecretStore(folder, systemKeychain(folder)),
    demo: async () => {
      const started = await startDemo();
      onDemoToken?.(started.token);
      return started;
    },
  });
  return { session, folder };
}
