// A desktop core in a child process, for bench:team: opens the team workspace in DESKTOP_FILE and
// publishes to the platform at PLATFORM_URL with PLATFORM_TOKEN, as `publish --watch` does, until
// killed (the bench kills it -9 at random and starts it again on the same file).
import { Workspace } from '../../main/core/workspace';

const workspace = new Workspace({
  dbFile: process.env.DESKTOP_FILE ?? '',
  apiBase: process.env.PLATFORM_URL,
  token: process.env.PLATFORM_TOKEN,
});
process.stdout.write('up\n');
await workspace.queue.watch(new Promise(() => undefined), 24 * 3_600_000, true);
