// Approvals from this desktop (Node): transitions, comments and the log, asked of the team server,
// which alone decides. A transition asked while the server cannot be reached waits in the
// workspace file ("waiting to sync") and is sent on reconnect, applied or refused with its reason;
// a lost answer is unknown, never failed: the transition waits and is sent again, and an answer
// saying the post already is in the state asked means it was applied.
import { approvalWaitSentence } from '../../shared/team';
import type { ApprovalSetting, ApprovalState, TeamMember, TeamRefusal } from '../../shared/team';
import { APPROVAL_SETTING, CONTROL_POSTS, CONTROL_SETTINGS } from '../../shared/team-doc';
import type { ControlPostEntry } from '../../shared/team-doc';
import type { TeamPendingStore } from '../store/team-pending';
import { TeamRequestUnknown } from './connection';
import type { TeamConnection, TeamRequestResult } from './connection';
import { followReviewNotices } from './review-notices';
import type { ReviewNotice } from './review-notices';

export interface TransitionAsk {
  post: string;
  from: ApprovalState;
  to: ApprovalState;
  comment?: string;
}

export type TransitionOutcome =
  | { kind: 'applied'; state: ApprovalState; pastDue: number | null }
  | { kind: 'waiting' }
  | { kind: 'refused'; code: TeamRefusal; reason: string };

/** How long a process that just opened the workspace waits for the server's states. */
const SETTLE_MS = 3000;

export class TeamReview {
  private syncing = false;
  private settledOnce = false;
  private member: TeamMember | undefined;
  private readonly noticeListeners = new Set<(notice: ReviewNotice) => void>();

  constructor(
    private readonly connection: TeamConnection,
    private readonly pending: TeamPendingStore,
  ) {
    followReviewNotices(
      connection,
      () =>
        this.me().then(
          (answer) => (answer.ok ? answer.value.member : undefined),
          () => undefined,
        ),
      (notice) => {
        for (const listener of this.noticeListeners) listener(notice);
      },
    );
  }

  /** Who this desktop's member is, asked of the server once (a role does not change under a token). */
  async me(): Promise<TeamRequestResult<'me'>> {
    if (this.member) return { ok: true, value: { member: this.member } };
    const answer = await this.connection.request({ kind: 'me' });
    if (answer.ok) this.member = answer.value.member;
    return answer;
  }

  /** Follows the posts sent to me for review or back to me by someone else; returns the way to stop. */
  onNotice(listener: (notice: ReviewNotice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  /**
   * Waits (briefly, once) for the control document: a process that has just opened the workspace,
   * as the CLI does, knows no state until then. Offline, it goes on without, and what it asks waits.
   */
  async settled(): Promise<void> {
    // Synced once in this process: the states are here (and offline, kept from before).
    if (this.settledOnce || this.connection.refusal || this.connection.lastSyncedAt !== null)
      return;
    await this.connection.whenSynced(SETTLE_MS).then(
      () => {
        this.settledOnce = true;
      },
      () => undefined,
    );
  }

  /** The post's entry in the control document as this desktop last saw it. */
  entry(post: string): ControlPostEntry | undefined {
    return this.connection.control.getMap<ControlPostEntry>(CONTROL_POSTS).get(post);
  }

  /** Each post out of draft (in review, sent back, approved) as this desktop last saw it. */
  *reviewed(): Generator<[post: string, state: ApprovalState]> {
    for (const [post, entry] of this.connection.control.getMap<ControlPostEntry>(CONTROL_POSTS))
      if (entry.approval !== 'draft') yield [post, entry.approval];
  }

  /** The approval state this desktop saw last: what a transition says it moves from. */
  seenState(post: string): ApprovalState {
    return this.entry(post)?.approval ?? 'draft';
  }

  /**
   * Why the post may not go out yet for want of an approver's yes, as this desktop last saw the
   * team's setting (and the post's state, unless given); the team server judges again at the claim.
   */
  approvalWait(
    post: string,
    botId: string | null,
    state: ApprovalState = this.seenState(post),
  ): string | undefined {
    const setting = this.connection.control
      .getMap<ApprovalSetting>(CONTROL_SETTINGS)
      .get(APPROVAL_SETTING);
    if (!setting?.required) return undefined;
    if (setting.bots && !(botId !== null && setting.bots.includes(botId))) return undefined;
    return state === 'approved' ? undefined : approvalWaitSentence(state);
  }

  async transition(ask: TransitionAsk): Promise<TransitionOutcome> {
    const { refusal } = this.connection;
    if (refusal && !this.connection.refusedForVersion)
      return { kind: 'refused', code: 'forbidden', reason: refusedDesktop(refusal) };
    if (this.connection.connected) {
      try {
        return await this.send(ask);
      } catch (error) {
        if (!(error instanceof TeamRequestUnknown)) throw error;
      }
    }
    this.pending.add(ask);
    return { kind: 'waiting' };
  }

  /** Sends the transitions waiting here, oldest first; stops at the first answer that does not come. */
  async sync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    try {
      const { refusal } = this.connection;
      // Another protocol refuses the desktop, not its moves: they wait for the update.
      if (this.connection.refusedForVersion) return;
      for (const waiting of this.pending.waiting()) {
        if (refusal) {
          this.pending.refused(waiting.id, refusedDesktop(refusal));
          continue;
        }
        // After a reconnection the desktop's edits go out with the sync: a move sent before
        // they arrive would be judged by a server that may not hold the post yet. The next
        // tick tries again.
        if (!this.connection.caughtUp) return;
        const ask = { post: waiting.post, from: waiting.from, to: waiting.to };
        const outcome = await this.send(
          waiting.comment === null ? ask : { ...ask, comment: waiting.comment },
        ).catch((error: unknown) => {
          if (error instanceof TeamRequestUnknown) return undefined;
          throw error;
        });
        if (!outcome) return;
        if (outcome.kind === 'refused') this.pending.refused(waiting.id, outcome.reason);
        else this.pending.applied(waiting.id);
      }
    } finally {
      this.syncing = false;
    }
  }

  private async send(ask: TransitionAsk): Promise<TransitionOutcome> {
    const answer = await this.connection.request({ kind: 'transition', ...ask });
    if (answer.ok) return { kind: 'applied', ...answer.value };
    // Our earlier send whose answer was lost may be what moved it: the state asked holds.
    if (answer.code === 'stale_state' && this.entry(ask.post)?.approval === ask.to)
      return { kind: 'applied', state: ask.to, pastDue: null };
    return { kind: 'refused', code: answer.code, reason: answer.error };
  }
}

function refusedDesktop(reason: string): string {
  return `The team server refused this desktop: ${reason}`;
}
