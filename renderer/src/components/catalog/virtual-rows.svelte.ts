// Row virtualisation for the catalog grid (browser): rows of one fixed height over a scroller,
// exposed as runes so only the rows in view (plus overscan) are rendered.
//
// A browser will not make an element taller than about 33,554,432 px (Chromium; Firefox stops
// near 17.9 million), and a million 34-pixel rows need 34 million. So, as AG Grid and Glide Data
// Grid do, the scroll range is capped at MAX_SCROLL_HEIGHT and scaled: the scrollbar's range maps
// onto the list's whole range, and the rows in view are drawn where the list would have them at
// that point. Below the cap the scale is exactly 1 and nothing changes. Past the sizer (the paste
// target below the last row) the scroll is 1:1 again. A row's index is never estimated from the
// scroll position alone when the grid itself scrolled there (the keyboard): the offset it asked
// for is kept, so the active row shows whole, to the pixel.

/** Taller than any catalog below ~440,000 rows needs; well under every browser's limit. */
export const MAX_SCROLL_HEIGHT = 15_000_000;

/** The height assumed while the scroller measures 0 (not laid out yet, or in a hidden tab). */
const UNMEASURED_HEIGHT = 600;

export class VirtualRows {
  /**
   * The indexes of the rows rendered, first to last, drawn by a fixed pool of slots: row `index`
   * always takes slot `index % poolSize` (the grid's key), so as the view moves only the slots
   * of the rows coming into view change, and their elements are reused (as AG Grid's and Glide's
   * are) instead of rows being made and thrown away each frame; a reused element moves to its
   * row's place in the page, so the page reads in the rows' order. Numbers, not objects: a slot
   * whose row stays keeps the same value, so nothing in it runs again.
   */
  indexes = $state.raw<number[]>([]);
  /** How many slots the pool has: the rows rendered. */
  poolSize = $state(0);
  /** Where row 0 stands in the sizer's coordinates; a row's top is `top(index)`. */
  origin = $state(0);
  /** The sizer's height: the list's, capped at MAX_SCROLL_HEIGHT. */
  totalSize = $state(0);
  private count = 0;
  private viewport = UNMEASURED_HEIGHT;
  /** Where the view's top is in the whole list, in pixels. */
  private offset = 0;
  /** The scrollTop the grid set for `offset` itself; a scroll event there keeps `offset`. */
  private ownScrollTop: number | null = null;
  /** The first and last index in `indexes`. */
  private shownStart = -1;
  private shownEnd = -1;

  constructor(
    private readonly getScroller: () => HTMLElement | null,
    readonly rowHeight: number,
    /** Told the first and last index rendered, whenever they change. */
    private readonly onRange: (start: number, end: number) => void,
    /**
     * Rows drawn past either edge of the view: 170 px, more than a frame of fast scrolling
     * moves. Few, as Chromium paints every row drawn again on each frame of scrolling (its
     * traces show the paint, layerize and pre-paint time per frame growing with the rows).
     */
    private readonly overscan = 5,
  ) {}

  /** Starts following the scroller; returns the way to stop (an effect's cleanup). */
  attach(): () => void {
    const scroller = this.getScroller();
    if (!scroller) return () => {};
    // A scroll reads the scroll position only; the height is read when it changes, once the
    // browser has laid the page out, so no frame forces a layout of its own.
    const follow = () => this.follow(scroller);
    const measure = () => {
      const height = scroller.clientHeight;
      this.viewport = height > 0 ? height : UNMEASURED_HEIGHT;
      follow();
    };
    scroller.addEventListener('scroll', follow, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(scroller);
    measure();
    return () => {
      scroller.removeEventListener('scroll', follow);
      resized.disconnect();
    };
  }

  setCount(count: number): void {
    if (count === this.count) return;
    this.count = count;
    this.totalSize = Math.min(count * this.rowHeight, MAX_SCROLL_HEIGHT);
    const scroller = this.getScroller();
    if (scroller) this.follow(scroller);
    else this.publish(0);
  }

  /** Row `index`'s top in the sizer's coordinates (what `translateY` takes). */
  top(index: number): number {
    return this.origin + index * this.rowHeight;
  }

  /** Rows that fit in the scroller now, for PageUp and PageDown. */
  get pageRows(): number {
    return Math.max(1, Math.floor(this.viewport / this.rowHeight) - 1);
  }

  /** Scrolls just enough to show row `index` (the active cell), whole. */
  reveal(index: number): void {
    if (index < 0 || index >= this.count) return;
    const top = index * this.rowHeight;
    const bottom = top + this.rowHeight;
    if (top < this.offset) this.scrollTo(top);
    else if (bottom > this.offset + this.viewport) this.scrollTo(bottom - this.viewport);
  }

  scrollToTop(): void {
    this.scrollTo(0);
  }

  /** How far the list's top may move up: its height less the view's. */
  private get listRange(): number {
    return Math.max(0, this.count * this.rowHeight - this.viewport);
  }

  /** How far the scrollbar moves over the rows (the sizer less the view). */
  private get barRange(): number {
    return Math.max(0, this.totalSize - this.viewport);
  }

  /** List pixels per scrollbar pixel: 1 below the cap. */
  private get scale(): number {
    return this.barRange > 0 ? Math.max(1, this.listRange / this.barRange) : 1;
  }

  private offsetAt(scrollTop: number): number {
    if (scrollTop <= this.barRange) return Math.min(scrollTop * this.scale, this.listRange);
    return this.listRange + (scrollTop - this.barRange);
  }

  private scrollTopFor(offset: number): number {
    if (offset <= this.listRange) return offset / this.scale;
    return this.barRange + (offset - this.listRange);
  }

  private scrollTo(offset: number): void {
    this.offset = Math.max(0, Math.min(offset, this.listRange));
    const scroller = this.getScroller();
    if (!scroller) return this.publish(0);
    scroller.scrollTop = this.scrollTopFor(this.offset);
    // Read back: the browser rounds it to its own pixels.
    this.ownScrollTop = scroller.scrollTop;
    this.publish(scroller.scrollTop);
  }

  private follow(scroller: HTMLElement): void {
    const scrollTop = scroller.scrollTop;
    if (this.ownScrollTop === null || Math.abs(scrollTop - this.ownScrollTop) >= 1) {
      this.ownScrollTop = null;
      this.offset = this.offsetAt(scrollTop);
    }
    this.publish(scrollTop);
  }

  private publish(scrollTop: number): void {
    // Where row 0 would be in the sizer for the view to show `offset` at `scrollTop`.
    this.origin = scrollTop - this.offset;
    // As many rows as the view and the overscan on both sides hold, whole at either end too.
    const size = Math.min(
      this.count,
      Math.ceil(this.viewport / this.rowHeight) + 1 + 2 * this.overscan,
    );
    const first = Math.max(
      0,
      Math.min(Math.floor(this.offset / this.rowHeight) - this.overscan, this.count - size),
    );
    if (first === this.shownStart && first + size - 1 === this.shownEnd) return;
    this.poolSize = size;
    this.indexes = Array.from({ length: size }, (_, at) => first + at);
    this.shownStart = first;
    this.shownEnd = first + size - 1;
    if (size > 0) this.onRange(first, this.shownEnd);
  }
}
