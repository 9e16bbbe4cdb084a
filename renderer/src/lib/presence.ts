// Who else is in a team workspace and who edits which post (browser), read from the core's status
// (its `team.present`, Yjs awareness on the core's side), for the editor and the calendar chips.
import type { TeamPresence, TeamStatus } from '../../../shared/team';

/** Who is at another desktop: the member's name the team server knows, else its device id. */
export function whoIs(other: TeamPresence): string {
  return other.name ?? other.device;
}

/** Who edits post `postId` now at the other desktops. */
export function editorsOf(team: TeamStatus | null | undefined, postId: number): string[] {
  return (team?.present ?? []).filter((other) => other.editingPostId === postId).map(whoIs);
}

/** Who edits which post now at the other desktops, by post id (a month's chips look theirs up). */
export function editorsByPost(team: TeamStatus | null | undefined): Map<number, string[]> {
  const editors = new Map<number, string[]>();
  for (const other of team?.present ?? []) {
    if (other.editingPostId === null) continue;
    const names = editors.get(other.editingPostId) ?? [];
    editors.set(other.editingPostId, [...names, whoIs(other)]);
  }
  return editors;
}

/** "Bea is editing", "Bea and Eli are editing". */
export function editingWords(devices: readonly string[]): string {
  const names =
    devices.length > 1 ? `${devices.slice(0, -1).join(', ')} and ${devices.at(-1)}` : devices[0];
  return `${names} ${devices.length > 1 ? 'are' : 'is'} editing`;
}
