// Reloads driven by live events (browser): a burst of events (a hundred posts published) must not
// start a hundred overlapping loads.

/**
 * Wraps `run` so that calls while it runs collapse into one more run after it, and every caller's
 * promise settles when the data it asked for has arrived.
 */
export function coalesce(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  return function next(): Promise<void> {
    if (!running) {
      running = run().finally(() => {
        running = null;
      });
      return running;
    }
    again ??= running
      .catch(() => undefined)
      .then(() => {
        again = null;
        return next();
      });
    return again;
  };
}
