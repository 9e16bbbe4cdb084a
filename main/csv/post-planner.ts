// Where each valid post row of an import goes (Node, main process): fillSlots gives it its bot's
// next free posting slot, and the duplicate-content guard leaves out a row repeating a post of its
// bot or an earlier row (docs/planning.md).
import { createHash } from 'node:crypto';
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

/**
 * A row accepted earlier in this import, as the duplicate guard compares it. Its text is kept only
 * as a digest, and the rows are filed under a digest of their bot and comparable text: kept whole,
 * both held a file's every post (and through them its whole decoded text) until the import ended.
 */
type EarlierRow = Omit<DuplicateSubject, 'text'> & { row: number; textDigest: string };

const digest = (text: string): string => createHash('sha256').update(text).digest('base64');

/** Where a post or row is filed for the guard: its bot and the text the guard compares. */
const fileKey = (botId: string, text: string): string =>
  digest(`${botId}\u0000${comparableText(text)}`);

function fileUnder<T>(files: Map<string, T[]>, key: string, item: T): void {
  const same = files.get(key);
  if (same) same.push(item);
  else files.set(key, [item]);
}

/**
 * What fillSlots and the duplicate guard make of each valid post row, in file order: the row with
 * its slot, or left out with a warning. Rows are remembered until written, so no slot is given
 * twice and a file repeating itself is caught as well.
 */
export class PostPlanner {
  private readonly cursor: SlotCursor | null;
  private readonly earlier = new Map<string, EarlierRow[]>();
  /** The store's posts that a row could repeat, by digest, of the bots read so far (storedPosts). */
  private readonly stored = new Map<string, DuplicateSubject[]>();
  private readonly botsRead = new Set<string>();

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
    const going = { ...post, botId, scheduledAt, zone, filled };
    const guard = this.options.duplicates;
    if (guard === undefined || guard.allow || guard.windowDays <= 0) {
      if (scheduledAt !== null) this.cursor?.take(botId, scheduledAt);
      return going;
    }
    const filed = {
      key: fileKey(botId, post.text),
      textDigest: digest(post.text),
    };
    const other = this.repeated(going, at, filed, guard.windowDays * DAY_MS);
    if (other) {
      const what = other.row === undefined ? `post ${other.id} of ${botId}` : `row ${other.row}`;
      const published = other.status === 'published';
      const message = describeDuplicate(
        what,
        published,
        outgoingAt(other) ?? at,
        zone,
        guard.windowDays,
      );
      // Worded for every caller: the CLI names its flag, the wizard its option.
      return { warning: check.problem('text', `${message}; left out`) };
    }
    if (scheduledAt !== null) this.cursor?.take(botId, scheduledAt);
    const row: EarlierRow = {
      id: 0, // never stored, so never the candidate itself
      row: post.row,
      botId,
      textDigest: filed.textDigest,
      status: 'scheduled',
      scheduledAt,
      publishedAt: post.publishNow ? at : null,
    };
    fileUnder(this.earlier, filed.key, row);
    return going;
  }

  /**
   * The bot's posts filed under `key`, from the bot's posts going out since a window before the
   * import began, read and filed once per bot: a queued row goes out now or later, so no other
   * post can be within its window. Asked of the store for each row, a file of 100,000 posts for
   * one bot read the window's thousands of posts 100,000 times (47 s). What this import writes
   * meanwhile is in `earlier`.
   */
  private storedPosts(botId: string, key: string, windowMs: number): DuplicateSubject[] {
    if (!this.botsRead.has(botId)) {
      this.botsRead.add(botId);
      const since = this.options.now - windowMs;
      for (const post of this.store.posts.goingOut(botId, since, Number.MAX_SAFE_INTEGER))
        fileUnder(this.stored, fileKey(botId, post.text), post);
    }
    return this.stored.get(key) ?? [];
  }

  /** The post or earlier row `post` (going out at `at`) repeats, if any. */
  private repeated(
    post: ValidPost & { botId: string },
    at: number,
    filed: { key: string; textDigest: string },
    windowMs: number,
  ): (DuplicateSubject & { row?: number }) | null {
    const { botId, text, scheduledAt } = post;
    // The post an earlier import made of this very row (same text, bot and time) is the same
    // post, which the write finds "unchanged"; it is no repeat. So is an identical earlier row.
    const posts = this.storedPosts(botId, filed.key, windowMs).filter(
      (earlier) => earlier.text !== text || earlier.scheduledAt !== scheduledAt,
    );
    // Filed under this row's digest, the earlier rows have its comparable text: offered with it.
    const rows = (this.earlier.get(filed.key) ?? [])
      .filter(
        (earlier) => earlier.textDigest !== filed.textDigest || earlier.scheduledAt !== scheduledAt,
      )
      .map((earlier) => ({ ...earlier, text }));
    return findDuplicate<DuplicateSubject & { row?: number }>(
      { botId, text, at },
      [...posts, ...rows],
      windowMs,
    );
  }
}
