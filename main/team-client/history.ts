// A team post's history as a person reads it (Node): the team server's audit entries about the
// post (who edited which fields, claimed, published, moved its approval), each with the member's
// name and the server's time. Times are the server's alone, never compared with this computer's.
import type { TeamHistoryEntry } from '../../shared/team';
import { CONTROL_AUDIT, CONTROL_MEMBERS } from '../../shared/team-doc';
import type { ControlAuditEntry } from '../../shared/team-doc';
import type * as Y from 'yjs';

/** The words for a changed field of a post. */
const FIELD_WORDS: Record<string, string> = {
  text: 'the text',
  scheduledAt: 'the time',
  zone: 'the time zone',
  botId: 'the bot',
  mediaUrls: 'the pictures',
  labels: 'the labels',
  status: 'whether it is scheduled',
  revision: 'its revision',
};

export function postHistory(control: Y.Doc, uuid: string): TeamHistoryEntry[] {
  const names = control.getMap<string>(CONTROL_MEMBERS);
  return control
    .getArray<ControlAuditEntry>(CONTROL_AUDIT)
    .toArray()
    .filter((entry) => entry.post === uuid)
    .map((entry) => ({
      who: names.get(entry.member) ?? entry.member,
      what: describe(entry),
      at: entry.at,
    }));
}

function describe(entry: ControlAuditEntry): string {
  switch (entry.action) {
    case 'edit': {
      const fields = entry.detail.split(', ').filter(Boolean);
      if (fields.includes('created')) return 'created the post';
      if (fields.includes('deletedAt')) return 'deleted the post';
      return `changed ${fields.map((field) => FIELD_WORDS[field] ?? field).join(', ')}`;
    }
    case 'claim':
      return `took the post to publish it (${entry.detail})`;
    case 'published':
      return `published it (${entry.detail})`;
    case 'release':
      return `gave it back unsent (${entry.detail})`;
    default: {
      const [from, to] = entry.action.split('→');
      if (from && to) return `moved it from ${from.replace('_', ' ')} to ${to.replace('_', ' ')}`;
      return entry.detail ? `${entry.action}: ${entry.detail}` : entry.action;
    }
  }
}
