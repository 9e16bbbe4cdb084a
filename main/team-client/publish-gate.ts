// Exactly one publisher per team post (Node): before this desktop's outbox sends a shared post it
// claims the post on the team server and gets an epoch; it sends with a key every desktop derives
// alike (UUID + revision, also the client_reference), renews while sending, and reports published
// under its epoch. A desktop that cannot reach the team server sends no team post.
import { PRIORITY } from '../../shared/domain';
import type { OutboxItem } from '../../shared/domain';
import { teamIdempotencyKey } from '../../shared/team';
import { postsMap, readPostFields } from '../../shared/team-doc';
import type { PublishDecision, PublishGate } from '../queue/publish-gate';
import type { TeamStore } from '../store/team';
import { TeamRequestUnknown } from './connection';
import type { TeamWorkspace } from './workspace';

export const OFFLINE_REASON =
  'The team server cannot be reached: team posts wait for it, so that no post goes out twice';

export class TeamPublishGate implements PublishGate {
  constructor(
    private readonly workspace: TeamWorkspace,
    private readonly team: TeamStore,
  ) {}

  async admit(item: OutboxItem): Promise<PublishDecision> {
    const uuid =
      item.kind === 'create_post' && item.postId !== null
        ? this.team.uuidOfPost(item.postId)
        : undefined;
    const record = uuid ? postsMap(this.workspace.doc).get(uuid) : undefined;
    if (!uuid || !record) return { kind: 'local' };
    const { connection } = this.workspace;
    const result = this.workspace.resultOf(uuid);
    if (result) return { kind: 'sent', remoteId: result.remoteId };
    if (!connection.connected) return { kind: 'wait', reason: OFFLINE_REASON };
    this.workspace.pushLocalChanges(); // the server judges the post as this desktop last saw it
    try {
      const claimed = await connection.request({
        kind: 'claim',
        post: uuid,
        device: this.workspace.device,
        now: item.priority === PRIORITY.user,
      });
      if (!claimed.ok) return { kind: 'wait', reason: claimed.error };
      const { epoch, leaseMs, earlierHolder, firstClaimedMsAgo } = claimed.value;
      const renewal = setInterval(() => {
        connection.request({ kind: 'renew', post: uuid, epoch }).catch(() => undefined);
      }, leaseMs / 3);
      return {
        kind: 'go',
        key: teamIdempotencyKey(uuid, readPostFields(record).revision),
        lookFirst: earlierHolder,
        sentNoEarlierThanMsAgo: firstClaimedMsAgo,
        finish: async (remoteId) => {
          clearInterval(renewal);
          // A lost answer is harmless: the next holder looks the post up by its reference first.
          if (remoteId)
            await connection
              .request({ kind: 'published', post: uuid, epoch, remoteId })
              .catch(() => undefined);
        },
        abandon: async () => {
          clearInterval(renewal);
          await connection.request({ kind: 'release', post: uuid, epoch }).catch(() => undefined);
        },
      };
    } catch (error) {
      if (error instanceof TeamRequestUnknown) return { kind: 'wait', reason: OFFLINE_REASON };
      throw error;
    }
  }
}

/** The gate of a team workspace opened without its member token: team posts wait, never go. */
export class TokenlessTeamGate implements PublishGate {
  constructor(private readonly team: TeamStore) {}

  async admit(item: OutboxItem): Promise<PublishDecision> {
    const shared =
      item.kind === 'create_post' && item.postId !== null && this.team.uuidOfPost(item.postId);
    return shared
      ? {
          kind: 'wait',
          reason:
            'This workspace is in a team but has no member token here: join again with team join',
        }
      : { kind: 'local' };
  }
}
