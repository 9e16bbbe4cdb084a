// Posts (Node, main process): adding, editing, queueing, listing and deleting posts, what locks a
// post against change, and the duplicate guard every way a post is queued goes through.
import type { CheckedInput } from '../../../shared/contract';
import type { LocalPost } from '../../../shared/domain';
import { PRIORITY, postLockReason } from '../../../shared/domain';
import { describeDuplicate, findDuplicate, outgoingAt } from '../../../shared/duplicates';
import type { DuplicateCandidate } from '../../../shared/duplicates';
import { systemTimeZone, toInstant } from '../../../shared/time';
import type { PostsStore } from '../../store/posts';
import type { Transactional } from '../../store/transaction';
import { DuplicateContent, InvalidInput, NotAllowed } from '../errors';
import type { CoreEvents } from '../events';
import type { Outbox } from '../outbox';
import type { MediaService } from './media';
import type { SettingsService } from './settings';

const DAY_MS = 86_400_000;

export type QueueMode = 'schedule' | 'publish_now' | 'hand_off';

/** What the posts service reads and writes of the store; the outbox it reaches through its owner. */
export interface PostsData extends Transactional {
  posts: PostsStore;
}

export class PostsService {
  constructor(
    private readonly store: PostsData,
    private readonly outbox: Outbox,
    private readonly now: () => number,
    private readonly events: CoreEvents,
    private readonly settings: SettingsService,
    private readonly media: MediaService,
    /** Why a team post must wait for an approver before it goes out (none in a workspace of one). */
    private readonly approvalWait: (post: LocalPost) => string | undefined = () => undefined,
  ) {}

  addPost(request: CheckedInput<'addPost'>): LocalPost {
    const zone = request.zone ?? systemTimeZone();
    let scheduledAt: number | null = null;
    if (request.at !== undefined) {
      const instant = toInstant(request.at, zone);
      if (!instant.ok) throw new InvalidInput([{ field: 'at', message: instant.reason }]);
      scheduledAt = instant.ms;
    }
    const needsTime = request.mode === 'schedule' || request.mode === 'hand_off';
    if (needsTime && scheduledAt === null) {
      throw new InvalidInput([
        {
          field: 'at',
          message: `is required to ${request.mode === 'hand_off' ? 'hand off' : 'schedule'} a post`,
        },
      ]);
    }
    if (needsTime && scheduledAt !== null && scheduledAt <= this.now()) {
      throw new InvalidInput([
        { field: 'at', message: 'is in the past; publish now instead, or pick a later time' },
      ]);
    }
    const added = this.store.transaction(() => {
      const botId = request.botId ?? this.settings.defaultBotId();
      if (request.mode !== 'draft') {
        const at = request.mode === 'publish_now' ? this.now() : (scheduledAt ?? this.now());
        this.guardDuplicate({ botId, text: request.text, at }, request.allowDuplicate);
      }
      const post = this.store.posts.create({
        botId,
        text: request.text,
        mediaUrls: request.mediaUrls,
        scheduledAt,
        zone,
      });
      if (request.mode !== 'draft') this.enqueuePost(post, request.mode);
      return this.store.posts.require(post.id);
    });
    // Every window showing posts follows, not only the one that added it.
    this.events.emit({ type: 'changed', what: 'posts' });
    return added;
  }

  /**
   * Puts a post in the outbox (an unsettled earlier attempt is reopened, not doubled); `afresh`
   * supersedes a failed or missed attempt (see Outbox.queuePost).
   */
  enqueuePost(post: LocalPost, mode: QueueMode, afresh = false): void {
    this.requirePublishable(post.mediaUrls);
    const now = this.now();
    this.outbox.queuePost(
      post.id,
      {
        priority:
          mode === 'publish_now'
            ? PRIORITY.user
            : mode === 'hand_off'
              ? PRIORITY.handOff
              : PRIORITY.due,
        dueAt: mode === 'schedule' ? (post.scheduledAt ?? now) : now,
        payload: mode === 'hand_off' ? { handOff: true } : {},
      },
      afresh,
    );
  }

  /** Refuses to queue uploaded pictures the publisher could not put on the web. */
  private requirePublishable(mediaUrls: readonly string[]): void {
    const problem = this.media.publishProblem(mediaUrls);
    if (problem) throw new InvalidInput([problem]);
  }

  /** The post `id`, refused by name when it can no longer be changed. */
  editablePost(id: number): LocalPost {
    const post = this.requirePost(id);
    const locked = postLockReason(post);
    if (locked) throw new NotAllowed(`Post ${id} cannot be changed. ${locked}.`);
    return post;
  }

  /** Edits a post that has not gone out; a scheduled one keeps its place, at its new time. */
  updatePost(request: CheckedInput<'updatePost'>): LocalPost {
    return this.store.transaction(() => {
      const post = this.editablePost(request.id);
      const zone = request.zone ?? post.zone ?? systemTimeZone();
      let scheduledAt = post.scheduledAt;
      if (request.at === null) scheduledAt = null;
      else if (request.at !== undefined) {
        const instant = toInstant(request.at, zone);
        if (!instant.ok) throw new InvalidInput([{ field: 'at', message: instant.reason }]);
        scheduledAt = instant.ms;
      }
      const open = this.outbox.openFor({ postId: post.id });
      // A scheduled post's item waits for its time, and moves with it.
      const waiting = open?.priority === PRIORITY.due ? open : undefined;
      if (waiting && scheduledAt === null)
        throw new InvalidInput([
          { field: 'at', message: 'a scheduled post needs a time; unschedule it first' },
        ]);
      if (open && request.mediaUrls) this.requirePublishable(request.mediaUrls);
      const botId = request.botId === undefined ? post.botId : request.botId;
      const text = request.text ?? post.text;
      // A queued post is checked again when what the guard compares changes, and only then.
      if (open && (text !== post.text || botId !== post.botId || scheduledAt !== post.scheduledAt))
        this.guardDuplicate(
          { id: post.id, botId, text, at: scheduledAt ?? this.now() },
          request.allowDuplicate,
        );
      const updated = this.store.posts.update(post.id, {
        ...(request.text !== undefined ? { text: request.text } : {}),
        ...(request.botId !== undefined ? { botId: request.botId } : {}),
        ...(request.mediaUrls !== undefined ? { mediaUrls: request.mediaUrls } : {}),
        scheduledAt,
        zone,
      });
      if (waiting && scheduledAt !== null && scheduledAt !== post.scheduledAt)
        this.outbox.reschedule(waiting.id, scheduledAt);
      else this.outbox.postEdited();
      return updated;
    });
  }

  /**
   * Schedules, publishes now or hands off a draft, or a post that failed or was missed; publishes
   * a scheduled post now instead of at its time (its waiting item goes now: never a second one).
   */
  queuePost(input: CheckedInput<'queuePost'>): LocalPost {
    const { id, mode, allowDuplicate } = input;
    return this.store.transaction(() => {
      const post = this.editablePost(id);
      const open = this.outbox.openFor({ postId: id });
      const waiting = open?.state === 'queued' && open.priority === PRIORITY.due;
      if (open && !(mode === 'publish_now' && waiting))
        throw new NotAllowed(`Post ${id} is queued already (queue item ${open.id})`);
      const unapproved = mode === 'publish_now' ? this.approvalWait(post) : undefined;
      if (unapproved) throw new NotAllowed(unapproved);
      if (mode !== 'publish_now' && (post.scheduledAt === null || post.scheduledAt <= this.now())) {
        throw new InvalidInput([
          { field: 'at', message: 'pick a time in the future first, or publish now' },
        ]);
      }
      const at = mode === 'publish_now' ? this.now() : (post.scheduledAt ?? this.now());
      this.guardDuplicate({ id, botId: post.botId, text: post.text, at }, allowDuplicate);
      if (open) this.outbox.publishNow(open.id);
      else this.enqueuePost(post, mode, true);
      return this.store.posts.require(id);
    });
  }

  /**
   * Refuses a post that would go out at `candidate.at` with the text of another counted post of
   * its bot within the window (shared/duplicates.ts), unless the caller insists.
   */
  guardDuplicate(candidate: DuplicateCandidate, allowed: boolean): void {
    const days = this.settings.windowDays();
    if (allowed || days === 0) return;
    const windowMs = days * DAY_MS;
    const near = this.store.posts.goingOut(
      candidate.botId,
      candidate.at - windowMs,
      candidate.at + windowMs,
    );
    const other = findDuplicate(candidate, near, windowMs);
    if (!other) return;
    const at = outgoingAt(other) ?? candidate.at;
    throw new DuplicateContent(
      describeDuplicate(
        `post ${other.id}${other.botId ? ` of ${other.botId}` : ''}`,
        other.status === 'published',
        at,
        this.settings.zone(),
        days,
      ),
      {
        postId: other.id,
        botId: other.botId,
        status: other.status,
        text: other.text,
        at,
        requestedAt: candidate.at,
        windowDays: days,
      },
    );
  }

  getPost(input: CheckedInput<'getPost'>): LocalPost {
    return this.requirePost(input.id);
  }

  listPosts(input: CheckedInput<'listPosts'>): LocalPost[] {
    const filter = input;
    return this.store.posts.list({
      ...(filter.from !== undefined ? { from: filter.from } : {}),
      ...(filter.to !== undefined ? { to: filter.to } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.unscheduled ? { unscheduled: true } : {}),
    });
  }

  /**
   * Deletes a post that never went out: a draft, one that failed or was missed, or a scheduled one
   * whose first attempt has not begun (taken out of the queue in the same transaction).
   */
  deletePost(input: CheckedInput<'deletePost'>): { removed: number } {
    const { id } = input;
    const post = this.requirePost(id);
    this.store.transaction(() => {
      this.takeOutOfQueue(post);
      if (!this.store.posts.remove(id))
        throw new NotAllowed(
          `Post ${id} cannot be deleted. ${postLockReason(post) ?? `It is ${post.status}`}.`,
        );
    });
    this.events.emit({ type: 'changed', what: 'posts' });
    return { removed: 1 };
  }

  /** Takes a scheduled post out of the queue: a draft again, at the same time. */
  moveToDrafts(input: CheckedInput<'moveToDrafts'>): LocalPost {
    const { id } = input;
    const post = this.requirePost(id);
    if (post.status !== 'draft') {
      if (post.status !== 'scheduled')
        throw new NotAllowed(
          `Post ${id} is ${post.status}; only a scheduled post can move back to the drafts`,
        );
      this.store.transaction(() => this.takeOutOfQueue(post));
      this.events.emit({ type: 'changed', what: 'posts' });
    }
    return this.requirePost(id);
  }

  private requirePost(id: number): LocalPost {
    const post = this.store.posts.get(id);
    if (!post) throw new InvalidInput([{ field: 'id', message: `no post ${id}` }]);
    return post;
  }

  /**
   * Cancels a post's queue item while nothing of it has been sent; an item being sent, or whose
   * last attempt's outcome is still to be settled, stays, so a post never goes out unseen.
   */
  private takeOutOfQueue(post: LocalPost): void {
    const item = this.outbox.openFor({ postId: post.id });
    if (!item) return;
    if (item.state !== 'queued' || item.attempts > 0 || item.outcomeUnknown)
      throw new NotAllowed(
        `Post ${post.id} is being sent or retried; cancel it in the Queue once its attempt is settled`,
      );
    this.outbox.cancel(item.id);
  }
}
