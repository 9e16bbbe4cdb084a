// The team's Yjs documents in SQLite (Node, team server). Every update is appended, synchronously
// and durably, inside the Yjs transaction that applied it, so it is on disk before the server
// acknowledges it; now and then a document's updates are folded into one snapshot.
import * as Y from 'yjs';
import { inTransaction } from './db';
import type { TeamDb } from './db';

/** Updates kept beside a snapshot before they are folded into it. */
const COMPACT_AFTER = 500;

export class TeamDocuments {
  constructor(private readonly db: TeamDb) {}

  /** Applies what is stored for `name` to `doc`, then stores every later update of `doc`. */
  attach(name: string, doc: Y.Doc): void {
    const snapshot = this.db
      .prepare('SELECT state, upto FROM doc_snapshots WHERE name = ?')
      .get(name) as { state: Buffer; upto: number } | undefined;
    const updates = this.db
      .prepare('SELECT data FROM doc_updates WHERE name = ? AND seq > ? ORDER BY seq')
      .all(name, snapshot?.upto ?? 0) as { data: Buffer }[];
    Y.transact(doc, () => {
      if (snapshot) Y.applyUpdate(doc, snapshot.state);
      for (const { data } of updates) Y.applyUpdate(doc, data);
    });
    const append = this.db.prepare('INSERT INTO doc_updates (name, data) VALUES (?, ?)');
    doc.on('update', (update: Uint8Array) => append.run(name, update));
  }

  /** Folds the stored updates into one snapshot once there are enough of them. */
  compact(name: string, doc: Y.Doc): void {
    const pending = this.db
      .prepare('SELECT count(*) AS n, max(seq) AS upto FROM doc_updates WHERE name = ?')
      .get(name) as { n: number; upto: number | null };
    if (pending.n < COMPACT_AFTER || pending.upto === null) return;
    // Synchronous from the encoding to the commit: no update can slip in between.
    const state = Y.encodeStateAsUpdate(doc);
    inTransaction(this.db, () => {
      this.db
        .prepare(
          'INSERT INTO doc_snapshots (name, state, upto) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET state = excluded.state, upto = excluded.upto',
        )
        .run(name, state, pending.upto);
      this.db
        .prepare('DELETE FROM doc_updates WHERE name = ? AND seq <= ?')
        .run(name, pending.upto);
    });
  }
}
