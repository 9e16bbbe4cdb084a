// An owner's desktop in a child process, for the kill -9 mid-share test: joins the workspace in
// DESKTOP_FILE to the team of TEAM_LINK (or opens it, joined by an earlier run), saying each step
// on a line of its own: "opening" before, "pushed" once every row is in its document and file,
// "shared" once the team server acknowledged everything; then stays up until killed. TEAM_TOKEN is
// the member token (a test's, in the environment only).
import { WorkspaceStore } from '../../main/store';
import { TeamStore } from '../../main/store/team';
import { TeamWorkspace } from '../../main/team-client/workspace';

const store = WorkspaceStore.open(process.env.DESKTOP_FILE ?? '');
const token = process.env.TEAM_TOKEN ?? '';
process.stdout.write('opening\n');
const workspace = new TeamStore(store.db, Date.now).link()
  ? TeamWorkspace.open(store, token)!
  : TeamWorkspace.join(store, process.env.TEAM_LINK ?? '', token);
process.stdout.write('pushed\n');
await workspace.connection.whenSynced(60_000);
while (workspace.connection.unsyncedChanges > 0) await new Promise((r) => setTimeout(r, 10));
process.stdout.write('shared\n');
setInterval(() => undefined, 60_000);
