// The heartbeat (Node, main process). node-cron ticks (every second) only to wake the publisher:
// it never replays missed runs, so every tick — and start-up, and any change — drains whatever
// the durable outbox says is due. A precise timer covers items due between ticks.
import cron from 'node-cron';
import type { ScheduledTask } from 'node-cron';
import type { WorkspaceStore } from '../store';
import type { DrainReport, Publisher } from './publisher';

/** When the heartbeat ticks: a cron expression, and the longest gap between two of its ticks. */
export interface Heartbeat {
  cron: string;
  everyMs: number;
}

/** Every second: an item is never more than a second late, even if its precise timer is lost. */
export const EVERY_SECOND: Heartbeat = { cron: '* * * * * *', everyMs: 1_000 };

export interface SchedulerOptions {
  publisher: Publisher;
  store: WorkspaceStore;
  now?: () => number;
  heartbeat?: Heartbeat;
  onDrained?: (report: DrainReport) => void;
  onError?: (error: unknown) => void;
}

export class Scheduler {
  private task: ScheduledTask | null = null;
  private precise: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly heartbeat: Heartbeat;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? Date.now;
    this.heartbeat = options.heartbeat ?? EVERY_SECOND;
  }

  start(): void {
    if (this.task) return;
    // The tick only nudges: passes never overlap because the publisher runs one at a time and a
    // nudge during a pass makes it look again.
    this.task = cron.schedule(this.heartbeat.cron, () => void this.wake(), {
      noOverlap: true,
      name: 'pressroom-heartbeat',
    });
    this.wake();
  }

  /** Drains now; called by the tick, at start-up, and whenever something was queued or changed. */
  wake(): Promise<void> {
    if (!this.task) return Promise.resolve();
    return this.options.publisher
      .drain()
      .then((report) => {
        this.options.onDrained?.(report);
        this.armPreciseTimer();
      })
      .catch((error: unknown) => this.options.onError?.(error));
  }

  async stop(): Promise<void> {
    if (this.precise) clearTimeout(this.precise);
    this.precise = null;
    await this.task?.destroy();
    this.task = null;
  }

  /** An item due before the next tick gets its own timer, so it goes out on time, not up to a tick late. */
  private armPreciseTimer(): void {
    if (this.precise) clearTimeout(this.precise);
    this.precise = null;
    const next = this.options.store.outbox.nextReadyAt();
    if (next === null || !this.task) return;
    const wait = next - this.now();
    if (wait > 0 && wait < this.heartbeat.everyMs)
      this.precise = setTimeout(() => void this.wake(), wait);
  }
}
