// The publishing lease (Node, main process): one process at a time publishes a workspace file (the
// desktop app, `serve` and `publish --watch` may all open one), by a lease row it beats.
import { randomUUID } from 'node:crypto';
import type { WorkspaceStore } from '../store';

/** A publisher's lease is taken over when its holder has not beaten for this long. */
const LEASE_STALE_MS = 30_000;

export class PublishingLease {
  private readonly owner = `${process.pid}:${randomUUID()}`;
  private beat: NodeJS.Timeout | null = null;

  constructor(private readonly store: WorkspaceStore) {}

  /**
   * Null while this process publishes the workspace, else why not. Taking the lease over from a
   * process that stopped recovers what that one left mid-send.
   */
  refusal(): string | null {
    const taken = this.store.lease.take(this.owner, LEASE_STALE_MS);
    if (!taken.ok)
      return `Another Pressroom process (${taken.pid} on ${taken.host}) publishes this workspace; this one does not`;
    if (taken.fresh) this.store.outbox.recoverInterrupted();
    this.beat ??= setInterval(() => this.store.lease.beat(this.owner), LEASE_STALE_MS / 3).unref();
    return null;
  }

  /** Gives the lease up, if this process held it. */
  release(): void {
    if (!this.beat) return;
    clearInterval(this.beat);
    this.beat = null;
    this.store.lease.release(this.owner);
  }
}
