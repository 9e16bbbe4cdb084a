// Quitting cleanly (Electron main process): nothing new starts, requests already on their way
// get a bounded time to settle so their outcome is recorded, then the workspace closes its
// database. An item cut off mid-request is still safe (it is reconciled at the next start), but
// waiting spares the platform a lookup and the user a "sending" item.
import type { Session } from '../core/session';
import type { Log } from './log';

/** The calls from the window that have not answered yet. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  get size(): number {
    return this.running.size;
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const done = () => this.running.delete(work);
    work.then(done, done);
    return work;
  }

  /** Resolves when every call running now has answered. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

export interface QuitOptions {
  session: Session;
  calls: InFlight;
  log: Log;
  /** How long to wait for requests in flight (default 10 s): the OS may kill a slow quitter. */
  timeoutMs?: number;
}

/** Resolves with true when everything settled in time, false when the wait was cut short. */
export async function drainAndClose(options: QuitOptions): Promise<boolean> {
  const { session, calls, log, timeoutMs = 10_000 } = options;
  const workspace = session.current;
  const work: Promise<unknown>[] = [calls.settled()];
  if (workspace.connected) {
    // Pausing keeps the publisher from claiming more items; joining its pass waits for the
    // requests it has out. The pause is not stored, so the next start publishes as usual.
    workspace.queue.pauseQueue();
    work.push(workspace.queue.publishDue());
  }
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    Promise.allSettled(work).then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (!inTime)
    log.warn(
      `Quit: requests still in flight after ${timeoutMs} ms; they will be checked at the next start`,
    );
  await session.close();
  log.info('Quit: the workspace is closed');
  return inTime;
}
