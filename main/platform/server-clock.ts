// The server's clock as seen from ours (Node, main process). A Date header has whole seconds and
// arrives some time after it was written, so one answer only bounds the skew; the bounds of many
// answers, intersected, pin it down to the answer's round trip. A skew that jumps out of the
// bounds (the server's clock was set) starts them afresh.

export interface SkewSample {
  /** The answer's Date header, on the server's clock. */
  serverDateMs: number;
  /** Our clock when the request left and when its answer came. */
  sentAtMs: number;
  receivedAtMs: number;
}

export class ServerClock {
  /** The server's clock minus ours lies in [low, high]. */
  private low = -Infinity;
  private high = Infinity;

  constructor(skewMs: number | null = null) {
    if (skewMs !== null) {
      // A skew kept from an earlier run: a starting guess the first answers narrow or replace.
      this.low = skewMs - 1_000;
      this.high = skewMs + 1_000;
    }
  }

  observe({ serverDateMs, sentAtMs, receivedAtMs }: SkewSample): void {
    // The server wrote Date at some instant between our send and receipt, rounded down to a second.
    const low = serverDateMs - receivedAtMs;
    const high = serverDateMs + 1_000 - sentAtMs;
    if (low > this.high || high < this.low) {
      this.low = low;
      this.high = high;
      return;
    }
    this.low = Math.max(this.low, low);
    this.high = Math.min(this.high, high);
  }

  /** The server's lead over our clock in ms (negative: behind); 0 before any answer. */
  get skewMs(): number {
    if (!Number.isFinite(this.low) || !Number.isFinite(this.high)) return 0;
    return Math.round((this.low + this.high) / 2);
  }

  /** Half the width of the bounds: how far `skewMs` may be off. */
  get uncertaintyMs(): number {
    return this.known ? (this.high - this.low) / 2 : Infinity;
  }

  get known(): boolean {
    return Number.isFinite(this.low) && Number.isFinite(this.high);
  }
}
