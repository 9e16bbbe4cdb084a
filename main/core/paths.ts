// Where Pressroom keeps its files outside Electron (Node, main process). Matches Electron's
// app.getPath('userData') for the product name, so the web host, the CLI and the desktop app
// share one folder. PRESSROOM_HOME overrides it (tests, portable installs).
import { homedir } from 'node:os';
import { join } from 'node:path';

export function userDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (env.PRESSROOM_HOME) return env.PRESSROOM_HOME;
  const home = homedir();
  if (platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Pressroom');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Pressroom');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Pressroom');
}
