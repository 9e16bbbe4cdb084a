// The page before the core (Node): opening the session loads the core's code and opens the
// workspace, a second of work on one core. Begun while a browser opened from the printed URL is
// still drawing the page, it takes the CPU the page needs (two cores: the browser's renderer, its
// other processes and this one), so the opening waits until the page's first call, which comes
// once the page has mounted and needs the session anyway, or a limit passes (no page came).
// Waiting for the page's first files only (before) began it while the page's script ran:
// bench:ui's start to an interactive page was 100–150 ms later, its data no sooner.

/** Resolves `ready` at the first call or once `limitMs` passed. */
export class FirstCall {
  readonly ready: Promise<void>;
  private release!: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(limitMs: number) {
    this.ready = new Promise((resolve) => (this.release = resolve));
    this.timer = setTimeout(() => this.done(), limitMs);
  }

  done(): void {
    clearTimeout(this.timer);
    this.release();
  }
}
