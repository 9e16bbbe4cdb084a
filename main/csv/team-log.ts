// The team's audit log as CSV (Node, main process), for `team log --csv` and the log screen's
// export: one row per entry, formulas escaped as in every other export.
import Papa from 'papaparse';
import type { TeamLogEntry } from '../../shared/team';
import { UNPARSE } from './export';

export function teamLogCsv(
  entries: readonly TeamLogEntry[],
  postIdOf: (uuid: string) => number | undefined,
): string {
  const rows = entries.map((entry) => ({
    at: new Date(entry.at).toISOString(),
    member: entry.member,
    name: entry.name,
    action: entry.action,
    post_id: entry.post === null ? '' : (postIdOf(entry.post) ?? ''),
    post_uuid: entry.post ?? '',
    detail: entry.detail,
  }));
  return Papa.unparse(rows, {
    ...UNPARSE,
    columns: ['at', 'member', 'name', 'action', 'post_id', 'post_uuid', 'detail'],
  });
}
