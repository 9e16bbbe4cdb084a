// Who else is in a team workspace and who edits which post (browser), read from the core's status
// (its `team.present`, Yjs awareness on the core's side), for the editor and the calendar chips.
import type { TeamStatus } from '../../../shared/team';

/** The other desktops editing post `postId` now. */
export function editorsOf(team: TeamStatus | null | undefined, postId: number): string[] {
  return (team?.present ?? [])
    .filter((other) => other.editingPostId === postId)
    .map((other) => other.device);
}

/** "d_1 is editing", "d_1 and d_2 are editing". */
export function editingWords(devices: readonly string[]): string {
  const names =
    devices.length > 1 ? `${devices.slice(0, -1).join(', ')} and ${devices.at(-1)}` : devices[0];
  return `${names} ${devices.length > 1 ? 'are' : 'is'} editing`;
}
