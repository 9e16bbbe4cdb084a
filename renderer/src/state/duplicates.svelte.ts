// The duplicate-content guard as the user meets it (browser): a call the core refuses because its
// text repeats another post of the bot asks "post it anyway?" in one dialog for the whole app, and
// is sent again with allowDuplicate on yes. Every call that sends a post out goes through `run`.
import type { CallResult } from '../../../shared/answers';
import type { DuplicateConflict } from '../../../shared/domain';
import { formatDateTime } from '../lib/format';
import { STATUS_MARKS } from './post-status';

/** What a guarded call adds to its input: nothing the first time, allowDuplicate after a yes. */
export type Overrule = { allowDuplicate?: true };

export interface DuplicateQuestion {
  id: number;
  conflict: DuplicateConflict;
}

/** A conflict as the dialog words it, times in the user's zone. */
export interface ConflictSummary {
  postId: number;
  /** The other post's first line: what the user recognises it by. */
  firstLine: string;
  status: string;
  /** "goes out" or "went out", and when. */
  timing: string;
  requested: string;
  /** The duplicate window, e.g. "3 days". */
  window: string;
}

export function describeConflict(
  conflict: DuplicateConflict,
  zone: string,
  now = Date.now(),
): ConflictSummary {
  const when = (ms: number) => `${formatDateTime(ms, zone)} (${zone})`;
  return {
    postId: conflict.postId,
    firstLine: conflict.text.trim().split('\n', 1)[0] ?? '',
    status: STATUS_MARKS[conflict.status].label,
    timing: `${conflict.at <= now ? 'went out' : 'goes out'} ${when(conflict.at)}`,
    requested: when(conflict.requestedAt),
    window: `${conflict.windowDays} ${conflict.windowDays === 1 ? 'day' : 'days'}`,
  };
}

export class DuplicateGuard {
  /** Questions waiting for the user, in the order asked; the dialog shows the first. */
  private waiting = $state.raw<(DuplicateQuestion & { settle: (yes: boolean) => void })[]>([]);
  private nextId = 1;
  readonly question: DuplicateQuestion | null = $derived(this.waiting[0] ?? null);

  /**
   * Sends a call; when the core answers `duplicate`, asks the user and, on yes, sends it again
   * with allowDuplicate. Null when the user said no: nothing was changed.
   */
  async run<T>(
    call: (overrule: Overrule) => Promise<CallResult<T>>,
  ): Promise<CallResult<T> | null> {
    const first = await call({});
    const conflict = first.ok ? undefined : first.error.duplicate;
    if (first.ok || first.error.kind !== 'duplicate' || !conflict) return first;
    if (!(await this.ask(conflict))) return null;
    return call({ allowDuplicate: true });
  }

  private ask(conflict: DuplicateConflict): Promise<boolean> {
    return new Promise((settle) => {
      this.waiting = [...this.waiting, { id: this.nextId++, conflict, settle }];
    });
  }

  /** The user's answer to a question (a second answer to the same one is ignored). */
  answer(id: number, yes: boolean): void {
    const asked = this.waiting.find((question) => question.id === id);
    if (!asked) return;
    this.waiting = this.waiting.filter((question) => question !== asked);
    asked.settle(yes);
  }
}
