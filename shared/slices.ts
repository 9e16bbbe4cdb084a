// Long work cut into slices (pure TypeScript, given a clock): an import's write transactions, a
// sync's pages read and written, the end of a whole read. Each slice takes as many units as the
// last one's pace fits in a budget well under a frame, and the caller lets the event loop turn
// between slices, so the app's other calls wait one slice at most, never the whole job (#32).

/** What one slice may hold the thread: half a frame, as a loaded machine stretches it. */
export const SLICE_BUDGET_MS = 8;

/** How many units a slice takes: the first slice's count, and the least and most of any. */
export interface SliceBounds {
  first: number;
  min: number;
  max: number;
  /**
   * At most this many times the last slice's units, however fast it went: one quick slice (a
   * warm cache, a moment the machine was idle) is no promise that eight times as much will fit.
   */
  growth?: number;
}

export class SliceSizer {
  private units: number;

  constructor(
    private readonly bounds: SliceBounds,
    private readonly budgetMs = SLICE_BUDGET_MS,
  ) {
    this.units = bounds.first;
  }

  /** How many units the next slice takes. */
  get size(): number {
    return this.units;
  }

  /** A slice of `units` took `ms`: the next takes as many as fit the budget at that pace. */
  took(units: number, ms: number): void {
    const perUnit = ms / Math.max(units, 1);
    const fits = Math.floor(this.budgetMs / Math.max(perUnit, 1e-6));
    const { min, max, growth = Infinity } = this.bounds;
    this.units = Math.max(min, Math.min(max, fits, Math.floor(units * growth)));
  }
}

/**
 * A whole turn of the event loop, given the host's `setImmediate`: deferred twice, since one
 * deferral made after an I/O callback (a page's body arriving) runs in that same turn, before any
 * due timer or waiting I/O, and slices joined that way held the thread 20-60 ms (#32).
 */
export function loopTurn(defer: (run: () => void) => unknown): Promise<void> {
  return new Promise((resolve) => defer(() => defer(resolve)));
}

/** A clock for slices: the time, and a turn of the event loop. */
export interface SliceClock {
  now(): number;
  turn(): Promise<void>;
}

/**
 * `work` over `items` a slice at a time, in order, a turn of the event loop (`clock.turn`)
 * between slices: how many turns it let in.
 */
export async function inSlices<T>(
  items: readonly T[],
  sizer: SliceSizer,
  clock: SliceClock,
  work: (slice: readonly T[]) => void,
): Promise<number> {
  let turns = 0;
  for (let from = 0; from < items.length;) {
    if (from > 0) {
      await clock.turn();
      turns++;
    }
    const slice = items.slice(from, from + sizer.size);
    const started = clock.now();
    work(slice);
    sizer.took(slice.length, clock.now() - started);
    from += slice.length;
  }
  return turns;
}
