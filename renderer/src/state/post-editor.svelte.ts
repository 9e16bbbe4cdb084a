// The post editor's state (browser): one entry point over the post's fields (with their checks),
// its media list and AI assist, and the calls each button makes — save in a mode, add to queue or
// share next by the bot's posting schedule, delete with undo, move to drafts, duplicate — through
// the duplicate guard. The dialog and its parts only bind to this.
import type { CallResult } from '../../../shared/answers';
import type { LocalPost, SharedNext } from '../../../shared/domain';
import { formatDateTime } from '../lib/format';
import type { Overrule } from './duplicates.svelte';
import { PostApprovalState } from './post-approval.svelte';
import { PostAssist } from './post-assist.svelte';
import { PostFields } from './post-fields.svelte';
import type { EditorStart, PostMode } from './post-fields.svelte';
import type { QueueAction } from './post-words';
import { deletePost, moveToDrafts } from './post-actions';
import { PostMedia } from './post-media.svelte';
import { NOT_GONE_OUT } from './post-status';
import type { Shell } from './shell.svelte';
import type { TeamHistoryEntry, TeamStatus } from '../../../shared/team';

/** Plain names: "hand off" is what API v1 calls letting the platform publish it at its time. */
export const POST_MODE_LABELS: Record<PostMode, string> = {
  draft: 'Save draft',
  schedule: 'Schedule',
  publish_now: 'Publish now',
  hand_off: 'Schedule on the platform',
};

const MODE_DONE: Record<PostMode, string> = {
  draft: 'Draft saved',
  schedule: 'Post scheduled',
  publish_now: 'Post queued to publish now',
  hand_off: 'Post queued for the platform to publish at its time',
};

/** What a mode that needs saying does, in a few words beside its name in the menu. */
export const MODE_HINTS: Partial<Record<PostMode, string>> = {
  hand_off: 'it goes out even with this computer off',
};

/** What each queue button does, in a few words beside its name in the menu. */
export const QUEUE_HINTS: Record<QueueAction, string> = {
  add: 'next free slot',
  next: 'the others move one slot later',
};

/** What the user is told once a post is in the queue: when it goes out, and what moved for it. */
export function queuedMessage(action: QueueAction, placed: SharedNext, zone: string): string {
  const when = (ms: number) => `${formatDateTime(ms, zone)} (${zone})`;
  const goes = `it goes out ${when(placed.post.scheduledAt ?? Date.now())}`;
  if (action === 'add') return `Added to the queue: ${goes}`;
  const { moved } = placed;
  if (moved.length === 0) return `First in the queue: ${goes}`;
  // A long run of moved posts is summed up after the first few.
  const shown = moved
    .slice(0, 3)
    .map((move) => `post ${move.id} to ${formatDateTime(move.to, zone)}`);
  const rest = moved.length - shown.length;
  const count = moved.length === 1 ? '1 queued post' : `${moved.length} queued posts`;
  const list = `${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
  return `First in the queue: ${goes}. ${count} moved one slot later: ${list}`;
}

export class PostEditor {
  readonly media: PostMedia;
  readonly fields: PostFields;
  readonly ai: PostAssist;
  busy = $state(false);

  constructor(
    private readonly shell: Shell,
    start: EditorStart = {},
  ) {
    this.media = new PostMedia(shell.api, start.post?.mediaUrls);
    this.fields = new PostFields(shell, this.media, start);
    this.ai = new PostAssist(shell, this.fields);
  }

  /** This desktop in its team (null for a workspace of one): who else is here, who edits what. */
  get team(): TeamStatus | null {
    return this.shell.status?.team ?? null;
  }

  /** The approval of the post open here, in a team workspace (null: a new post, or no team). */
  approval(): PostApprovalState | null {
    const post = this.fields.post;
    return post && this.team ? new PostApprovalState(this.shell, post.id) : null;
  }

  /** Who in the team changed post `postId`, what and when (server time), oldest first. */
  readTeamHistory(postId: number): Promise<CallResult<TeamHistoryEntry[]>> {
    return this.shell.api.getPostTeamHistory({ postId });
  }

  /** The zone the editor shows times in: the user's setting. */
  get zone(): string {
    return this.shell.timezone;
  }

  /**
   * Tells the core which post is open here, so a team's other desktops show who edits it;
   * answers the way to tell it the editor closed. A workspace of one tells nothing.
   */
  announceEditing(): () => void {
    const postId = this.fields.post?.id ?? null;
    if (postId === null || !this.shell.status?.team) return () => undefined;
    void this.shell.api.setEditingPost({ postId });
    return () => void this.shell.api.setEditingPost({ postId: null });
  }

  /** What Publish now asks first of a scheduled post, which would go at its time otherwise. */
  publishNowQuestion(): string | null {
    const post = this.fields.post;
    if (post?.status !== 'scheduled' || post.scheduledAt === null) return null;
    return `Publish now instead of at ${formatDateTime(post.scheduledAt, this.zone)} (${this.zone})?`;
  }

  /** Saves the post the way the button says; returns it once saved (the dialog then closes). */
  async submit(mode: PostMode): Promise<LocalPost | undefined> {
    if (!this.fields.modes.includes(mode) || this.busy) return undefined;
    this.fields.attempt(mode);
    if (this.fields.check(mode).length > 0) return undefined;
    this.busy = true;
    try {
      const saved = await this.save(mode);
      if (saved) this.shell.notices.show('success', MODE_DONE[mode]);
      return saved;
    } finally {
      this.busy = false;
    }
  }

  private async save(mode: PostMode): Promise<LocalPost | undefined> {
    const fields = this.fields;
    const post = fields.post;
    if (!post) {
      // Publishing now ignores a time; sending one would record a time it did not go at.
      const at = mode === 'publish_now' ? undefined : fields.at;
      return this.guarded((overrule) =>
        this.shell.api.addPost({
          ...fields.content(),
          zone: fields.zone,
          mode,
          ...(at ? { at } : {}),
          ...(fields.botId ? { botId: fields.botId } : {}),
          ...overrule,
        }),
      );
    }
    const updated = await this.update(post, { at: fields.at ?? null });
    if (!updated) return undefined;
    // A scheduled post keeps its place in the queue (at its new time) unless it goes now instead.
    const leaves =
      NOT_GONE_OUT.includes(updated.status) ||
      (updated.status === 'scheduled' && mode === 'publish_now');
    if (mode === 'draft' || !leaves) return updated;
    return this.guarded((overrule) => this.shell.api.queuePost({ id: post.id, mode, ...overrule }));
  }

  /** Saves the fields to a post that exists; `at` is left out when the queue picks the time. */
  private async update(
    post: LocalPost,
    when: { at?: string | null },
  ): Promise<LocalPost | undefined> {
    const fields = this.fields;
    const updated = await this.guarded((overrule) =>
      this.shell.api.updatePost({
        id: post.id,
        ...fields.content(),
        ...when,
        zone: fields.zone,
        botId: fields.botId || null,
        ...overrule,
      }),
    );
    if (updated) fields.post = updated;
    return updated;
  }

  /**
   * Puts the post in its bot's queue: its next free slot ("add"), or the front ("next"), saving
   * the fields first for a post that exists. Returns it once placed (the dialog then closes); the
   * notice says when it goes out.
   */
  async queue(action: QueueAction): Promise<LocalPost | undefined> {
    if (this.fields.locked || this.fields.queueBlocked || this.busy) return undefined;
    this.fields.attempt('queue');
    if (this.fields.checkContent().length > 0) return undefined;
    this.busy = true;
    try {
      const placed = await this.place(action);
      if (placed)
        this.shell.notices.show(
          'success',
          queuedMessage(action, placed, this.shell.timezone),
          10_000,
        );
      return placed?.post;
    } finally {
      this.busy = false;
    }
  }

  private async place(action: QueueAction): Promise<SharedNext | undefined> {
    const fields = this.fields;
    const post = fields.post;
    let target: { id: number } | { text: string; mediaUrls: string[]; botId?: string };
    if (post) {
      if (!(await this.update(post, {}))) return undefined;
      target = { id: post.id };
    } else target = { ...fields.content(), ...(fields.botId ? { botId: fields.botId } : {}) };
    if (action === 'next')
      return this.guarded((overrule) => this.shell.api.shareNext({ ...target, ...overrule }));
    const queued = await this.guarded((overrule) =>
      this.shell.api.addToQueue({ ...target, ...overrule }),
    );
    return queued && { post: queued, moved: [] };
  }

  /**
   * A call that may send the post out, through the duplicate guard: a repeat asks the user first.
   * Declining leaves the editor as it was, with no message.
   */
  private async guarded<T>(
    call: (overrule: Overrule) => Promise<CallResult<T>>,
  ): Promise<T | undefined> {
    const result = await this.shell.duplicates.run(call);
    return result ? this.fields.settle(result) : undefined;
  }

  /**
   * Deletes a post that never went out (or is only scheduled); true once it is gone. The notice
   * offers Undo for a while, which writes the post again as it was.
   */
  async remove(): Promise<boolean> {
    const post = this.fields.post;
    if (!post || !this.fields.canDelete || this.busy) return false;
    return !!(await this.call(() => deletePost(this.shell, post)));
  }

  /** Takes a scheduled post out of the queue, keeping it as a draft at its time. */
  async moveToDrafts(): Promise<boolean> {
    const post = this.fields.post;
    if (!post || !this.fields.canMoveToDrafts || this.busy) return false;
    return !!(await this.call(() => moveToDrafts(this.shell, post)));
  }

  /**
   * Turns the editor into a new post with this one's words, media, bot and time: nothing is saved
   * until the user saves the copy (and the duplicate guard asks if it repeats too soon).
   */
  duplicate(): void {
    if (!this.fields.post) return;
    this.fields.detach();
    this.shell.notices.show('info', 'A copy of the post: change what you like, then save it');
  }

  /** A call that needs no duplicate guard; its failure is shown in the editor. */
  private async call<T>(run: () => Promise<CallResult<T>>): Promise<T | undefined> {
    this.busy = true;
    this.fields.failure = null;
    try {
      const result = await run();
      if (result.ok) return result.value;
      this.fields.failure = result.error.message;
      return undefined;
    } finally {
      this.busy = false;
    }
  }
}
