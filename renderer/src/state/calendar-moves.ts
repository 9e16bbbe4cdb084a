// Moving posts on the calendar (browser): a drag, a key or a drop moves a post by wall-clock
// time in the user's zone, shows it there at once, asks first when the duplicate guard objects,
// puts it back if the core refuses, queues a failed or missed post moved into the future, and
// says where it went with Undo, as a delete does.
import { postLockReason } from '../../../shared/domain';
import { Temporal } from 'temporal-polyfill';
import type { Calendar } from '@event-calendar/core';
import type { LocalPost } from '../../../shared/domain';
import { formatDateTime, wallTime } from '../lib/format';
import { NOT_GONE_OUT } from './post-status';
import { readWhen } from './post-when';
import type { Shell } from './shell.svelte';

/** How far a drag moved an event, in wall-clock terms (the calendar's Duration). */
export type WallDelta = Pick<Calendar.Duration, 'years' | 'months' | 'days' | 'seconds'>;

/** ISO 8601 with the zone's offset at that instant, as the core wants times sent. */
export function isoWithOffset(ms: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(zone)
    .toString({ timeZoneName: 'never', smallestUnit: 'minute' });
}

/** The calendar's posts as the moves see them: where they are, and how to show one moved. */
export interface PostBoard {
  readonly posts: readonly LocalPost[];
  /** The zone wall times are read in. */
  readonly zone: string;
  /** Shows a post as it is now (moved, or put back). */
  replace(postId: number, post: LocalPost): void;
  /** Drops the answers of reloads already on their way: they predate the move. */
  dropLoads(): void;
}

export class CalendarMoves {
  constructor(
    private readonly shell: Shell,
    private readonly board: PostBoard,
  ) {}

  /** A post was dragged by `delta` on the calendar: move it by as much wall-clock time. */
  async move(postId: number, delta: WallDelta): Promise<string | null> {
    const post = this.board.posts.find((candidate) => candidate.id === postId);
    if (!post || post.scheduledAt === null) return this.refuse('it is no longer on the calendar');
    const wall = Temporal.PlainDateTime.from(wallTime(post.scheduledAt, this.board.zone))
      .add({ years: delta.years, months: delta.months, days: delta.days })
      .add({ seconds: delta.seconds });
    return this.reschedule(postId, wall.toString({ smallestUnit: 'minute' }));
  }

  /** A post moved by whole days (in the month view, by key), at the same wall time. */
  moveDays(postId: number, days: number): Promise<string | null> {
    return this.move(postId, { years: 0, months: 0, days, seconds: 0 });
  }

  /** A post dropped on a wall day ("2026-11-26"): moved there at the same wall time. */
  async moveToDay(postId: number, day: string): Promise<string | null> {
    const post = this.board.posts.find((candidate) => candidate.id === postId);
    if (!post || post.scheduledAt === null) return this.refuse('it is no longer on the calendar');
    const from = Temporal.PlainDate.from(wallTime(post.scheduledAt, this.board.zone).slice(0, 10));
    const days = from.until(day).days;
    // Dropped where it was: nothing to do (and a locked post has nothing to say).
    return days === 0 ? null : this.moveDays(postId, days);
  }

  private refuse(reason: string): string {
    this.shell.notices.show('error', `Could not move the post: ${reason}`);
    return reason;
  }

  /**
   * Moves a post to a wall time in the user's zone, showing it there at once and putting it back
   * if the core refuses. A failed or missed post moved into the future goes back in the queue.
   * Returns null when moved, else the reason (already shown to the user).
   */
  async reschedule(postId: number, wall: string, now = Date.now()): Promise<string | null> {
    const before = this.board.posts.find((candidate) => candidate.id === postId)?.scheduledAt;
    const refused = await this.moveTo(postId, wall, now);
    if (refused === null && before != null) this.announce(postId, before);
    return refused;
  }

  /** Says where the post now is; Undo moves it back to its old wall time (and says so). */
  private announce(postId: number, before: number): void {
    const zone = this.board.zone;
    const post = this.board.posts.find((candidate) => candidate.id === postId);
    if (!post?.scheduledAt) return;
    this.shell.notices.show(
      'success',
      `Post moved to ${formatDateTime(post.scheduledAt, zone)}`,
      10_000,
      {
        label: 'Undo',
        run: () =>
          void this.moveTo(postId, wallTime(before, zone)).then((refused) => {
            if (refused === null)
              this.shell.notices.show(
                'success',
                `Move undone: back at ${formatDateTime(before, zone)}`,
              );
          }),
      },
    );
  }

  private async moveTo(postId: number, wall: string, now = Date.now()): Promise<string | null> {
    const post = this.board.posts.find((candidate) => candidate.id === postId);
    const zone = this.board.zone;
    if (!post) return this.refuse('it is no longer on the calendar');
    const locked = postLockReason(post);
    if (locked) return this.refuse(locked);
    // A wall time the clocks skip or repeat is refused with the reason, never guessed.
    const when = readWhen(wall.slice(0, 10), wall.slice(11, 16), zone);
    if (when.kind === 'overlap')
      return this.refuse(
        `${wall.replace('T', ' ')} happens twice in ${zone} (the clocks go back); open the post to pick which one you mean`,
      );
    if (when.kind === 'gap' || when.kind === 'invalid') return this.refuse(when.message);
    if (when.kind === 'none') return this.refuse('it needs a date and a time');
    const instant = when;
    this.board.replace(postId, { ...post, scheduledAt: instant.ms, zone });
    // A reload that started before the move must not put the post back where it was.
    this.board.dropLoads();
    const guard = this.shell.duplicates;
    const moved = await guard.run((overrule) =>
      this.shell.api.updatePost({
        id: postId,
        at: isoWithOffset(instant.ms, zone),
        zone,
        ...overrule,
      }),
    );
    if (!moved?.ok) {
      this.board.replace(postId, post);
      // Declined at the duplicate question: the user chose to keep it where it was.
      return moved ? this.refuse(moved.error.message) : 'kept where it was';
    }
    this.board.replace(postId, moved.value);
    const requeue = moved.value.status !== 'draft' && NOT_GONE_OUT.includes(moved.value.status);
    if (!requeue || instant.ms <= now) return null;
    const queued = await guard.run((overrule) =>
      this.shell.api.queuePost({ id: postId, mode: 'schedule', ...overrule }),
    );
    if (!queued) {
      this.shell.notices.show('info', 'Moved; it stays out of the queue, as you chose');
      return null;
    }
    if (!queued.ok) {
      this.shell.notices.show('error', `Moved, but could not schedule it: ${queued.error.message}`);
      return queued.error.message;
    }
    this.board.replace(postId, queued.value);
    return null;
  }
}
