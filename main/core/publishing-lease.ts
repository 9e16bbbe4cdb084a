// The publishing lease (Node, main process): one process at a time publishes a workspace file (the
// desktop app, `serve` and `publish --watch` may all open one), by a lease row whose beat counter
// it bumps. Its token fences every claim and settle; once the lease is lost, publishing stops.
import { randomUUID } from 'node:crypto';
import type { PublisherLease } from '../queue/publisher';
import type { WorkspaceStore } from '../store';
import type { LeaseToken } from '../store/lease';

/** A publisher's lease is taken over when its beat has been seen standing still this long. */
export const LEASE_STALE_MS = 30_000;

export class PublishingLease implements PublisherLease {
  private readonly owner = `${process.pid}:${randomUUID()}`;
  private beat: NodeJS.Timeout | null = null;
  /** The lease this process holds, while it holds one. */
  token: LeaseToken | null = null;
  /** Told when the lease was found lost between passes (a beat refused): publishing stops. */
  onLost: (reason: string) => void = () => undefined;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly staleMs = LEASE_STALE_MS,
  ) {}

  /**
   * Null while this process publishes the workspace, else why not. Taking the lease over from a
   * process that stopped recovers what that one left mid-send: looked up before sent again.
   */
  refusal(): string | null {
    const taken = this.store.lease.take(this.owner, this.staleMs);
    if (!taken.ok) {
      this.stopBeating();
      return `Another Pressroom process (${taken.pid} on ${taken.host}) publishes this workspace; this one does not`;
    }
    this.token = taken.token;
    if (taken.fresh) this.store.outbox.recoverInterrupted(taken.token);
    this.beat ??= setInterval(() => this.beatOnce(), this.staleMs / 3).unref();
    return null;
  }

  /** Gives the lease up, if this process held it. */
  release(): void {
    const { token } = this;
    this.stopBeating();
    if (token) this.store.lease.release(token);
  }

  /**
   * One beat. A refused one means another process took the lease over; a beat the database
   * refuses (locked past its timeout) is tried again next time, and the next claim checks anyway.
   */
  private beatOnce(): void {
    const { token } = this;
    if (!token) return;
    let held: boolean;
    try {
      held = this.store.lease.beat(token);
    } catch {
      return;
    }
    if (held) return;
    this.stopBeating();
    this.onLost('Another Pressroom process took over publishing this workspace; this one stopped');
  }

  private stopBeating(): void {
    if (this.beat) clearInterval(this.beat);
    this.beat = null;
    this.token = null;
  }
}
