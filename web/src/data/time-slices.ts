/**
 * Long loops on the main thread (the projection comparing 21,000 rows at start) hand it
 * back to the browser every few milliseconds, so typing and painting are not held up.
 */
export type TimeSlices = {
  /** True once the current slice has used its budget. */
  due(): boolean;
  /** Lets the browser run input, rendering and other tasks, then starts a new slice. */
  pause(): Promise<void>;
};

type Scheduler = { yield?: () => Promise<void> };

/** Ends the current task; what follows runs in a later one, after input and rendering. */
export function yieldToBrowser(): Promise<void> {
  // scheduler.yield() (Chromium) resumes ahead of other queued tasks; elsewhere a task.
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export function timeSlices(budgetMs = 8): TimeSlices {
  let started = performance.now();
  return {
    due: () => performance.now() - started >= budgetMs,
    async pause() {
      await yieldToBrowser();
      started = performance.now();
    },
  };
}
