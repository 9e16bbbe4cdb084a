// Who edited which team post (Node, team server): each change a member's desktop makes to a post in
// the data document is written to the audit log under that member, by the server's clock, at most
// once a minute per member, post and fields. So a post two people typed into at once names both in
// its history, though the CRDT merged their text without a conflict.
import type * as Y from 'yjs';
import { postsMap } from '../../shared/team-doc';
import type { TeamAudit } from './audit';
import type { MemberContext } from './hooks';

/** How long one member's edits of the same fields of a post make one audit entry. */
export const EDIT_ENTRY_MS = 60_000;

export function recordEdits(
  doc: Y.Doc,
  audit: TeamAudit,
  reflect: (teamId: string, posts: readonly string[]) => Promise<void>,
): void {
  postsMap(doc).observeDeep((events, transaction) => {
    // Hocuspocus applies a connection's update with the connection as its origin.
    const origin = transaction.origin as { context?: Partial<MemberContext> } | null;
    const member = origin?.context?.member;
    if (!member) return;
    const edits = new Map<string, string>();
    for (const [post, fields] of editedFields(events))
      edits.set(post, [...fields].sort().join(', '));
    // One update may touch thousands of posts (an owner's first share): one commit, one
    // reflection, of the log only (an edit changes no post's entry; approvals.resetEdited does).
    const appended = audit.appendUnlessRecent(member, 'edit', edits, EDIT_ENTRY_MS);
    if (appended.length > 0) reflect(member.teamId, []).catch(() => undefined);
  });
}

/** Each post an update touched, with the fields it changed ('created' for a new record). */
function editedFields(events: Y.YEvent<Y.AbstractType<unknown>>[]): Map<string, Set<string>> {
  const touched = new Map<string, Set<string>>();
  const add = (post: string, field: string) => {
    const fields = touched.get(post) ?? new Set<string>();
    fields.add(field);
    touched.set(post, fields);
  };
  for (const event of events) {
    const [post, field] = event.path.map(String);
    if (post === undefined) for (const key of event.changes.keys.keys()) add(key, 'created');
    else if (field !== undefined) add(post, field);
    else for (const key of event.changes.keys.keys()) add(post, key);
  }
  return touched;
}
