// A team post's history for the editor (Node, main process): who in the team did what to it, from
// the team server's audit log as this desktop last synced it. Outside a team a post has none.
import type { CheckedInput } from '../../../shared/contract';
import type { TeamHistoryEntry } from '../../../shared/team';
import type { TeamWorkspace } from '../../team-client/workspace';
import type { PostsService } from './posts';

export class TeamHistoryService {
  constructor(
    private readonly posts: PostsService,
    private readonly team: TeamWorkspace | undefined,
  ) {}

  getPostTeamHistory(input: CheckedInput<'getPostTeamHistory'>): TeamHistoryEntry[] {
    this.posts.getPost({ id: input.postId }); // an unknown post is refused by name
    return this.team?.postHistory(input.postId) ?? [];
  }
}
