// Who edits which post, as the month's chips look it up: every other desktop on a post, by name
// or device, and none for a desktop with nothing open.
import { describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../shared/team';
import { editorsByPost, editorsOf } from '../../renderer/src/lib/presence';
import { TEAM } from './post-editor-fixtures';

const team = (present: TeamStatus['present']): TeamStatus => ({ ...TEAM, present });

describe('editorsByPost', () => {
  it('lists each post’s editors in the order present, as editorsOf does, and leaves idle desktops out', () => {
    const status = team([
      { device: 'd_1', name: 'Bea', editing: 'u7', editingPostId: 7 },
      { device: 'd_2', name: null, editing: null, editingPostId: null },
      { device: 'd_3', name: null, editing: 'u7', editingPostId: 7 },
      { device: 'd_4', name: 'Eli', editing: 'u9', editingPostId: 9 },
    ]);
    const editors = editorsByPost(status);
    expect([...editors.entries()]).toEqual([
      [7, ['Bea', 'd_3']],
      [9, ['Eli']],
    ]);
    expect(editors.get(7)).toEqual(editorsOf(status, 7));
    expect(editorsByPost(null).size).toBe(0);
  });
});
