// The control document of a team (Node, team server): a view of the database that only the server
// writes (clients' connections to it are read-only). It is rebuilt from the database whenever it
// is loaded, so a server killed between a commit and the document's update shows the commit again.
import type * as Y from 'yjs';
import {
  CONTROL_AUDIT,
  CONTROL_MEMBERS,
  CONTROL_POSTS,
  APPROVAL_SETTING,
  CONTROL_SETTINGS,
} from '../../shared/team-doc';
import type { ControlAuditEntry, ControlPostEntry } from '../../shared/team-doc';
import type { TeamApprovals } from './approvals';
import { TeamAudit } from './audit';
import type { TeamDb } from './db';
import type { TeamLeases } from './lease';
import type { TeamMembers } from './members';

/** The audit entries the document carries; the full log stays in the database. */
const AUDIT_SHOWN = 1000;

export class TeamControl {
  private readonly audit: TeamAudit;

  constructor(
    db: TeamDb,
    now: () => number,
    private readonly leases: TeamLeases,
    private readonly approvals: TeamApprovals,
    private readonly members: TeamMembers,
  ) {
    this.audit = new TeamAudit(db, now);
  }

  /** Brings a loaded control document (as stored, or empty) up to the database. */
  fill(teamId: string, doc: Y.Doc): void {
    doc.transact(() => {
      const posts = new Set(this.leases.all(teamId).map((lease) => lease.post_uuid));
      for (const post of this.approvals.posts(teamId)) posts.add(post);
      for (const post of posts) this.reflectPost(teamId, doc, post);
      this.reflectSettings(teamId, doc);
      this.appendAudit(teamId, doc);
      this.writeMembers(teamId, doc);
    });
  }

  /**
   * Writes these posts' entries, the settings, and the audit entries the document lacks, in one
   * Yjs transaction: one stored update, one message to each desktop.
   */
  reflect(teamId: string, doc: Y.Doc, posts: readonly string[]): void {
    doc.transact(() => {
      for (const post of posts) this.reflectPost(teamId, doc, post);
      this.reflectSettings(teamId, doc);
      this.appendAudit(teamId, doc);
      this.writeMembers(teamId, doc);
    });
  }

  private reflectPost(teamId: string, doc: Y.Doc, post: string): void {
    const lease = this.leases.row(teamId, post);
    const approval = this.approvals.row(teamId, post);
    const entry: ControlPostEntry = {
      approval: approval?.state ?? 'draft',
      author: approval?.author ?? null,
      approvalBy: approval?.changed_by ?? null,
      approvalAt: approval?.changed_at ?? null,
      lease:
        lease?.holder_member && lease.holder_device
          ? {
              holder: lease.holder_member,
              device: lease.holder_device,
              epoch: lease.epoch,
              expiresAt: lease.expires_at,
            }
          : null,
      result:
        lease?.remote_id && lease.published_at !== null
          ? { remoteId: lease.remote_id, at: lease.published_at, by: lease.published_by ?? '' }
          : null,
    };
    const entries = doc.getMap<ControlPostEntry>(CONTROL_POSTS);
    // Unchanged entries are left alone, so that loading the stored document writes little.
    if (JSON.stringify(entries.get(post)) !== JSON.stringify(entry)) entries.set(post, entry);
  }

  private reflectSettings(teamId: string, doc: Y.Doc): void {
    const settings = doc.getMap(CONTROL_SETTINGS);
    const approval = this.approvals.setting(teamId);
    if (JSON.stringify(settings.get(APPROVAL_SETTING)) !== JSON.stringify(approval))
      settings.set(APPROVAL_SETTING, approval);
  }

  /** Names only (a team has a handful): an invite made since shows on the next reflection. */
  private writeMembers(teamId: string, doc: Y.Doc): void {
    const names = doc.getMap<string>(CONTROL_MEMBERS);
    for (const member of this.members.list(teamId))
      if (names.get(member.id) !== member.name) names.set(member.id, member.name);
  }

  private appendAudit(teamId: string, doc: Y.Doc): void {
    const log = doc.getArray<ControlAuditEntry>(CONTROL_AUDIT);
    const last = log.length > 0 ? log.get(log.length - 1).seq : 0;
    const fresh = this.audit.latestAfter(teamId, last, AUDIT_SHOWN);
    if (fresh.length > 0) log.push(fresh);
    // The document is stored and synced whole: it keeps the latest entries, the database all.
    if (log.length > AUDIT_SHOWN) log.delete(0, log.length - AUDIT_SHOWN);
  }
}
