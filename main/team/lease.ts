// The publish lease of each team post (Node, team server), in the database: a claim is a
// conditional write (free or expired, due, not published) that raises the post's epoch; renew and
// published are taken only from the current epoch. Expiry is judged on this server's clock alone.
import type { LeaseGranted, TeamRefusal } from '../../shared/team';
import { inTransaction } from './db';
import type { TeamDb } from './db';
import type { AuthenticatedMember } from './members';
import { TeamAudit } from './audit';

/** What the server reads of a post in the team's data document before a claim. */
export interface PostFacts {
  scheduledAt: number | null;
  status: string;
  deletedAt: number | null;
  botId: string | null;
  /** What an approval holds for: the text, media, time and bot, hashed (hooks.ts). */
  fingerprint: string;
}

export interface LeaseRow {
  post_uuid: string;
  epoch: number;
  holder_member: string | null;
  holder_device: string | null;
  expires_at: number;
  remote_id: string | null;
  published_at: number | null;
  published_by: string | null;
  first_claimed_at: number;
}

export type LeaseOutcome<T> =
  { ok: true; value: T } | { ok: false; code: TeamRefusal; error: string };

function refuse(code: TeamRefusal, error: string): { ok: false; code: TeamRefusal; error: string } {
  return { ok: false, code, error };
}

export class TeamLeases {
  private readonly audit: TeamAudit;

  constructor(
    private readonly db: TeamDb,
    private readonly now: () => number,
    readonly leaseMs: number,
  ) {
    this.audit = new TeamAudit(db, now);
  }

  row(teamId: string, post: string): LeaseRow | undefined {
    return this.db
      .prepare('SELECT * FROM leases WHERE team_id = ? AND post_uuid = ?')
      .get(teamId, post) as LeaseRow | undefined;
  }

  claim(
    member: AuthenticatedMember,
    /** `asked`: the member asked to publish it now, so its time (or having none) is no bar. */
    { post, device, asked }: { post: string; device: string; asked: boolean },
    facts: PostFacts | undefined,
    /** Why the post must still wait (approval), asked inside the claim's transaction. */
    waitReason: (facts: PostFacts) => string | undefined = () => undefined,
  ): LeaseOutcome<LeaseGranted> {
    return inTransaction(this.db, () => {
      const now = this.now();
      if (!facts || facts.deletedAt !== null)
        return refuse('not_found', 'This post is not in the team workspace (or was deleted).');
      if (facts.status !== 'scheduled' || (facts.scheduledAt === null && !asked))
        return refuse('not_due', 'This post is not scheduled.');
      if (!asked && facts.scheduledAt !== null && facts.scheduledAt > now)
        return refuse(
          'not_due',
          `This post is due at ${new Date(facts.scheduledAt).toISOString()} by the team server's clock.`,
        );
      const lease = this.row(member.teamId, post);
      if (lease?.remote_id)
        return refuse('published', `This post was already published (${lease.remote_id}).`);
      const waiting = waitReason(facts);
      if (waiting) return refuse('not_approved', waiting);
      if (lease && lease.holder_member && lease.expires_at > now)
        return refuse('held', 'Another desktop is publishing this post.');
      const epoch = (lease?.epoch ?? 0) + 1;
      const expires = now + this.leaseMs;
      this.db
        .prepare(
          `INSERT INTO leases (team_id, post_uuid, epoch, holder_member, holder_device, expires_at,
             first_claimed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(team_id, post_uuid) DO UPDATE SET epoch = excluded.epoch,
             holder_member = excluded.holder_member, holder_device = excluded.holder_device,
             expires_at = excluded.expires_at`,
        )
        .run(member.teamId, post, epoch, member.id, device, expires, now);
      this.audit.append(member, 'claim', post, `epoch ${epoch} on ${device}`);
      // Any earlier holder may have sent before it was cut off: the new one looks first, as far
      // back as the first claim, told as a duration so that no two machines' clocks are compared.
      const firstClaimedMsAgo = lease ? now - lease.first_claimed_at : 0;
      return {
        ok: true,
        value: { epoch, leaseMs: this.leaseMs, earlierHolder: epoch > 1, firstClaimedMsAgo },
      };
    });
  }

  renew(
    member: AuthenticatedMember,
    post: string,
    epoch: number,
  ): LeaseOutcome<{ leaseMs: number }> {
    return inTransaction(this.db, () => {
      const stale = this.staleness(member, post, epoch);
      if (stale) return stale;
      this.db
        .prepare('UPDATE leases SET expires_at = ? WHERE team_id = ? AND post_uuid = ?')
        .run(this.now() + this.leaseMs, member.teamId, post);
      return { ok: true, value: { leaseMs: this.leaseMs } };
    });
  }

  /** Taken only from the current epoch: a holder cut off (its lease taken over) is refused. */
  published(
    member: AuthenticatedMember,
    post: string,
    epoch: number,
    remoteId: string,
  ): LeaseOutcome<{ remoteId: string }> {
    return inTransaction(this.db, () => {
      const stale = this.staleness(member, post, epoch);
      if (stale) return stale;
      this.db
        .prepare(
          `UPDATE leases SET remote_id = ?, published_at = ?, published_by = ?, holder_member = NULL,
             holder_device = NULL WHERE team_id = ? AND post_uuid = ?`,
        )
        .run(remoteId, this.now(), member.id, member.teamId, post);
      this.audit.append(member, 'published', post, remoteId);
      return { ok: true, value: { remoteId } };
    });
  }

  release(
    member: AuthenticatedMember,
    post: string,
    epoch: number,
  ): LeaseOutcome<Record<string, never>> {
    return inTransaction(this.db, () => {
      const stale = this.staleness(member, post, epoch);
      if (stale) return stale;
      this.db
        .prepare(
          'UPDATE leases SET holder_member = NULL, holder_device = NULL, expires_at = 0 WHERE team_id = ? AND post_uuid = ?',
        )
        .run(member.teamId, post);
      this.audit.append(member, 'release', post, `epoch ${epoch}`);
      return { ok: true, value: {} };
    });
  }

  /**
   * The refusal for a request made under `epoch`, or undefined when it is still the current one.
   * An expired lease nobody took since still fences correctly: no one else can have sent.
   */
  private staleness(member: AuthenticatedMember, post: string, epoch: number) {
    const lease = this.row(member.teamId, post);
    if (!lease) return refuse('not_found', 'This post was never claimed.');
    // The epoch first: a cut-off holder hears that it was cut off, whatever happened since.
    if (lease.epoch !== epoch || lease.holder_member !== member.id)
      return refuse(
        'stale_epoch',
        `This desktop's lease (epoch ${epoch}) was taken over (epoch ${lease.epoch}); it must not send.`,
      );
    if (lease.remote_id)
      return refuse('published', `This post was already published (${lease.remote_id}).`);
    return undefined;
  }

  /** Every lease of a team, for the control document. */
  all(teamId: string): LeaseRow[] {
    return this.db.prepare('SELECT * FROM leases WHERE team_id = ?').all(teamId) as LeaseRow[];
  }
}
