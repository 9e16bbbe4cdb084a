// Browser. Where the first screen's work is cut into tasks: one long task holds back the page's
// first paint and every key and click until it ends (Lighthouse's total blocking time counts each
// task's time past 50 ms), so parts that can come a moment later wait for a task of their own.

interface YieldingScheduler {
  yield(): Promise<void>;
}

/**
 * Resolves in a later task, after the browser could paint and handle input. scheduler.yield()
 * where the browser has it (its continuation goes before other waiting tasks), else a timer.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<YieldingScheduler> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
