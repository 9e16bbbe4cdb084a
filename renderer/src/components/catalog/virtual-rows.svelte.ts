// Row virtualisation for the catalog grid (browser): @tanstack/virtual-core over a fixed-height
// scroller, exposed as runes so only the rows in view (plus overscan) are rendered.
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
} from '@tanstack/virtual-core';
import type { VirtualItem } from '@tanstack/virtual-core';

/** The height assumed while the scroller measures 0 (not laid out yet, or in a hidden tab). */
const UNMEASURED_HEIGHT = 600;

export class VirtualRows {
  items = $state.raw<VirtualItem[]>([]);
  totalSize = $state(0);
  private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;

  constructor(
    getScroller: () => HTMLElement | null,
    readonly rowHeight: number,
    /** Told the first and last index rendered, whenever they change. */
    private readonly onRange: (start: number, end: number) => void,
    overscan = 10,
  ) {
    this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
      count: 0,
      getScrollElement: getScroller,
      // Every row has the same height, so nothing is measured while scrolling.
      estimateSize: () => rowHeight,
      overscan,
      // A scroller measured at 0 would render no rows at all; a screenful shows the first ones
      // at once, and the real size replaces it as soon as there is one.
      observeElementRect: (instance, report) =>
        observeElementRect(instance, (rect) =>
          report(rect.height > 0 ? rect : { width: rect.width, height: UNMEASURED_HEIGHT }),
        ),
      observeElementOffset,
      scrollToFn: elementScroll,
      onChange: () => this.publish(),
    });
  }

  /** Starts following the scroller; returns the way to stop (an effect's cleanup). */
  attach(): () => void {
    const stop = this.virtualizer._didMount();
    this.virtualizer._willUpdate();
    return stop;
  }

  setCount(count: number): void {
    if (count === this.virtualizer.options.count) return;
    this.virtualizer.setOptions({ ...this.virtualizer.options, count });
    this.virtualizer._willUpdate();
    this.publish();
  }

  /** Rows that fit in the scroller now, for PageUp and PageDown. */
  get pageRows(): number {
    const height = this.virtualizer.scrollRect?.height ?? 0;
    return Math.max(1, Math.floor(height / this.rowHeight) - 1);
  }

  /** Scrolls just enough to show row `index` (the active cell). */
  reveal(index: number): void {
    if (index < this.virtualizer.options.count)
      this.virtualizer.scrollToIndex(index, { align: 'auto' });
  }

  scrollToTop(): void {
    this.virtualizer.scrollToOffset(0);
  }

  private publish(): void {
    const items = this.virtualizer.getVirtualItems();
    this.items = items;
    this.totalSize = this.virtualizer.getTotalSize();
    const first = items[0];
    const last = items.at(-1);
    if (first && last) this.onRange(first.index, last.index);
  }
}
