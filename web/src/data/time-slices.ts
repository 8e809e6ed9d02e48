/**
 * Long loops hand their thread back every few milliseconds: on a page so that typing and
 * painting are not held up, in the data worker (the projection reading a first sync's
 * 100,000 records) so that IndexedDB's answers and the pages' calls are not.
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

/**
 * Ends the current task; what follows runs after the tasks already queued, where
 * scheduler.yield() would resume ahead of them. In the data worker those are IndexedDB's
 * answers and the pages' calls: a first sync reading 100,000 records in slices resumed by
 * scheduler.yield() held back the writes of the tables it had read for seconds, and a page's
 * write with them. A message to itself, not a timer: a timer set from a timer's task waits
 * 4 ms at least once they nest five deep, and these pauses nest.
 */
export function yieldBehindQueued(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Slices of `budgetMs`, each pause ended by `pause` (yieldToBrowser on a page, yieldBehindQueued in the data worker). */
export function timeSlices(budgetMs = 8, pause: () => Promise<void> = yieldToBrowser): TimeSlices {
  let started = performance.now();
  return {
    due: () => performance.now() - started >= budgetMs,
    async pause() {
      await pause();
      started = performance.now();
    },
  };
}
