// The publisher's lease (Node, main process): one process at a time publishes a workspace file.
// The holder beats; another process takes the lease over only once the beat stops or its holder
// is gone, so no one resets items another process is sending.
import { hostname } from 'node:os';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

interface LeaseRow {
  owner: string;
  pid: number;
  host: string;
  heartbeat_at: number;
}

export type LeaseTaken =
  /** `fresh`: it was not ours before, so what the last holder left mid-send is ours to recover. */
  { ok: true; fresh: boolean } | { ok: false; pid: number; host: string };

/** True while a process with this id runs on this machine. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class LeaseStore {
  private readonly host = hostname();

  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
  ) {}

  /**
   * Takes or keeps the lease for `owner`: free, already `owner`'s, silent for `staleMs`, or held
   * by a process of this machine that is no longer running.
   */
  take(owner: string, staleMs: number, pid = process.pid): LeaseTaken {
    const now = this.now();
    return this.db
      .transaction((): LeaseTaken => {
        const row = statement(this.db, 'SELECT * FROM publisher_lease WHERE id = 1').get() as
          LeaseRow | undefined;
        const free =
          !row ||
          row.owner === owner ||
          row.heartbeat_at < now - staleMs ||
          (row.host === this.host && !running(row.pid));
        if (!free) return { ok: false, pid: row.pid, host: row.host };
        statement(
          this.db,
          `INSERT INTO publisher_lease (id, owner, pid, host, heartbeat_at) VALUES (1, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid,
             host = excluded.host, heartbeat_at = excluded.heartbeat_at`,
        ).run(owner, pid, this.host, now);
        return { ok: true, fresh: row?.owner !== owner };
      })
      .immediate();
  }

  /** Beats for `owner`; false when the lease is no longer its own (another took it over). */
  beat(owner: string): boolean {
    return (
      statement(this.db, 'UPDATE publisher_lease SET heartbeat_at = ? WHERE owner = ?').run(
        this.now(),
        owner,
      ).changes > 0
    );
  }

  release(owner: string): void {
    statement(this.db, 'DELETE FROM publisher_lease WHERE owner = ?').run(owner);
  }
}
