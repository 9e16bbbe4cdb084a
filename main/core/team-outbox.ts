// Every desktop of a team holds the team's scheduled posts in its own outbox (Node, main
// process), not only the desktop that wrote them: if the author's laptop sleeps, another desktop
// claims each post from the team server when it is due (exactly one wins, docs/team.md). A post the
// team server says went out is settled here as published, never sent again.
import { PRIORITY } from '../../shared/domain';
import type { WorkspaceStore } from '../store';
import { TeamStore } from '../store/team';
import type { TeamWorkspace } from '../team-client/workspace';
import { InvalidInput } from './errors';
import type { Outbox } from './outbox';
import type { PostsService } from './services/posts';

export class TeamOutbox {
  private readonly rows: TeamStore;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly outbox: Outbox,
    private readonly posts: PostsService,
    private readonly team: TeamWorkspace,
    now: () => number,
  ) {
    this.rows = new TeamStore(store.db, now);
  }

  /** Looks at every shared post once, then at each one another desktop or the server changes. */
  follow(): () => void {
    this.settle(this.team.sharedPosts());
    return this.team.onSharedPosts((uuids) => this.settle(uuids));
  }

  private settle(uuids: readonly string[]): void {
    this.store.transaction(() => {
      for (const uuid of uuids) {
        const id = this.rows.postIdOf(uuid);
        if (id !== undefined) this.settlePost(uuid, id);
      }
    });
  }

  private settlePost(uuid: string, id: number): void {
    const post = this.store.posts.get(id);
    if (!post) return;
    const result = this.team.resultOf(uuid);
    if (result) {
      // A missed or failed attempt here is settled too: the post did go out.
      const latest = this.store.outbox.latestForPost(id);
      if (latest) this.outbox.publishedElsewhere(latest.id, result.remoteId, result.at);
      return;
    }
    const open = this.outbox.openFor({ postId: id });
    const waiting = open && open.state !== 'sending' ? open : undefined;
    if (post.status === 'scheduled' && post.scheduledAt !== null) {
      if (!open) this.queue(id);
      // Only an item waiting for its time follows the time: Publish now and a hand-off go now.
      else if (waiting?.priority === PRIORITY.due && waiting.dueAt !== post.scheduledAt)
        this.outbox.reschedule(waiting.id, post.scheduledAt);
    } else if (post.status === 'draft' && waiting) this.outbox.cancel(waiting.id);
  }

  /** Queued as the author queued it; one this desktop cannot publish (its pictures) is left to others. */
  private queue(id: number): void {
    try {
      this.posts.enqueuePost(this.store.posts.require(id), 'schedule');
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
    }
  }
}
