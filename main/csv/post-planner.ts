// Where each valid post row of an import goes (Node, main process): fillSlots gives it its bot's
// next free posting slot, and the duplicate-content guard leaves out a row repeating a post of its
// bot or an earlier row (docs/planning.md).
import type { RowError } from '../../shared/domain';
import {
  comparableText,
  describeDuplicate,
  findDuplicate,
  outgoingAt,
} from '../../shared/duplicates';
import type { DuplicateSubject } from '../../shared/duplicates';
import type { WorkspaceStore } from '../store';
import { SlotCursor } from '../store/slots';
import type { ImportOptions } from './import-options';
import type { RowChecker, ValidPost } from './row-checks';

/** A valid row left out, and why. */
export type LeftOut = { warning: RowError };

const DAY_MS = 86_400_000;

/** A row accepted earlier in this import, as the duplicate guard compares it. */
type EarlierRow = DuplicateSubject & { row: number };

/**
 * What fillSlots and the duplicate guard make of each valid post row, in file order: the row with
 * its slot, or left out with a warning. Rows are remembered until written, so no slot is given
 * twice and a file repeating itself is caught as well.
 */
export class PostPlanner {
  private readonly cursor: SlotCursor | null;
  private readonly earlier = new Map<string, EarlierRow[]>();

  constructor(
    private readonly store: WorkspaceStore,
    private readonly options: ImportOptions,
  ) {
    const fill = options.fillSlots;
    this.cursor = fill ? new SlotCursor(store, fill.zone, options.now) : null;
  }

  plan(post: ValidPost, check: RowChecker<'posts'>): ValidPost | LeftOut | RowError[] {
    const fill = this.options.fillSlots;
    let { botId, scheduledAt, zone } = post;
    let filled = false;
    if (this.cursor && fill && scheduledAt === null && !post.publishNow && !post.draft) {
      botId ??= fill.defaultBotId;
      if (botId === null) {
        check.fail(
          'bot',
          'A row without a time needs a bot to fill a posting slot: give it one, or set a default bot',
        );
        return check.errors;
      }
      const next = this.cursor.next(botId);
      if (!next.ok) {
        check.fail('bot', next.reason);
        return check.errors;
      }
      [scheduledAt, zone, filled] = [next.at, fill.zone, true];
    }
    if (!this.options.queue || post.draft || (scheduledAt === null && !post.publishNow))
      return { ...post, botId, scheduledAt, zone, filled };
    if (botId === null) {
      // It would wait in the queue for a bot it can never get.
      check.fail(
        'bot',
        'A post to be queued needs a bot: add a bot column, or choose a bot for rows without one (--bot)',
      );
      return check.errors;
    }
    const at = post.publishNow ? this.options.now : (scheduledAt ?? this.options.now);
    const guard = this.options.duplicates;
    const guarded = guard !== undefined && !guard.allow && guard.windowDays > 0;
    const key = `${botId ?? ''}\u0000${comparableText(post.text)}`;
    if (guarded) {
      const windowMs = guard.windowDays * DAY_MS;
      // The post an earlier import made of this very row (same text, bot and time) is the same
      // post, which the write finds "unchanged"; it is no repeat.
      const other = findDuplicate<DuplicateSubject & { row?: number }>(
        { botId, text: post.text, at },
        [
          ...this.store.posts.goingOut(botId, at - windowMs, at + windowMs),
          ...(this.earlier.get(key) ?? []),
        ].filter((earlier) => earlier.text !== post.text || earlier.scheduledAt !== scheduledAt),
        windowMs,
      );
      if (other) {
        const what =
          other.row === undefined
            ? `post ${other.id}${botId ? ` of ${botId}` : ''}`
            : `row ${other.row}`;
        const message = describeDuplicate(
          what,
          other.status === 'published',
          outgoingAt(other) ?? at,
          zone,
          guard.windowDays,
        );
        return {
          // Worded for every caller: the CLI names its flag, the wizard its option.
          warning: check.problem('text', `${message}; left out`),
        };
      }
    }
    if (botId !== null && scheduledAt !== null) this.cursor?.take(botId, scheduledAt);
    if (guarded) {
      const row: EarlierRow = {
        id: 0, // never stored, so never the candidate itself
        row: post.row,
        botId,
        text: post.text,
        status: 'scheduled',
        scheduledAt,
        publishedAt: post.publishNow ? at : null,
      };
      const same = this.earlier.get(key);
      if (same) same.push(row);
      else this.earlier.set(key, [row]);
    }
    return { ...post, botId, scheduledAt, zone, filled };
  }
}
