// Approval transitions asked while the team server could not be reached (Node, main process):
// they wait here, oldest first, until the connection returns; a refused one stays, with its
// reason, so the person who asked sees why.
import type { ApprovalState } from '../../shared/team';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

export interface PendingTransition {
  id: number;
  post: string;
  from: ApprovalState;
  to: ApprovalState;
  comment: string | null;
  askedAt: number;
  state: 'waiting' | 'refused';
  reason: string | null;
}

const COLUMNS = `id, post_uuid AS post, from_state AS "from", to_state AS "to", comment,
  asked_at AS askedAt, state, reason`;

export class TeamPendingStore {
  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  add(asked: { post: string; from: ApprovalState; to: ApprovalState; comment?: string }): number {
    const result = statement(
      this.db,
      `INSERT INTO team_pending_transitions (post_uuid, from_state, to_state, comment, asked_at, state)
       VALUES (?, ?, ?, ?, ?, 'waiting')`,
    ).run(asked.post, asked.from, asked.to, asked.comment ?? null, this.now());
    return Number(result.lastInsertRowid);
  }

  /** Every transition still here, oldest first: waiting, then refused ones not yet dismissed. */
  all(): PendingTransition[] {
    return statement(
      this.db,
      `SELECT ${COLUMNS} FROM team_pending_transitions ORDER BY id`,
    ).all() as PendingTransition[];
  }

  waiting(): PendingTransition[] {
    return this.all().filter((pending) => pending.state === 'waiting');
  }

  /** Applied on the server: nothing is left to show. */
  applied(id: number): void {
    statement(this.db, 'DELETE FROM team_pending_transitions WHERE id = ?').run(id);
  }

  /** Forgets a refused transition (its reason was read); false when none such is here. */
  dismissRefused(id: number): boolean {
    const result = statement(
      this.db,
      "DELETE FROM team_pending_transitions WHERE id = ? AND state = 'refused'",
    ).run(id);
    return result.changes > 0;
  }

  refused(id: number, reason: string): void {
    statement(
      this.db,
      "UPDATE team_pending_transitions SET state = 'refused', reason = ? WHERE id = ?",
    ).run(reason, id);
  }
}
