// The publisher's lease (Node, main process): one process at a time publishes a workspace file.
// The holder bumps a beat counter; another process takes the lease over only once it has watched
// that counter stand still for the stale time on its own monotonic clock, or its holder is gone.
// No two machines' clocks are ever compared. Every change of holder bumps the epoch, the fencing
// token the outbox checks in the same transaction as each claim and settle.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { WorkspaceDb } from './db';
import { statement } from './statements';

interface LeaseRow {
  /** '' once released: the row stays, so epochs never start over. */
  owner: string;
  pid: number;
  host: string;
  /** The holder's own clock at its last beat: for a person reading the file, never compared. */
  heartbeat_at: number;
  epoch: number;
  beats: number;
}

/** What an owner holds: claims and settles under it succeed only while the lease is at `epoch`. */
export interface LeaseToken {
  owner: string;
  epoch: number;
}

export type LeaseTaken =
  /** `fresh`: it was not ours before, so what the last holder left mid-send is ours to recover. */
  { ok: true; fresh: boolean; token: LeaseToken } | { ok: false; pid: number; host: string };

/** A claim or settle under a lease this process no longer holds: it must stop at once. */
export class LeaseLost extends Error {
  constructor() {
    super('Another Pressroom process took over publishing this workspace; this one stopped');
    this.name = 'LeaseLost';
  }
}

/**
 * True while a process with this id runs on this machine. A zombie (exited, not yet reaped by
 * its parent) still answers kill(pid, 0) but holds nothing, so on Linux its state is read too.
 */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !ended(pid);
}

/** Whether /proc says the process has exited (Z: zombie, X: dead); false where there is no /proc. */
function ended(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    // Gone between the two looks; elsewhere (no /proc) kill(pid, 0) is all there is to go by.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux';
  }
  // "pid (comm) S ...": the name may hold spaces and parentheses, so read after the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

export class LeaseStore {
  private readonly host = hostname();
  /** The holder's beat as this process last saw it change, on this process's monotonic clock. */
  private watched: { owner: string; epoch: number; beats: number; since: number } | null = null;

  constructor(
    private readonly db: WorkspaceDb,
    private readonly now: () => number,
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  /**
   * Takes or keeps the lease for `owner`: free, already `owner`'s, its beat seen standing still
   * for `staleMs` of this process's own time, or held by a process of this machine that is gone.
   */
  take(owner: string, staleMs: number, pid = process.pid): LeaseTaken {
    return this.db
      .transaction((): LeaseTaken => {
        const row = this.row();
        if (row && row.owner === owner)
          return { ok: true, fresh: false, token: { owner, epoch: row.epoch } };
        const free =
          !row ||
          row.owner === '' ||
          (row.host === this.host && !running(row.pid)) ||
          this.silentFor(row) >= staleMs;
        if (!free) return { ok: false, pid: row.pid, host: row.host };
        const epoch = (row?.epoch ?? 0) + 1;
        statement(
          this.db,
          `INSERT INTO publisher_lease (id, owner, pid, host, heartbeat_at, epoch, beats)
             VALUES (1, ?, ?, ?, ?, ?, 0)
           ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid,
             host = excluded.host, heartbeat_at = excluded.heartbeat_at, epoch = excluded.epoch,
             beats = 0`,
        ).run(owner, pid, this.host, this.now(), epoch);
        return { ok: true, fresh: true, token: { owner, epoch } };
      })
      .immediate();
  }

  /** Beats for the holder of `token`; false when the lease is no longer its own. */
  beat(token: LeaseToken): boolean {
    return (
      statement(
        this.db,
        `UPDATE publisher_lease SET beats = beats + 1, heartbeat_at = ?
         WHERE id = 1 AND owner = ? AND epoch = ?`,
      ).run(this.now(), token.owner, token.epoch).changes > 0
    );
  }

  /** Whether `token` still holds the lease; called inside the claim's or settle's transaction. */
  holds(token: LeaseToken): boolean {
    const row = this.row();
    return row?.owner === token.owner && row.epoch === token.epoch;
  }

  /** The epoch of the lease while someone holds it, else null. */
  heldEpoch(): number | null {
    const row = this.row();
    return row && row.owner !== '' ? row.epoch : null;
  }

  release(token: LeaseToken): void {
    statement(
      this.db,
      "UPDATE publisher_lease SET owner = '', pid = 0 WHERE id = 1 AND owner = ? AND epoch = ?",
    ).run(token.owner, token.epoch);
  }

  private row(): LeaseRow | undefined {
    return statement(this.db, 'SELECT * FROM publisher_lease WHERE id = 1').get() as
      LeaseRow | undefined;
  }

  /** How long, on this process's clock, the holder's beat has been seen standing still. */
  private silentFor(row: LeaseRow): number {
    const seen = this.watched;
    if (seen?.owner === row.owner && seen.epoch === row.epoch && seen.beats === row.beats)
      return this.monotonic() - seen.since;
    this.watched = {
      owner: row.owner,
      epoch: row.epoch,
      beats: row.beats,
      since: this.monotonic(),
    };
    return 0;
  }
}
