// A desktop in a child process, for the kill -9 test: opens the team workspace in DESKTOP_FILE,
// adds a draft POST_TEXT through the one door, prints "edited" once the change is in its own
// file, then stays up (its team server may be down) until killed.
import { call } from '../../main/core/operations';
import { Workspace } from '../../main/core/workspace';

const workspace = new Workspace({ dbFile: process.env.DESKTOP_FILE ?? '' });
call(workspace, 'addPost', { text: process.env.POST_TEXT ?? '', mode: 'draft' });
workspace.team?.pushLocalChanges();
process.stdout.write('edited\n');
setInterval(() => undefined, 60_000);
