// Approvals in a team workspace (Node, main process): submit, approve, send back with a comment,
// comment, what waits for me, a post's approval and the team's log. The team server decides each
// transition (main/team/approvals.ts); this side names the post by its team UUID, says what state
// it saw, and keeps a transition asked offline waiting to sync (team-client/review.ts).
import type { CheckedInput } from '../../../shared/contract';
import type {
  PendingReviewStep,
  ReviewItem,
  ReviewResults,
  ReviewStep,
} from '../../../shared/review';
import type { ApprovalState, TeamMember } from '../../../shared/team';
import { postsMap, readPostFields } from '../../../shared/team-doc';
import { teamLogCsv } from '../../csv/team-log';
import type { PostsStore } from '../../store/posts';
import { TeamRequestUnknown } from '../../team-client/connection';
import type { TeamWorkspace } from '../../team-client/workspace';
import { NotAllowed } from '../errors';
import type { CoreEvents } from '../events';

const NOT_IN_TEAM =
  'This workspace is not in a team: approvals belong to team workspaces (pressroom team join).';
const UNREACHABLE = 'The team server cannot be reached; try again once it can.';
/** Sent, but no answer came: the server may have kept it, so sending it again could repeat it. */
const LOST_COMMENT =
  "No answer from the team server: the comment may have been kept; look at the post's comments before sending it again.";
const DONE: Record<ApprovalState, string> = {
  draft: 'Moved back to drafts.',
  in_review: 'Sent for review.',
  approved: 'Approved.',
  changes_requested: 'Sent back to its author with your comment.',
};

function minute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export class ReviewService {
  constructor(
    private readonly team: TeamWorkspace | undefined,
    private readonly posts: PostsStore,
    events: CoreEvents,
  ) {
    // A post sent to me or back to me becomes an event (a notification on the desktop).
    team?.review.onNotice(({ post, kind, by }) => {
      const postId = team.postIdOf(post);
      if (postId !== undefined) events.emit({ type: 'review', kind, postId, by });
    });
  }

  submitPost(input: CheckedInput<'submitPost'>): Promise<ReviewStep> {
    return this.move(input.id, 'in_review', input.comment);
  }

  approvePost(input: CheckedInput<'approvePost'>): Promise<ReviewStep> {
    return this.move(input.id, 'approved', input.comment);
  }

  requestChanges(input: CheckedInput<'requestChanges'>): Promise<ReviewStep> {
    return this.move(input.id, 'changes_requested', input.comment);
  }

  async commentOnPost(input: CheckedInput<'commentOnPost'>): Promise<{ at: number }> {
    const team = await this.ready();
    const post = this.uuid(input.id);
    const answer = await this.ask(
      () => team.connection.request({ kind: 'comment', post, text: input.text }),
      LOST_COMMENT,
    );
    return { at: answer.comment.at };
  }

  async listReview(input: CheckedInput<'listReview'>): Promise<ReviewResults['listReview']> {
    const team = await this.ready();
    const me = await this.whoAmI();
    const all: (ReviewItem & { author: string | null })[] = [];
    for (const [uuid, record] of postsMap(team.doc)) {
      const postId = team.postIdOf(uuid);
      if (postId === undefined || readPostFields(record).deletedAt !== null) continue;
      const entry = team.review.entry(uuid);
      all.push({
        postId,
        text: this.posts.get(postId)?.text ?? '',
        state: entry?.approval ?? 'draft',
        since: entry?.approvalAt ?? null,
        author: entry?.author ?? null,
      });
    }
    all.sort((a, b) => (a.since ?? 0) - (b.since ?? 0) || a.postId - b.postId);
    const approves = me.role === 'owner' || me.role === 'approver';
    const shown = (items: typeof all): ReviewItem[] =>
      items.map(({ author: _author, ...item }) => item);
    return {
      waitsForMe: approves ? shown(all.filter((item) => item.state === 'in_review')) : [],
      sentBackToMe: shown(
        all.filter((item) => item.state === 'changes_requested' && item.author === me.id),
      ),
      inState: input.state ? shown(all.filter((item) => item.state === input.state)) : [],
      pending: this.pending(),
    };
  }

  async getPostApproval(
    input: CheckedInput<'getPostApproval'>,
  ): Promise<ReviewResults['getPostApproval']> {
    const team = await this.ready();
    const post = this.uuid(input.id);
    const approval = await this.ask(() => team.connection.request({ kind: 'approval', post }));
    const botId = this.posts.get(input.id)?.botId ?? null;
    return {
      ...approval,
      pending: this.pending().filter((step) => step.postId === input.id),
      publishWait: team.review.approvalWait(post, botId, approval.state) ?? null,
    };
  }

  /** Forgets a step asked here once the server refused it; one still waiting to sync stays. */
  dismissReviewStep(input: CheckedInput<'dismissReviewStep'>): { id: number } {
    const { pending } = this.side();
    if (pending.dismissRefused(input.id)) return input;
    const step = pending.all().find((candidate) => candidate.id === input.id);
    throw new NotAllowed(
      step
        ? 'This step still waits to sync: it can be dismissed once the team server has refused it.'
        : 'This step is no longer here: it was applied or dismissed already.',
    );
  }

  /**
   * The approval state of those of `postIds` out of draft, for the calendar's chips; empty in a
   * workspace of one. Walks the reviewed posts only (few), never every post drawn.
   */
  approvalStates(postIds: readonly number[]): Record<number, ApprovalState> {
    if (!this.team) return {};
    const wanted = new Set(postIds);
    const states: Record<number, ApprovalState> = {};
    for (const [uuid, state] of this.team.review.reviewed()) {
      const postId = this.team.postIdOf(uuid);
      if (postId !== undefined && wanted.has(postId)) states[postId] = state;
    }
    return states;
  }

  async teamLog(input: CheckedInput<'teamLog'>): Promise<ReviewResults['teamLog']> {
    const team = await this.ready();
    const { entries } = await this.ask(() =>
      team.connection.request({
        kind: 'log',
        limit: input.limit,
        ...(input.member ? { member: input.member } : {}),
      }),
    );
    const csv = input.format === 'csv' ? teamLogCsv(entries, (uuid) => team.postIdOf(uuid)) : null;
    return { entries, csv };
  }

  /** Asks the server to move the post from the state this desktop saw to `to`. */
  private async move(id: number, to: ApprovalState, comment?: string): Promise<ReviewStep> {
    const team = await this.ready();
    const post = this.uuid(id);
    const from = team.review.seenState(post);
    const outcome = await team.review.transition({
      post,
      from,
      to,
      ...(comment !== undefined ? { comment } : {}),
    });
    if (outcome.kind === 'refused') throw new NotAllowed(outcome.reason);
    if (outcome.kind === 'waiting')
      return {
        state: from,
        waitingToSync: true,
        pastDue: null,
        message: 'Waiting to sync: the team server cannot be reached; this is sent when it can.',
      };
    const { state, pastDue } = outcome;
    const message =
      pastDue === null
        ? DONE[state]
        : `Approved, but its time (${minute(pastDue)}) has passed: publish it now or pick a new time.`;
    return { state, waitingToSync: false, pastDue, message };
  }

  private pending(): PendingReviewStep[] {
    const team = this.side();
    return team.pending.all().map((step) => ({
      id: step.id,
      postId: team.postIdOf(step.post) ?? null,
      from: step.from,
      to: step.to,
      askedAt: step.askedAt,
      state: step.state,
      reason: step.reason,
    }));
  }

  private async whoAmI(): Promise<TeamMember> {
    const team = this.side();
    return (await this.ask(() => team.review.me())).member;
  }

  /** A read or a comment: answered now, or refused with the server's sentence. */
  private async ask<T>(
    request: () => Promise<{ ok: true; value: T } | { ok: false; error: string }>,
    lostAnswer = UNREACHABLE,
  ): Promise<T> {
    const sent = this.side().connection.connected;
    let answer;
    try {
      answer = await request();
    } catch (error) {
      if (error instanceof TeamRequestUnknown)
        throw new NotAllowed(sent ? lostAnswer : UNREACHABLE);
      throw error;
    }
    if (!answer.ok) throw new NotAllowed(answer.error);
    return answer.value;
  }

  /** The team side, once it has heard the server's states (or could not). */
  private async ready(): Promise<TeamWorkspace> {
    const team = this.side();
    await team.review.settled();
    return team;
  }

  private side(): TeamWorkspace {
    if (!this.team) throw new NotAllowed(NOT_IN_TEAM);
    return this.team;
  }

  private uuid(id: number): string {
    const team = this.side();
    team.pushLocalChanges(); // a post made a moment ago gets its UUID and reaches the document
    const uuid = team.postUuid(id);
    if (uuid === undefined)
      throw new NotAllowed(
        this.posts.get(id) ? `Post ${id} is not shared with the team.` : `There is no post ${id}.`,
      );
    return uuid;
  }
}
