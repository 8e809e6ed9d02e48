/**
 * Work that fills a screen in the background (the horse list's pages) goes after the work a
 * person is waiting for. On a phone the list's pages keep the main thread busy for a while
 * after the first rows, and a horse saved then would wait behind them: each of the save's
 * IndexedDB answers queued behind a page.
 */

/** The longest one piece of foreground work holds the background back (an edit during a start waits seconds for the data worker). */
export const FOREGROUND_HOLD_MS = 1000;

let foreground = 0;
let waiting: (() => void)[] = [];

/**
 * Marks `work` as what the person is waiting for (a save): background turns wait until it
 * has settled, or for FOREGROUND_HOLD_MS at most. Returns `work` itself.
 */
export function inForeground<T>(work: Promise<T>): Promise<T> {
  foreground += 1;
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    clearTimeout(timer);
    foreground -= 1;
    if (foreground > 0) return;
    const resume = waiting;
    waiting = [];
    for (const go of resume) go();
  };
  const timer = setTimeout(release, FOREGROUND_HOLD_MS);
  work.then(release, release);
  return work;
}

/**
 * Resolves once the browser has nothing more urgent to run: no foreground work (above) under
 * way, then a task at background priority (scheduler.postTask, Chromium and Firefox), so
 * input, rendering, messages from the data worker and any task already queued go first.
 * Elsewhere (Safari) a task, which at least lets the tasks already queued run.
 */
export async function backgroundTurn(): Promise<void> {
  while (foreground > 0) await new Promise<void>((resume) => waiting.push(resume));
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.postTask === 'function') return scheduler.postTask(() => {}, { priority: 'background' });
  return new Promise((resolve) => setTimeout(resolve, 0));
}

type Scheduler = { postTask?: (task: () => void, options: { priority: 'background' }) => Promise<void> };
